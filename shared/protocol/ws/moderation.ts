/**
 * Room moderation frames (issue 23). Every power acts on the sender's current room and on a
 * member (by `nodeId`, from the member list) or a message id: the server cannot read content, so
 * moderation never needs to. A frame that is not allowed is answered with an `error` frame to its
 * sender only; nothing else changes.
 */
import { z } from 'zod';
import { BAN_MAX_MINUTES, MUTE_MAX_MINUTES } from '../../constants.js';

const NodeIdSchema = z.string().regex(/^node_[0-9a-f]{16}$/);
const KeyIdSchema = z.string().regex(/^SCK[0-9a-f]{32}$/);

/** `kick_member {nodeId}`: the member leaves the room now and may rejoin after a cool-down. */
export const KickMemberFrameSchema = z.strictObject({
  type: z.literal('kick_member'),
  nodeId: NodeIdSchema,
});

/** `mute_member {nodeId, minutes}`: the server drops the member's messages until then. */
export const MuteMemberFrameSchema = z.strictObject({
  type: z.literal('mute_member'),
  nodeId: NodeIdSchema,
  minutes: z.number().int().min(1).max(MUTE_MAX_MINUTES),
});

/** `unmute_member {nodeId}`: lifts a mute (moderators: only their own). */
export const UnmuteMemberFrameSchema = z.strictObject({
  type: z.literal('unmute_member'),
  nodeId: NodeIdSchema,
});

/** `delete_message {messageId}`: removes a message for everyone (`message_deleted`). */
export const DeleteMessageFrameSchema = z.strictObject({
  type: z.literal('delete_message'),
  messageId: z.string().uuid(),
});

/**
 * `ban_member {nodeId, minutes}`: the member leaves and cannot come back, for `minutes` or, with
 * null, for good (key holders only: an anonymous visitor is banned by address, for a time).
 */
export const BanMemberFrameSchema = z.strictObject({
  type: z.literal('ban_member'),
  nodeId: NodeIdSchema,
  minutes: z.number().int().min(1).max(BAN_MAX_MINUTES).nullable(),
});

/** `unban_member {banId}`: lifts a ban listed in the room's moderation log. */
export const UnbanMemberFrameSchema = z.strictObject({
  type: z.literal('unban_member'),
  banId: z.string().uuid(),
});

/** `lock_room` / `unlock_room`: while locked, new joins need the access code. */
export const LockRoomFrameSchema = z.strictObject({
  type: z.enum(['lock_room', 'unlock_room']),
});

/**
 * `appoint_moderator {nodeId}` / `remove_moderator {nodeId | keyId}`: room admins manage the
 * room's moderators (key holders only). A moderator who is not in the room is removed by key id.
 */
export const AppointModeratorFrameSchema = z.strictObject({
  type: z.literal('appoint_moderator'),
  nodeId: NodeIdSchema,
});
export const RemoveModeratorFrameSchema = z
  .strictObject({
    type: z.literal('remove_moderator'),
    nodeId: NodeIdSchema.optional(),
    keyId: KeyIdSchema.optional(),
  })
  .refine((frame) => (frame.nodeId === undefined) !== (frame.keyId === undefined), {
    message: 'Name the moderator by nodeId or keyId',
  });

/** The viewer's own role in the room and the room's lock, on joining and whenever either changes. */
export const ModerationStateFrameSchema = z.object({
  type: z.literal('moderation_state'),
  roomId: z.string(),
  role: z.enum(['member', 'moderator', 'room_admin', 'service_admin']),
  isLocked: z.boolean(),
  /** Set while the viewer is muted in this room: when the mute ends (ISO). */
  mutedUntil: z.iso.datetime().nullable(),
});
export type ModerationStateFrame = z.infer<typeof ModerationStateFrameSchema>;

/** To a member who was kicked or banned: the socket has left the room. */
export const RemovedFromRoomFrameSchema = z.object({
  type: z.literal('removed_from_room'),
  roomId: z.string(),
  action: z.enum(['kick', 'ban']),
  /** When the member may come back (ISO), or null for a ban for good. */
  until: z.iso.datetime().nullable(),
  message: z.string(),
});
export type RemovedFromRoomFrame = z.infer<typeof RemovedFromRoomFrameSchema>;
