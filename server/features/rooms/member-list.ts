/**
 * The `users` of a large room's member list as UTF-8 bytes, kept per room and extended as the
 * room fills. Every newcomer gets the whole list (user_list_update), and filling a room of 500
 * built and converted 500 lists of up to 500 entries (about 115 KB each). The list mostly grows
 * at its end between two newcomers, so the kept bytes are extended by the new entries only, and
 * every newcomer's frame is written around a view of the same buffer (Connection.sendParts).
 *
 * Sound because a store never changes a member object it has handed out (roomUserJson): when the
 * kept members are, object for object, the start of the current list, their entries are the
 * start of the current text. Otherwise (a member left, changed status, or the store hands out
 * new objects on every read, as the Redis store does) the text is built again.
 */
import { roomUserJson, type PresenceMember } from './presence.js';

/** Rooms smaller than this have their list built each time, as before: little to save. */
export const KEPT_LIST_MIN_MEMBERS = 32;
/** At most this many rooms' lists are kept; the oldest is dropped beyond it. */
const MAX_KEPT_ROOMS = 1024;

interface KeptList {
  members: readonly PresenceMember[];
  /** The entries' text fills `buffer` up to `length`; a view handed out is never written again. */
  buffer: Buffer;
  length: number;
}

export class MemberListBytes {
  private readonly rooms = new Map<string, KeptList>();

  /** The comma-separated JSON entries of `members` (the room's current list), as UTF-8. */
  entries(roomId: string, members: readonly PresenceMember[]): Buffer {
    let kept = this.rooms.get(roomId);
    if (kept && !startsWith(members, kept.members)) {
      this.rooms.delete(roomId);
      kept = undefined;
    }
    const from = kept?.members.length ?? 0;
    let text = members.slice(from).map(roomUserJson).join(',');
    if (from > 0 && text !== '') text = `,${text}`;
    const bytes = Buffer.byteLength(text, 'utf8');
    if (!kept || kept.length + bytes > kept.buffer.length) {
      // A new buffer: views of the old one handed out earlier stay as they were.
      const buffer = Buffer.allocUnsafe(Math.max(2 * ((kept?.length ?? 0) + bytes), 4096));
      kept?.buffer.copy(buffer, 0, 0, kept.length);
      kept = { members, buffer, length: kept?.length ?? 0 };
      this.rooms.delete(roomId);
      this.rooms.set(roomId, kept);
      if (this.rooms.size > MAX_KEPT_ROOMS) this.dropOldest();
    }
    kept.buffer.write(text, kept.length, 'utf8');
    kept.length += bytes;
    kept.members = members;
    return kept.buffer.subarray(0, kept.length);
  }

  /** Forgets a room's list (the room is empty or gone). */
  drop(roomId: string): void {
    this.rooms.delete(roomId);
  }

  private dropOldest(): void {
    const oldest = this.rooms.keys().next();
    if (!oldest.done) this.rooms.delete(oldest.value);
  }
}

function startsWith(
  members: readonly PresenceMember[],
  prefix: readonly PresenceMember[],
): boolean {
  if (prefix.length > members.length) return false;
  for (let index = 0; index < prefix.length; index += 1) {
    if (members[index] !== prefix[index]) return false;
  }
  return true;
}
