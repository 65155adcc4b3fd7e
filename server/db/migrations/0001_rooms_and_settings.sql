-- Rooms: the durable part of a channel. Messages never live here (DESIGN.md principle 2).
CREATE TABLE rooms (
  id uuid PRIMARY KEY,
  secure_id text NOT NULL UNIQUE CHECK (secure_id ~ '^[0-9a-f]{64}$'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
  is_private boolean NOT NULL DEFAULT false,
  security_level text NOT NULL DEFAULT 'public'
    CHECK (security_level IN ('public', 'restricted', 'classified', 'top_secret')),
  -- Slow salted hash (scrypt) of the client's SHA-256 of the access code; null for public rooms.
  access_code_hash text,
  self_destruct_timer double precision CHECK (self_destruct_timer IS NULL OR self_destruct_timer > 0),
  destruction_at timestamptz,
  is_default boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- At most one default public room, even when several processes start at once.
CREATE UNIQUE INDEX rooms_one_default ON rooms (is_default) WHERE is_default;
CREATE INDEX rooms_destruction_at ON rooms (destruction_at) WHERE destruction_at IS NOT NULL;

-- Small operator settings (for example the admin password hash).
CREATE TABLE settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
