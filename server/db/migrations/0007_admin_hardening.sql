-- Failed admin logins are counted per time window, without the caller's address (issue 15): one
-- row per window whose detail.failures grows, instead of a row per attempt. window_key names the
-- window ('admin.login_failed:<window start, ISO>'); other rows leave it NULL (a unique index
-- allows any number of NULLs).
ALTER TABLE audit_log ADD COLUMN window_key text;
CREATE UNIQUE INDEX audit_log_window_key ON audit_log (window_key);

-- Rows written before this migration named the address of the admin password's user
-- ('admin-password@<address>'); SECURITY.md promises that addresses are not stored.
UPDATE audit_log SET actor = 'admin-password' WHERE actor LIKE 'admin-password@%';
DELETE FROM audit_log WHERE action = 'admin.login_failed';
