-- Room moderation (issue 23) and the room's creator (issue 15 item 4). The server cannot read room
-- content: everything here names members (key ids, or a keyed hash of an anonymous visitor's
-- address) and rooms, never what anyone wrote.

-- The key holder who created the room is its admin; null for rooms made by anonymous visitors
-- and for the default room. A moderation lock makes new joins need the access code.
ALTER TABLE rooms ADD COLUMN creator_key_id text;
ALTER TABLE rooms ADD COLUMN is_locked boolean NOT NULL DEFAULT false;

-- Moderators appointed by a room's admins. Only key holders hold a role: anonymous callsigns
-- have no stable identity.
CREATE TABLE room_roles (
  room_id uuid NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
  key_id text NOT NULL REFERENCES keys (key_id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('moderator')),
  appointed_by text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (room_id, key_id)
);

-- Kick cool-downs, mutes and bans. The subject is `key:<keyId>` for a key holder or
-- `addr:<HMAC-SHA-256 of the address>` for an anonymous visitor; anonymous sanctions always end.
-- Rows are deleted once `until` has passed.
CREATE TABLE room_sanctions (
  id uuid PRIMARY KEY,
  room_id uuid NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('kick', 'mute', 'ban')),
  subject text NOT NULL CHECK (subject ~ '^(key:SCK[0-9a-f]{32}|addr:[0-9a-f]{32})$'),
  subject_name text NOT NULL,
  until timestamptz,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  CHECK (until IS NOT NULL OR (kind = 'ban' AND subject LIKE 'key:%'))
);
CREATE INDEX room_sanctions_subject ON room_sanctions (room_id, subject);
CREATE INDEX room_sanctions_until ON room_sanctions (until) WHERE until IS NOT NULL;

-- Who did what to whom, when: shown to the room's admins, kept 30 days.
CREATE TABLE room_moderation_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  room_id uuid NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  actor text NOT NULL,
  actor_role text NOT NULL,
  action text NOT NULL,
  target text,
  detail jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX room_moderation_log_room ON room_moderation_log (room_id, at DESC);
CREATE INDEX room_moderation_log_at ON room_moderation_log (at);
