/**
 * The label a room shows, in a module of its own so that the pages showing it load no zod
 * (`shared/protocol/http/rooms.ts` re-exports it).
 */
import type { Room } from './http/rooms.js';

/** The label a room shows (spec 000 §3): private non-public rooms by level, else PRIVATE or PUBLIC. */
export function roomLabel(room: Pick<Room, 'isPrivate' | 'securityLevel'>): string {
  if (room.isPrivate && room.securityLevel !== 'public') {
    return room.securityLevel === 'top_secret' ? 'TOP SECRET' : room.securityLevel.toUpperCase();
  }
  return room.isPrivate ? 'PRIVATE' : 'PUBLIC';
}
