-- Key purchases (spec 001 §3, §4; DESIGN.md "Payments"). One row per payment, advanced only
-- forward by conditional UPDATEs, so several processes can share it.
--
-- The buyer's payment id is a bearer credential and is stored only as its SHA-256 (id_hash);
-- `ref`, a prefix of that hash, names the payment in the audit log and to the processor.
-- The purchased key file (with its private keys) is kept encrypted under a key derived from the
-- payment id, and only until the first download or 20 minutes: then key_file is set to NULL.
CREATE TABLE payments (
  id_hash text PRIMARY KEY,
  ref text NOT NULL UNIQUE,
  provider text NOT NULL CHECK (provider IN ('sandbox', 'nowpayments')),
  provider_ref text,
  tier text NOT NULL CHECK (tier IN ('general', 'restricted', 'classified')),
  amount_usd integer NOT NULL,
  currency text NOT NULL,
  address text NOT NULL,
  extra_id text,
  amount text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'confirming', 'confirmed', 'generating', 'ready', 'expired', 'failed')),
  confirmations integer NOT NULL DEFAULT 0,
  required_confirmations integer NOT NULL,
  transaction_hash text,
  paid_amount text,
  broadcast_at timestamptz,
  provider_checked_at timestamptz,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  generation_claim text,
  generation_started_at timestamptz,
  key_id text,
  key_file bytea,
  key_ready_at timestamptz,
  downloaded_at timestamptz,
  key_erased_at timestamptz,
  CHECK (key_file IS NULL OR status = 'ready')
);
CREATE UNIQUE INDEX payments_provider_ref ON payments (provider, provider_ref) WHERE provider_ref IS NOT NULL;
CREATE INDEX payments_status_expires ON payments (status, expires_at);
CREATE INDEX payments_key_ready ON payments (key_ready_at) WHERE key_file IS NOT NULL;
