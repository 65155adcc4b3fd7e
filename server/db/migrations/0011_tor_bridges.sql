-- Tor bridges (spec 000 §3): written into tor's configuration as `Bridge` lines. Every field was
-- validated against a closed character set before it was stored (shared/protocol/http/tor.ts).
CREATE TABLE tor_bridges (
  id uuid PRIMARY KEY,
  type text NOT NULL CHECK (type IN ('obfs4', 'meek', 'snowflake', 'webtunnel')),
  address text NOT NULL,
  fingerprint text NOT NULL,
  args text[] NOT NULL DEFAULT '{}',
  country text NOT NULL DEFAULT 'Unknown',
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX tor_bridges_unique ON tor_bridges (type, address, fingerprint);
