-- Direct messages are end to end only (docs/decisions.md, "Server-assisted DM threads removed").
-- 1. Erase every thread key the server ever held, before anything else.
UPDATE dm_threads SET server_key = NULL WHERE server_key IS NOT NULL;
-- 2. Threads made before this change carry no creator signature and their messages no counter
--    or sender signature, so no client could check them any more: they are deleted (with their
--    messages, ON DELETE CASCADE). They would have destroyed themselves within a day anyway.
DELETE FROM dm_threads;
-- 3. The column and the mode go; the check that named them goes with the column.
ALTER TABLE dm_threads DROP COLUMN server_key;
ALTER TABLE dm_threads ALTER COLUMN wrapped_key1 SET NOT NULL;
ALTER TABLE dm_threads ALTER COLUMN wrapped_key2 SET NOT NULL;
ALTER TABLE dm_threads ADD CONSTRAINT dm_threads_mode_e2e CHECK (mode = 'e2e');
-- The creator's signed thread grant (shared/crypto/dm/thread-grant.ts), stored as sent.
ALTER TABLE dm_threads ADD COLUMN key_commitment text NOT NULL;
ALTER TABLE dm_threads ADD COLUMN signature_ml_dsa text NOT NULL;
ALTER TABLE dm_threads ADD COLUMN signature_ecdsa text NOT NULL;
-- Each message's place in its sender's sequence, the sender's clock and ML-DSA-65 signature
-- (shared/crypto/dm/message-seal.ts).
ALTER TABLE dm_messages ADD COLUMN counter bigint NOT NULL CHECK (counter >= 1);
ALTER TABLE dm_messages ADD COLUMN signed_at text NOT NULL;
ALTER TABLE dm_messages ADD COLUMN signature text NOT NULL;
