/**
 * Ephemeral room messages: memory only (or Redis keys with TTLs when scaled out), never the
 * database, never a log, never disk. Every message has the same lifetime, so each room's list is
 * already in expiry order and expiry only ever removes from the front.
 */
import { WS_ERROR } from '../../../shared/protocol/errors.js';
import type { Message } from '../../../shared/protocol/ws/chat.js';
import { AppError } from '../../errors.js';

/**
 * Most messages a room holds at once. At the default 30 s lifetime that is a sustained 16
 * messages a second per room; beyond it the oldest are dropped early (docs/decisions.md).
 */
export const MAX_MESSAGES_PER_ROOM = 500;

/**
 * Bytes of held messages (their JSON text in UTF-8) one visitor may have waiting to expire, and
 * all visitors together (issue 31; DESIGN.md principle 7). The per-room bound alone let one
 * address hold 500 frames of 64 KiB in each of many rooms: over 100 MB in 40 seconds.
 */
export interface HeldMessageBudget {
  /** Per visitor (`Connection.visitor`: the address, IPv6 /64 or onion circuit; server/lib/visitor.ts). */
  perVisitorBytes: number;
  /** All held messages together, the server's own included. */
  totalBytes: number;
}

const MIB = 1024 * 1024;
/**
 * Defaults. 4 MiB per visitor is 64 messages at the 64 KiB frame limit, or about two thousand
 * ordinary encrypted lines, within one 30-second lifetime: more than a person types, and at the
 * hub's 20 frames a second one socket reaches it only with frames of 7 KiB and up. 128 MiB in
 * all keeps a flood from 32 such visitors off the heap's budget (DESIGN.md principle 3).
 */
export const DEFAULT_HELD_MESSAGE_BUDGET: HeldMessageBudget = {
  perVisitorBytes: 4 * MIB,
  totalBytes: 128 * MIB,
};

/**
 * The sender's refusal when a message would pass a budget: it was neither stored nor relayed,
 * and nothing already held was dropped for it.
 */
export function heldBudgetRefusal(scope: 'visitor' | 'total'): AppError {
  return scope === 'visitor'
    ? new AppError('HELD_BYTES_SENDER', 429, WS_ERROR.heldBytesSender)
    : new AppError('HELD_BYTES_TOTAL', 429, WS_ERROR.heldBytesTotal);
}

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
   * `visitor` is the sender's (`Connection.visitor`), whose held bytes are bounded; null for the
   * server's own messages, which count in the total only and are never refused. Throws
   * {@link heldBudgetRefusal} when a budget would be passed: checked and taken in one atomic
   * step, and nothing is stored or evicted then.
   */
  add(message: Message, encoded?: EncodedMessage, visitor?: string | null): Promise<string[]>;
  /** Optional: {@link add} done within the call, for a store that holds messages in memory. */
  addNow?(message: Message, encoded?: EncodedMessage, visitor?: string | null): string[];
  /**
   * Optional: stores the message and publishes `new_message` (then `messages_expired` for what was
   * evicted) to its room in one step, so that the caller publishes nothing itself. The Redis store
   * has it: one round trip per message instead of two, in the room's order of storage. Refuses
   * as {@link add} does.
   */
  relay?(message: Message, visitor?: string | null): Promise<string[]>;
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
  /** Bytes held for `visitor` (a visitor key), or in all when null (metrics, tests). */
  heldBytes(visitor: string | null): Promise<number>;
}

/**
 * A room's held messages, oldest first, as parallel arrays: per message its id, expiry time,
 * JSON text in UTF-8 and sender's visitor key.
 *
 * Messages live for the whole TTL, long enough to be promoted to V8's old space, and every
 * object that survives is copied by the scavenges before that and marked by every full
 * collection after. As objects a message was some fifteen heap objects; as a string, some 700
 * bytes of old space; as a Buffer, a small view object on the heap and its bytes in a Buffer pool
 * slab (a member's message: a view of its room frame's bytes, encoded once for both). Kept as an
 * object per message (`{id, expiresAtMs, json, visitor}`) that was still four heap objects, the
 * expiry time boxed as a heap number; in these arrays it is two (the id and the view): the
 * expiry times sit unboxed in a double array and the visitor keys are the connections' own
 * strings. Reading a message back (history on join, moderation) parses it again, which is rare
 * next to relaying.
 */
class HeldList {
  readonly ids: string[] = [];
  readonly expiresAtMs: number[] = [];
  readonly jsons: Buffer[] = [];
  /** Whose budget each message's bytes count against; null for the server's own messages. */
  readonly visitors: (string | null)[] = [];

  get length(): number {
    return this.ids.length;
  }

  /** Inserts at `index` (the end, unless the clock stepped backwards). */
  insert(index: number, id: string, expiresAtMs: number, json: Buffer, visitor: string | null) {
    if (index === this.ids.length) {
      this.ids.push(id);
      this.expiresAtMs.push(expiresAtMs);
      this.jsons.push(json);
      this.visitors.push(visitor);
      return;
    }
    this.ids.splice(index, 0, id);
    this.expiresAtMs.splice(index, 0, expiresAtMs);
    this.jsons.splice(index, 0, json);
    this.visitors.splice(index, 0, visitor);
  }

  /** Removes `count` messages from `index` on; returns them as held. */
  remove(index: number, count: number): Removed {
    this.expiresAtMs.splice(index, count);
    return {
      ids: this.ids.splice(index, count),
      jsons: this.jsons.splice(index, count),
      visitors: this.visitors.splice(index, count),
    };
  }

  message(index: number): Message {
    return JSON.parse(this.jsons[index]!.toString('utf8')) as Message;
  }
}

/** Messages taken out of a {@link HeldList}, in the same parallel form. */
interface Removed {
  ids: string[];
  jsons: Buffer[];
  visitors: (string | null)[];
}

export class MemoryMessageStore implements EphemeralMessageStore {
  private readonly rooms = new Map<string, HeldList>();
  /** Bytes held in all, and per visitor (entries removed at 0). */
  private heldTotal = 0;
  private readonly heldByVisitor = new Map<string, number>();

  constructor(
    private readonly maxPerRoom = MAX_MESSAGES_PER_ROOM,
    private readonly budget: HeldMessageBudget = DEFAULT_HELD_MESSAGE_BUDGET,
  ) {}

  async add(
    message: Message,
    encoded?: EncodedMessage,
    visitor?: string | null,
  ): Promise<string[]> {
    return this.addNow(message, encoded, visitor);
  }

  addNow(message: Message, encoded?: EncodedMessage, visitor: string | null = null): string[] {
    const json = encoded?.utf8 ?? Buffer.from(encoded?.json ?? JSON.stringify(message), 'utf8');
    // Checked and taken within this call: one event-loop step, so concurrent senders cannot
    // both take the last bytes.
    this.take(visitor, json.byteLength);
    let list = this.rooms.get(message.roomId);
    if (!list) {
      list = new HeldList();
      this.rooms.set(message.roomId, list);
    }
    const expiresAtMs = encoded?.expiresAtMs ?? Date.parse(message.expiresAt);
    // Equal lifetimes keep the list sorted; a clock step backwards is the only way to break it.
    let index = list.length;
    while (index > 0 && list.expiresAtMs[index - 1]! > expiresAtMs) index -= 1;
    list.insert(index, message.id, expiresAtMs, json, visitor);
    if (list.length <= this.maxPerRoom) return [];
    return this.release(list.remove(0, list.length - this.maxPerRoom));
  }

  async heldBytes(visitor: string | null): Promise<number> {
    return visitor === null ? this.heldTotal : (this.heldByVisitor.get(visitor) ?? 0);
  }

  /** Takes `bytes` for `visitor`, or throws the refusal (nothing taken then). */
  private take(visitor: string | null, bytes: number): void {
    if (visitor !== null) {
      const mine = this.heldByVisitor.get(visitor) ?? 0;
      if (mine + bytes > this.budget.perVisitorBytes) throw heldBudgetRefusal('visitor');
      if (this.heldTotal + bytes > this.budget.totalBytes) throw heldBudgetRefusal('total');
      this.heldByVisitor.set(visitor, mine + bytes);
    }
    this.heldTotal += bytes;
  }

  /** Gives back the bytes of messages no longer held; returns their ids. */
  private release(gone: Removed): string[] {
    gone.jsons.forEach((json, index) => {
      const bytes = json.byteLength;
      this.heldTotal -= bytes;
      const visitor = gone.visitors[index] ?? null;
      if (visitor === null) return;
      const left = (this.heldByVisitor.get(visitor) ?? bytes) - bytes;
      if (left > 0) this.heldByVisitor.set(visitor, left);
      else this.heldByVisitor.delete(visitor);
    });
    return gone.ids;
  }

  async list(roomId: string, now: number): Promise<Message[]> {
    const list = this.rooms.get(roomId);
    if (!list) return [];
    const messages: Message[] = [];
    for (let index = 0; index < list.length; index++) {
      if (list.expiresAtMs[index]! > now) messages.push(list.message(index));
    }
    return messages;
  }

  async expire(now: number): Promise<Map<string, string[]>> {
    const expired = new Map<string, string[]>();
    for (const [roomId, list] of this.rooms) {
      let count = 0;
      while (count < list.length && list.expiresAtMs[count]! <= now) count += 1;
      if (count === 0) continue;
      expired.set(roomId, this.release(list.remove(0, count)));
      if (list.length === 0) this.rooms.delete(roomId);
    }
    return expired;
  }

  async remove(roomId: string, messageId: string): Promise<Message | null> {
    const list = this.rooms.get(roomId);
    const index = list?.ids.indexOf(messageId) ?? -1;
    if (!list || index < 0) return null;
    const message = list.message(index);
    this.release(list.remove(index, 1));
    if (list.length === 0) this.rooms.delete(roomId);
    return message;
  }

  async find(roomId: string, messageId: string, now: number): Promise<Message | null> {
    const list = this.rooms.get(roomId);
    const index = list?.ids.indexOf(messageId) ?? -1;
    return list && index >= 0 && list.expiresAtMs[index]! > now ? list.message(index) : null;
  }

  async purgeRoom(roomId: string): Promise<void> {
    const list = this.rooms.get(roomId);
    if (list) this.release(list.remove(0, list.length));
    this.rooms.delete(roomId);
  }

  async size(): Promise<number> {
    let total = 0;
    for (const list of this.rooms.values()) total += list.length;
    return total;
  }
}
