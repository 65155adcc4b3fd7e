-- Keys made in the buyer's browser (issue 32). The server no longer makes a purchased key: the
-- buyer's browser does, and sends only the public part with a proof of possession (both keys
-- sign `key_challenge`). `public_key` holds that public part (JSON) until it is registered once
-- the payment is confirmed; `username` is the name the buyer chose before paying, held by one
-- open payment at a time (the unique index; keys are checked by the service).
-- The sealed key files of the old flow are erased and their column dropped: the server never
-- holds a purchased private key again.
DROP INDEX IF EXISTS payments_key_ready;
UPDATE payments SET key_file = NULL WHERE key_file IS NOT NULL;
ALTER TABLE payments DROP COLUMN key_file;
ALTER TABLE payments ADD COLUMN username text;
ALTER TABLE payments ADD COLUMN key_challenge text;
ALTER TABLE payments ADD COLUMN public_key text;
CREATE UNIQUE INDEX payments_open_username ON payments (lower(username))
  WHERE username IS NOT NULL AND status NOT IN ('expired', 'failed');
