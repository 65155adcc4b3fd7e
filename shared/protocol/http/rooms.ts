/** HTTP schemas of the room calls (spec 000 §3 "Room", §7; spec 001 §3). */
import { z } from 'zod';
import { displayNameSchema } from '../text.js';
import { ROOM_CREATE_TIMER_OPTIONS, ROOM_MANUAL_TIMER_OPTIONS } from '../../constants.js';
import { RoomSecureIdSchema } from '../../ids.js';

/** A room's security level (spec 000 §3). */
export const SecurityLevelSchema = z.enum(['public', 'restricted', 'classified', 'top_secret']);
export type SecurityLevel = z.infer<typeof SecurityLevelSchema>;

/**
 * The Room entity as the server sends it. `selfDestructTimer` is in minutes (0.5 = 30 s) or null;
 * `destructionAt` is an ISO time or null. The access-code hash never leaves the server.
 */
export const RoomSchema = z.object({
  id: z.string(),
  secureId: RoomSecureIdSchema,
  name: z.string(),
  isPrivate: z.boolean(),
  securityLevel: SecurityLevelSchema,
  selfDestructTimer: z.number().positive().nullable(),
  destructionAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  /**
   * True when the room's creator required the access code from everyone, key holders included
   * (issue 31); false or absent: spec 000 §4's rule, key holders enter without the code.
   */
  codeRequiredForKeyHolders: z.boolean().optional(),
});
export type Room = z.infer<typeof RoomSchema>;

/** `GET /api/rooms` answer. */
export const RoomListSchema = z.array(RoomSchema);
export type RoomList = z.infer<typeof RoomListSchema>;

/** `GET /api/default-room` answer. */
export const DefaultRoomSchema = z.object({ secureId: RoomSecureIdSchema });
export type DefaultRoom = z.infer<typeof DefaultRoomSchema>;

/** `GET /api/rooms/{idOrSecureId}` params: a room id (UUID) or a 64-hex secure id. */
export const RoomLookupParamsSchema = z.object({
  idOrSecureId: z.string().min(1).max(80),
});
export type RoomLookupParams = z.infer<typeof RoomLookupParamsSchema>;

/** The label a room shows (defined in `shared/protocol/room-label.ts`). */
export { roomLabel } from '../room-label.js';

const timerOf = (options: readonly (number | null)[]) =>
  z
    .number()
    .nullable()
    .refine((value) => options.includes(value), 'Not one of the self-destruct options');

/** Self-destruct options at creation, in minutes (spec 000 §9); null = none. */
export const RoomCreateTimerSchema = timerOf(ROOM_CREATE_TIMER_OPTIONS);
/** Self-destruct options of the manual timer dialog, in minutes (spec 000 §9); null = none. */
export const RoomManualTimerSchema = timerOf(ROOM_MANUAL_TIMER_OPTIONS);

/**
 * `POST /api/rooms` body (spec 000 §3 "Create-room payload"). The access code travels as the
 * SHA-256 hex the browser computed; it is required for every non-public level and absent for
 * public rooms. `codeRequiredForKeyHolders` (issue 31; absent means false) makes key holders
 * need the code too, instead of entering without it as spec 000 §4 has them; it means nothing
 * for a public room, which has no code, and is stored as false there.
 */
export const CreateRoomRequestSchema = z.strictObject({
  name: displayNameSchema({ label: 'name', max: 64, minMessage: 'Channel name is required' }),
  isPrivate: z.boolean().default(false),
  securityLevel: SecurityLevelSchema.default('public'),
  passwordHash: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'Access code must be sent as SHA-256 hex')
    .nullish(),
  selfDestructTimer: RoomCreateTimerSchema.default(null),
  codeRequiredForKeyHolders: z.boolean().optional(),
});
export type CreateRoomRequest = z.infer<typeof CreateRoomRequestSchema>;

/** `POST /api/rooms/{secureId}/verify-password` body: the SHA-256 hex of the access code. */
export const VerifyRoomPasswordRequestSchema = z.strictObject({
  password: z.string().regex(/^[0-9a-f]{64}$/, 'Access code must be sent as SHA-256 hex'),
});

/**
 * `verify-password` answer. `accessToken` (when valid) is presented in `join_room` and lets this
 * browser into the room for 12 hours without sending the code again.
 */
export const VerifyRoomPasswordResponseSchema = z.object({
  valid: z.boolean(),
  accessToken: z.string().nullable(),
});
export type VerifyRoomPasswordResponse = z.infer<typeof VerifyRoomPasswordResponseSchema>;

/** `PATCH /api/rooms/{id}/self-destruct` body; null disables the timer. */
export const SelfDestructRequestSchema = z.strictObject({
  selfDestructTimer: RoomManualTimerSchema,
});

/** Params of the routes that take a room id or secure id. */
export const RoomIdParamsSchema = z.strictObject({ id: z.string().min(1).max(80) });

/** `GET /api/connected-ips?roomId=` query. */
export const ConnectedNodesQuerySchema = z.strictObject({
  roomId: z.string().min(1).max(80).optional(),
});

/**
 * `GET /api/connected-ips` answer (spec 000 §3 "Connected node"). Despite the route's name it
 * lists nodes, never addresses: a node id is random per connection.
 */
export const ConnectedNodesSchema = z.object({
  ips: z.array(
    z.object({
      nodeId: z.string(),
      username: z.string(),
      roomId: z.string(),
      connectionTime: z.iso.datetime(),
    }),
  ),
});
export type ConnectedNodes = z.infer<typeof ConnectedNodesSchema>;
