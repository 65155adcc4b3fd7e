/**
 * Room chat frames (spec 000 §7 "Realtime socket"). Client frames are parsed by the hub before
 * any handler sees them; server frames are parsed by the client before the UI sees them.
 */
import { z } from 'zod';
import { displayNameSchema, safeSingleLineSchema } from '../text.js';
import { RoomSchema } from '../http/rooms.js';

/** Encryption types a message may carry (spec 000 §3 "Message"). */
export const EncryptionTypeSchema = z.enum([
  'none',
  'PFS-ECDH',
  'ZK-AES-256',
  'AES-256-GCM',
  'AES-256-CBC',
  'RSA-OAEP',
  'E2EE-AES',
  'quantum',
  'PLAINTEXT',
]);
export type EncryptionType = z.infer<typeof EncryptionTypeSchema>;

/** `join_room`: enter a room as `username`; key holders add their session token. */
export const JoinRoomFrameSchema = z.strictObject({
  type: z.literal('join_room'),
  roomId: z.string().min(1).max(80),
  username: displayNameSchema({ label: 'username', max: 64 }),
  sessionToken: z.string().max(200).nullish(),
  accessToken: z.string().max(200).nullish(),
});

/**
 * `send_message`: content is ciphertext produced in the browser; `content` carries plaintext only
 * for the flagged PLAINTEXT fallback (spec 000 §8 "Encryption failure").
 */
export const SendMessageFrameSchema = z.strictObject({
  type: z.literal('send_message'),
  content: z.string().max(32_768).default(''),
  encryptedContent: z.string().max(48_000).nullish(),
  encryptionType: EncryptionTypeSchema.default('none'),
  signature: z.string().max(16_000).nullish(),
  isStealthMode: z.boolean().default(false),
  hasImage: z.boolean().default(false),
  imageUrl: z.string().max(300).nullish(),
  thumbnailUrl: z.string().max(300).nullish(),
  imageOriginalName: safeSingleLineSchema({ label: 'imageOriginalName', max: 200 }).nullish(),
  imageFileSize: z.number().int().nonnegative().nullish(),
});

/** `typing_start` / `typing_stop`. */
export const TypingFrameSchema = z.strictObject({
  type: z.enum(['typing_start', 'typing_stop']),
});

/** `request_user_list {roomId}`. */
export const RequestUserListFrameSchema = z.strictObject({
  type: z.literal('request_user_list'),
  roomId: z.string().min(1).max(80).optional(),
});

/** A message as the server relays it (spec 000 §3 "Message"). Dates are ISO strings. */
export const MessageSchema = z.object({
  id: z.string(),
  senderId: z.string(),
  senderUsername: z.string(),
  roomId: z.string(),
  content: z.string(),
  encryptedContent: z.string().nullable(),
  encryptionType: EncryptionTypeSchema,
  signature: z.string().nullable(),
  isStealthMode: z.boolean(),
  hasImage: z.boolean(),
  imageUrl: z.string().nullable(),
  thumbnailUrl: z.string().nullable(),
  imageMetadata: z.object({ originalName: z.string(), fileSize: z.number() }).nullable(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  isSystem: z.boolean().default(false),
});
export type Message = z.infer<typeof MessageSchema>;

/** How a member entered a room: with a key and no code, with the code (or its grant), or freely. */
export const RoomEntrySchema = z.enum(['key', 'code', 'open']);
export type RoomEntry = z.infer<typeof RoomEntrySchema>;

/** A member of a room as listed to others (spec 000 §3 "Room user"). */
export const RoomUserSchema = z.object({
  nodeId: z.string(),
  username: z.string(),
  status: z.enum(['online', 'typing', 'away']),
  role: z.enum(['user', 'moderator', 'admin']),
  isAuthenticated: z.boolean(),
  connectionTime: z.iso.datetime(),
  lastSeen: z.iso.datetime(),
  isVoiceActive: z.boolean(),
  /**
   * A key holder's secure id (`SCK_…`, shared/ids.ts), so that another key holder can start a
   * direct message from the list; null for anonymous visitors, who have no key to write to.
   */
  secureId: z.string().nullable(),
  /**
   * How the member got in (issue 31): `key` when their key let them into a locked room without
   * the access code (spec 000 §4), `code` when they presented the code or a grant earned with it,
   * `open` for a room that asks nothing. Absent from older servers. Only a label the server
   * asserts: a lying server can mislabel a member, never let anyone in or keep anyone out by it.
   */
  entry: RoomEntrySchema.optional(),
});
export type RoomUser = z.infer<typeof RoomUserSchema>;

/** Server → client room frames. */
export const RoomJoinedFrameSchema = z.object({
  type: z.literal('room_joined'),
  roomId: z.string(),
  nodeId: z.string(),
  messages: z.array(MessageSchema),
  memberCount: z.number().int().nonnegative(),
  /** A grant for this room: sent as `x-room-access` on calls that need room access (its timer). */
  accessToken: z.string(),
});
export const NewMessageFrameSchema = z.object({
  type: z.literal('new_message'),
  message: MessageSchema,
});
export const MessageDeletedFrameSchema = z.object({
  type: z.literal('message_deleted'),
  messageId: z.string(),
});
export const MessagesExpiredFrameSchema = z.object({
  type: z.literal('messages_expired'),
  messageIds: z.array(z.string()),
});
/**
 * A member came or went: the change to the room's member list (a delta). `user_joined` carries
 * the newcomer's list entry in `user`, so members keep their list without a full
 * `user_list_update` on every join; `user_left` names the member by `nodeId`.
 */
export const UserPresenceFrameSchema = z.object({
  type: z.enum(['user_joined', 'user_left']),
  roomId: z.string(),
  username: z.string(),
  nodeId: z.string(),
  memberCount: z.number().int().nonnegative(),
  user: RoomUserSchema.optional(),
});
/**
 * Several members joined within one window (docs/protocol.md "Joining"): their list entries in
 * `users`, in the order they joined, and the member count after the last. Sent instead of one
 * `user_joined` each when more than one member joined the room within the window, so a member of
 * a filling room gets one frame per window, not one per newcomer. It goes to every member, the
 * window's newcomers too, so an entry may be the receiver's own: a client skips it (it has its
 * own entry from its list).
 */
export const UsersJoinedFrameSchema = z.object({
  type: z.literal('users_joined'),
  roomId: z.string(),
  memberCount: z.number().int().nonnegative(),
  users: z.array(RoomUserSchema).min(1),
});
export const UserListUpdateFrameSchema = z.object({
  type: z.literal('user_list_update'),
  roomId: z.string(),
  users: z.array(RoomUserSchema),
  timestamp: z.iso.datetime(),
});
export const TypingBroadcastFrameSchema = z.object({
  type: z.enum(['typing_start', 'typing_stop']),
  username: z.string(),
  nodeId: z.string(),
});
export const SystemMessageFrameSchema = z.object({
  type: z.literal('system_message'),
  message: z.string(),
  level: z.enum(['info', 'warning', 'critical']).default('info'),
  timestamp: z.iso.datetime(),
});
/** A room's settings changed (its self-destruct timer). */
export const RoomUpdatedFrameSchema = z.object({
  type: z.literal('room_updated'),
  room: RoomSchema,
});
export const RoomDestroyedFrameSchema = z.object({
  type: z.literal('room_destroyed'),
  roomId: z.string(),
});
