/** HTTP schemas of the room calls (spec 000 §3 "Room", §7; spec 001 §3). */
import { z } from 'zod';
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
});
export type Room = z.infer<typeof RoomSchema>;

/** `GET /api/rooms` answer. */
export const RoomListSchema = z.array(RoomSchema);
export type RoomList = z.infer<typeof RoomListSchema>;

/** `GET /api/default-room` answer. */
export const DefaultRoomSchema = z.object({ secureId: RoomSecureIdSchema });
export type DefaultRoom = z.infer<typeof DefaultRoomSchema>;

/** `GET /api/rooms/{idOrSecureId}` params: a numeric-free room id or a 64-hex secure id. */
export const RoomLookupParamsSchema = z.object({
  idOrSecureId: z.string().min(1).max(80),
});
export type RoomLookupParams = z.infer<typeof RoomLookupParamsSchema>;

/** The label a room shows (spec 000 §3): private non-public rooms by level, else PRIVATE or PUBLIC. */
export function roomLabel(room: Pick<Room, 'isPrivate' | 'securityLevel'>): string {
  if (room.isPrivate && room.securityLevel !== 'public') {
    return room.securityLevel === 'top_secret' ? 'TOP SECRET' : room.securityLevel.toUpperCase();
  }
  return room.isPrivate ? 'PRIVATE' : 'PUBLIC';
}
