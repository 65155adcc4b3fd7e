-- Registered keys: public parts only. Private keys are refused at the boundary and never stored.
CREATE TABLE keys (
  key_id text PRIMARY KEY CHECK (key_id ~ '^SCK[0-9a-f]{32}$'),
  user_id text NOT NULL UNIQUE,
  username text NOT NULL CHECK (length(username) BETWEEN 1 AND 64),
  dilithium_public_key bytea NOT NULL CHECK (octet_length(dilithium_public_key) = 1952),
  ecdsa_public_key bytea NOT NULL CHECK (octet_length(ecdsa_public_key) = 65),
  fingerprint text NOT NULL UNIQUE,
  -- The level that counts is this record's, never the key file's (DESIGN.md, "Wire formats").
  permission_level text NOT NULL CHECK (permission_level IN ('admin', 'user', 'observer', 'guest')),
  capabilities text[] NOT NULL,
  rooms text[] NOT NULL DEFAULT ARRAY['all'],
  issued_at timestamptz NOT NULL,
  expires_at timestamptz,
  self_signature bytea NOT NULL,
  hardware_fingerprint text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

-- Login challenges: single use (deleted when used), valid two minutes. Kept in the database so
-- that a challenge issued by one process is verifiable on another.
CREATE TABLE auth_challenges (
  challenge text PRIMARY KEY,
  key_id text NOT NULL REFERENCES keys (key_id) ON DELETE CASCADE,
  nonce text NOT NULL,
  issued_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX auth_challenges_expires_at ON auth_challenges (expires_at);

-- Key-holder sessions. Only the SHA-256 of the token is stored.
CREATE TABLE sessions (
  token_hash text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  key_id text NOT NULL REFERENCES keys (key_id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_key_id ON sessions (key_id);
CREATE INDEX sessions_expires_at ON sessions (expires_at);

-- Admin console sessions from the admin password (ten minutes). Only the token's hash is stored.
CREATE TABLE admin_sessions (
  token_hash text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
