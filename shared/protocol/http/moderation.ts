/**
 * `GET /api/rooms/:id/moderation-log` (issue 23): a room's moderation log for its admins (the
 * creator and service admins), newest first, with the room's moderators and active bans.
 */
import { z } from 'zod';

/** One log line: who did what to whom, when. Names only; never content. */
export const ModerationLogEntrySchema = z.object({
  id: z.number().int(),
  at: z.iso.datetime(),
  actor: z.string(),
  actorRole: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
});
export type ModerationLogEntry = z.infer<typeof ModerationLogEntrySchema>;

/** A moderator of the room (key holders only; key ids are public). */
export const RoomModeratorSchema = z.object({
  keyId: z.string(),
  username: z.string(),
  appointedBy: z.string(),
  since: z.iso.datetime(),
});

/** A ban still in force: `until` null means for good. */
export const ActiveBanSchema = z.object({
  id: z.string(),
  name: z.string(),
  isKeyHolder: z.boolean(),
  until: z.iso.datetime().nullable(),
  by: z.string(),
});

export const ModerationLogResponseSchema = z.object({
  roomId: z.string(),
  isLocked: z.boolean(),
  entries: z.array(ModerationLogEntrySchema),
  moderators: z.array(RoomModeratorSchema),
  bans: z.array(ActiveBanSchema),
});
export type ModerationLogResponse = z.infer<typeof ModerationLogResponseSchema>;
