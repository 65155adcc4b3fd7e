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
  /** Whose budget its bytes count against; null for the server's own messages. */
  visitor: string | null;
}

const parseHeld = (held: Held): Message => JSON.parse(held.json.toString('utf8')) as Message;
const idOf = (held: Held): string => held.id;

export class MemoryMessageStore implements EphemeralMessageStore {
  private readonly rooms = new Map<string, Held[]>();
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
      list = [];
      this.rooms.set(message.roomId, list);
    }
    const held: Held = {
      id: message.id,
      expiresAtMs: encoded?.expiresAtMs ?? Date.parse(message.expiresAt),
      json,
      visitor,
    };
    // Equal lifetimes keep the list sorted; a clock step backwards is the only way to break it.
    let index = list.length;
    while (index > 0 && list[index - 1]!.expiresAtMs > held.expiresAtMs) index -= 1;
    if (index === list.length) list.push(held);
    else list.splice(index, 0, held);
    if (list.length <= this.maxPerRoom) return [];
    return this.release(list.splice(0, list.length - this.maxPerRoom));
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
  private release(gone: Held[]): string[] {
    for (const held of gone) {
      const bytes = held.json.byteLength;
      this.heldTotal -= bytes;
      if (held.visitor === null) continue;
      const left = (this.heldByVisitor.get(held.visitor) ?? bytes) - bytes;
      if (left > 0) this.heldByVisitor.set(held.visitor, left);
      else this.heldByVisitor.delete(held.visitor);
    }
    return gone.map(idOf);
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
      expired.set(roomId, this.release(list.splice(0, count)));
      if (list.length === 0) this.rooms.delete(roomId);
    }
    return expired;
  }

  async remove(roomId: string, messageId: string): Promise<Message | null> {
    const list = this.rooms.get(roomId);
    const index = list?.findIndex((held) => held.id === messageId) ?? -1;
    if (!list || index < 0) return null;
    const removed = list.splice(index, 1);
    this.release(removed);
    if (list.length === 0) this.rooms.delete(roomId);
    return removed[0] ? parseHeld(removed[0]) : null;
  }

  async find(roomId: string, messageId: string, now: number): Promise<Message | null> {
    const held = this.rooms.get(roomId)?.find((entry) => entry.id === messageId);
    return held && held.expiresAtMs > now ? parseHeld(held) : null;
  }

  async purgeRoom(roomId: string): Promise<void> {
    const list = this.rooms.get(roomId);
    if (list) this.release(list);
    this.rooms.delete(roomId);
  }

  async size(): Promise<number> {
    let total = 0;
    for (const list of this.rooms.values()) total += list.length;
    return total;
  }
}
