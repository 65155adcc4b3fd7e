/**
 * The stored list of channels this browser created or joined: localStorage `knownRooms`
 * (storage-keys.ts). Loaded on demand by known-rooms.ts, so that the chat room paints without zod
 * (issue 22, target 5).
 */
import { z } from 'zod';
import { SecurityLevelSchema } from '../../../shared/protocol/http/rooms.js';
import { RoomSecureIdSchema } from '../../../shared/ids.js';
import { KNOWN_ROOMS_MAX } from '../../../shared/constants.js';

export const KnownRoomSchema = z.object({
  /** The room's id, as `room_destroyed` names it. */
  id: z.string().min(1).max(80),
  secureId: RoomSecureIdSchema,
  name: z.string().max(200),
  isPrivate: z.boolean(),
  securityLevel: SecurityLevelSchema,
  /** How this browser knows the room: it created it, or it entered it. */
  role: z.enum(['created', 'joined']),
  /** When it was last entered or created, ms since the epoch. */
  seenAt: z.number().int().nonnegative(),
});
export type KnownRoom = z.infer<typeof KnownRoomSchema>;

const KnownRoomsSchema = z.array(z.unknown()).max(KNOWN_ROOMS_MAX * 4);

/**
 * Reads the stored list. Missing, unreadable or non-list content gives none; entries that do not
 * parse are dropped one by one, so one bad entry does not lose the others; a secure id listed
 * twice is kept once (the first).
 */
export function parseKnownRooms(raw: string | null): KnownRoom[] {
  if (raw === null) return [];
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return [];
  }
  const list = KnownRoomsSchema.safeParse(json);
  if (!list.success) return [];
  const rooms: KnownRoom[] = [];
  for (const entry of list.data) {
    const parsed = KnownRoomSchema.safeParse(entry);
    if (parsed.success && !rooms.some((room) => room.secureId === parsed.data.secureId)) {
      rooms.push(parsed.data);
    }
  }
  return rooms.slice(0, KNOWN_ROOMS_MAX);
}
