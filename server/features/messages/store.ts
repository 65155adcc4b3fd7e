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

/** A message's JSON text and expiry time, as the sender computed them. */
export interface EncodedMessage {
  json: string;
  expiresAtMs: number;
  /** `json` in UTF-8, when the caller encoded it already (a view of the room's frame). */
  utf8?: Buffer;
}

export interface EphemeralMessageStore {
  /**
   * Stores a message; returns the ids evicted to stay within the per-room bound. `encoded`, when
   * the caller has it already, is `JSON.stringify(message)` and `Date.parse(message.expiresAt)`.
   */
  add(message: Message, encoded?: EncodedMessage): Promise<string[]>;
  /** Optional: {@link add} done within the call, for a store that holds messages in memory. */
  addNow?(message: Message, encoded?: EncodedMessage): string[];
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

/**
 * A held message is its JSON text in UTF-8, outside the JavaScript heap. Messages live for the
 * whole TTL, long enough to be promoted to V8's old space, and the old space's growth is what
 * sets off full collections, each of which marks the whole live heap. As objects a message was
 * some fifteen heap objects; as a string, some 700 bytes of old space; as a Buffer, a small view
 * object on the heap and its bytes in a Buffer pool slab (a member's message: a view of its room
 * frame's bytes, encoded once for both). Reading it back (history on join,
 * moderation) parses it again, which is rare next to relaying.
 */
interface Held {
  id: string;
  expiresAtMs: number;
  json: Buffer;
}

const parseHeld = (held: Held): Message => JSON.parse(held.json.toString('utf8')) as Message;
const idOf = (held: Held): string => held.id;

export class MemoryMessageStore implements EphemeralMessageStore {
  private readonly rooms = new Map<string, Held[]>();

  constructor(private readonly maxPerRoom = MAX_MESSAGES_PER_ROOM) {}

  async add(message: Message, encoded?: EncodedMessage): Promise<string[]> {
    return this.addNow(message, encoded);
  }

  addNow(message: Message, encoded?: EncodedMessage): string[] {
    let list = this.rooms.get(message.roomId);
    if (!list) {
      list = [];
      this.rooms.set(message.roomId, list);
    }
    const held: Held = {
      id: message.id,
      expiresAtMs: encoded?.expiresAtMs ?? Date.parse(message.expiresAt),
      json: encoded?.utf8 ?? Buffer.from(encoded?.json ?? JSON.stringify(message), 'utf8'),
    };
    // Equal lifetimes keep the list sorted; a clock step backwards is the only way to break it.
    let index = list.length;
    while (index > 0 && list[index - 1]!.expiresAtMs > held.expiresAtMs) index -= 1;
    if (index === list.length) list.push(held);
    else list.splice(index, 0, held);
    if (list.length <= this.maxPerRoom) return [];
    return list.splice(0, list.length - this.maxPerRoom).map(idOf);
  }

  async list(roomId: string, now: number): Promise<Message[]> {
    const list = this.rooms.get(roomId);
    if (!list) return [];
    const messages: Message[] = [];
    for (const held of list) if (held.expiresAtMs > now) messages.push(parseHeld(held));
    return messages;
  }

  async expire(now: number): Promise<Map<string, string[]>> {
    const expired = new Map<string, string[]>();
    for (const [roomId, list] of this.rooms) {
      let count = 0;
      while (count < list.length && list[count]!.expiresAtMs <= now) count += 1;
      if (count === 0) continue;
      expired.set(roomId, list.splice(0, count).map(idOf));
      if (list.length === 0) this.rooms.delete(roomId);
    }
    return expired;
  }

  async remove(roomId: string, messageId: string): Promise<Message | null> {
    const list = this.rooms.get(roomId);
    const index = list?.findIndex((held) => held.id === messageId) ?? -1;
    if (!list || index < 0) return null;
    const [held] = list.splice(index, 1);
    if (list.length === 0) this.rooms.delete(roomId);
    return held ? parseHeld(held) : null;
  }

  async find(roomId: string, messageId: string, now: number): Promise<Message | null> {
    const held = this.rooms.get(roomId)?.find((entry) => entry.id === messageId);
    return held && held.expiresAtMs > now ? parseHeld(held) : null;
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
