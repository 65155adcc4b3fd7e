/**
 * Ephemeral room messages: memory only (or Redis keys with TTLs when scaled out), never the
 * database, never a log, never disk. Every message has the same lifetime, so each room's list is
 * already in expiry order and expiry only ever removes from the front.
 */
import type { Message } from '../../../shared/protocol/ws/chat.js';

/**
 * Most messages a room holds at once. At the default 30 s lifetime that is a sustained 16
 * messages a second per room; beyond it the oldest are dropped early (docs/decisions.md).
 */
export const MAX_MESSAGES_PER_ROOM = 500;

export interface EphemeralMessageStore {
  /** Stores a message; returns the ids evicted to stay within the per-room bound. */
  add(message: Message): Promise<string[]>;
  /**
   * Optional: stores the message and publishes `new_message` (then `messages_expired` for what was
   * evicted) to its room in one step, so that the caller publishes nothing itself. The Redis store
   * has it: one round trip per message instead of two, in the room's order of storage.
   */
  relay?(message: Message): Promise<string[]>;
  /** The room's messages that have not expired at `now`, oldest first. */
  list(roomId: string, now: number): Promise<Message[]>;
  /** Deletes every message expired at `now`; returns their ids by room. */
  expire(now: number): Promise<Map<string, string[]>>;
  /** Deletes one message (deleted for everyone by a moderator); returns it, or null if gone. */
  remove(roomId: string, messageId: string): Promise<Message | null>;
  /** One unexpired message, or null. */
  find(roomId: string, messageId: string, now: number): Promise<Message | null>;
  /** Deletes a room's messages (room destroyed). */
  purgeRoom(roomId: string): Promise<void>;
  /** How many messages are held in all (metrics, tests). */
  size(): Promise<number>;
}

interface Held {
  message: Message;
  expiresAtMs: number;
}

export class MemoryMessageStore implements EphemeralMessageStore {
  private readonly rooms = new Map<string, Held[]>();

  constructor(private readonly maxPerRoom = MAX_MESSAGES_PER_ROOM) {}

  async add(message: Message): Promise<string[]> {
    let list = this.rooms.get(message.roomId);
    if (!list) {
      list = [];
      this.rooms.set(message.roomId, list);
    }
    const expiresAtMs = Date.parse(message.expiresAt);
    // Equal lifetimes keep the list sorted; a clock step backwards is the only way to break it.
    let index = list.length;
    while (index > 0 && list[index - 1]!.expiresAtMs > expiresAtMs) index -= 1;
    list.splice(index, 0, { message, expiresAtMs });
    const evicted =
      list.length > this.maxPerRoom ? list.splice(0, list.length - this.maxPerRoom) : [];
    return evicted.map((held) => held.message.id);
  }

  async list(roomId: string, now: number): Promise<Message[]> {
    return (this.rooms.get(roomId) ?? [])
      .filter((held) => held.expiresAtMs > now)
      .map((held) => held.message);
  }

  async expire(now: number): Promise<Map<string, string[]>> {
    const expired = new Map<string, string[]>();
    for (const [roomId, list] of this.rooms) {
      let count = 0;
      while (count < list.length && list[count]!.expiresAtMs <= now) count += 1;
      if (count === 0) continue;
      expired.set(
        roomId,
        list.splice(0, count).map((held) => held.message.id),
      );
      if (list.length === 0) this.rooms.delete(roomId);
    }
    return expired;
  }

  async remove(roomId: string, messageId: string): Promise<Message | null> {
    const list = this.rooms.get(roomId);
    const index = list?.findIndex((held) => held.message.id === messageId) ?? -1;
    if (!list || index < 0) return null;
    const [held] = list.splice(index, 1);
    if (list.length === 0) this.rooms.delete(roomId);
    return held?.message ?? null;
  }

  async find(roomId: string, messageId: string, now: number): Promise<Message | null> {
    const held = this.rooms.get(roomId)?.find((entry) => entry.message.id === messageId);
    return held && held.expiresAtMs > now ? held.message : null;
  }

  async purgeRoom(roomId: string): Promise<void> {
    this.rooms.delete(roomId);
  }

  async size(): Promise<number> {
    let total = 0;
    for (const list of this.rooms.values()) total += list.length;
    return total;
  }
}
