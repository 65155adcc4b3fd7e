-- Login challenges are live state (two minutes, single use): they now live in the process, or in
-- Redis when several processes run, like the other short-lived state. Outstanding challenges are
-- simply asked for again.
DROP TABLE IF EXISTS auth_challenges;
