-- Direct-message encryption keys of key holders (public halves, signed by the identity key).
ALTER TABLE keys ADD COLUMN kem_public_key bytea CHECK (kem_public_key IS NULL OR octet_length(kem_public_key) = 1184);
ALTER TABLE keys ADD COLUMN x25519_public_key bytea CHECK (x25519_public_key IS NULL OR octet_length(x25519_public_key) = 32);
ALTER TABLE keys ADD COLUMN encryption_key_signature bytea;

-- Threads between two key holders. In end-to-end mode the thread key exists here only wrapped to
-- each participant; in server-assisted mode (a participant's key predates encryption keys) the
-- server holds it, and the UI says so.
CREATE TABLE dm_threads (
  id uuid PRIMARY KEY,
  participant1 text NOT NULL REFERENCES keys (key_id) ON DELETE CASCADE,
  participant2 text NOT NULL REFERENCES keys (key_id) ON DELETE CASCADE,
  mode text NOT NULL CHECK (mode IN ('e2e', 'server-assisted')),
  wrapped_key1 text,
  wrapped_key2 text,
  server_key bytea,
  created_at timestamptz NOT NULL,
  last_message_at timestamptz,
  expires_at timestamptz NOT NULL,
  CHECK (participant1 <> participant2),
  CHECK ((mode = 'e2e' AND wrapped_key1 IS NOT NULL AND wrapped_key2 IS NOT NULL AND server_key IS NULL)
      OR (mode = 'server-assisted' AND server_key IS NOT NULL))
);
CREATE INDEX dm_threads_participant1 ON dm_threads (participant1);
CREATE INDEX dm_threads_participant2 ON dm_threads (participant2);
CREATE INDEX dm_threads_expires_at ON dm_threads (expires_at);

-- Ciphertext only; deleted at expires_at.
CREATE TABLE dm_messages (
  id uuid PRIMARY KEY,
  thread_id uuid NOT NULL REFERENCES dm_threads (id) ON DELETE CASCADE,
  sender_key_id text NOT NULL,
  encrypted text NOT NULL,
  iv text NOT NULL,
  sent_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX dm_messages_thread ON dm_messages (thread_id, sent_at);
CREATE INDEX dm_messages_expires_at ON dm_messages (expires_at);
