/**
 * Ephemeral room messages in Redis. Each message is its own key with a TTL, so expiry holds even
 * if every server process dies; a sorted set per room (score = expiry) orders them and lets one
 * process, atomically, claim what has expired so the room is told once.
 *
 *   {p}msg:{roomId}:{id}   message JSON, PX = time left
 *   {p}msgs:{roomId}       ZSET id → expiresAt (ms)
 *   {p}msg-rooms           SET of room ids holding messages
 *   {p}msg-owners:{roomId} HASH id → bytes "|" visitor ("" for the server's own messages)
 *   {p}msg-held            HASH "all" → bytes held in all, "v:" visitor → that visitor's bytes
 *
 * The byte budgets (server/features/messages/store.ts) are checked and taken in the same script
 * that stores the message, and given back by the scripts that delete one (eviction, expiry,
 * deletion, room purge), so processes sharing the counts can never pass a budget together. The
 * counts' keys expire a minute after the messages they count, so counts left by a process that
 * died between two steps vanish with what they counted.
 */
import type { Message } from '../../shared/protocol/ws/chat.js';
import { MessageSchema } from '../../shared/protocol/ws/chat.js';
import {
  DEFAULT_HELD_MESSAGE_BUDGET,
  heldBudgetRefusal,
  MAX_MESSAGES_PER_ROOM,
  type EphemeralMessageStore,
  type HeldMessageBudget,
} from '../features/messages/index.js';
import { roomChannel, roomPayload } from '../realtime/room-channels.js';
import type { RedisHandles } from './connect.js';
import { RedisScript } from './script.js';

/*
 * The scripts name keys they build from ARGV (a room's key prefix plus an id, or the key prefix
 * plus a room id): fine on one Redis server, which is what REDIS_URL points at (not Redis
 * Cluster).
 */

/** Shared Lua: gives back the held bytes of message `id` (owners: its room's owners hash). */
const RELEASE_FN = `
local function release(held, owners, id)
  local rec = redis.call('HGET', owners, id)
  if not rec then return end
  redis.call('HDEL', owners, id)
  local sep = string.find(rec, '|', 1, true)
  local bytes = tonumber(string.sub(rec, 1, sep - 1))
  local visitor = string.sub(rec, sep + 1)
  if redis.call('HINCRBY', held, 'all', -bytes) <= 0 then redis.call('HDEL', held, 'all') end
  if visitor ~= '' and redis.call('HINCRBY', held, 'v:' .. visitor, -bytes) <= 0 then
    redis.call('HDEL', held, 'v:' .. visitor)
  end
end
`;

/**
 * Checks the byte budgets, then stores a message, indexes it, evicts the room's oldest beyond the
 * cap and publishes the room's frames, in one round trip and one atomic step: `new_message`, then
 * `messages_expired` for what was evicted. The frames are built here from the stored JSON, so the
 * message is serialized once, and a room's order of storage is its order of delivery on every
 * process. A message over a budget is refused before anything is written.
 * KEYS: message key, room index, rooms set, held counts, room owners. ARGV: message JSON, TTL ms,
 * expiresAt ms, id, room id, cap, message-key prefix of the room, visitor ("" for none), visitor
 * budget, total budget, then (relay only) the room's channel and the payload header
 * (room-channels.ts). Returns {0, evicted ids}, or {1} (visitor budget) or {2} (total budget).
 */
const ADD_MESSAGE = new RedisScript(`${RELEASE_FN}
local bytes = #ARGV[1]
local visitor = ARGV[8]
if visitor ~= '' then
  local mine = tonumber(redis.call('HGET', KEYS[4], 'v:' .. visitor) or '0')
  if mine + bytes > tonumber(ARGV[9]) then return {1} end
  local all = tonumber(redis.call('HGET', KEYS[4], 'all') or '0')
  if all + bytes > tonumber(ARGV[10]) then return {2} end
  redis.call('HINCRBY', KEYS[4], 'v:' .. visitor, bytes)
end
redis.call('HINCRBY', KEYS[4], 'all', bytes)
local keep = tonumber(ARGV[2]) + 60000
if redis.call('PTTL', KEYS[4]) < keep then redis.call('PEXPIRE', KEYS[4], keep) end
redis.call('HSET', KEYS[5], ARGV[4], bytes .. '|' .. visitor)
redis.call('PEXPIRE', KEYS[5], keep)
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[2], keep)
redis.call('SADD', KEYS[3], ARGV[5])
local relay = ARGV[11] ~= nil
if relay then
  redis.call('PUBLISH', ARGV[11], ARGV[12] .. '{"type":"new_message","message":' .. ARGV[1] .. '}')
end
local excess = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[6])
if excess <= 0 then return {0, {}} end
local popped = redis.call('ZPOPMIN', KEYS[2], excess)
local ids = {}
for i = 1, #popped, 2 do
  ids[#ids + 1] = popped[i]
  release(KEYS[4], KEYS[5], popped[i])
  redis.call('DEL', ARGV[7] .. popped[i])
end
if relay then
  redis.call('PUBLISH', ARGV[11],
    ARGV[12] .. '{"type":"messages_expired","messageIds":' .. cjson.encode(ids) .. '}')
end
return {0, ids}`);

/**
 * For every room holding messages: removes and returns its ids with score ≤ now, deletes their
 * keys (Redis has usually done so by TTL already), gives back their held bytes and drops the room
 * from the rooms set when nothing is left; one round trip for all rooms, and one process claims
 * each expired message.
 * KEYS: rooms set, held counts. ARGV: now, key prefix. Returns room id, count, ids, room id, …
 */
const CLAIM_EXPIRED = new RedisScript(`${RELEASE_FN}
local out = {}
for _, roomId in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local index = ARGV[2] .. 'msgs:' .. roomId
  local owners = ARGV[2] .. 'msg-owners:' .. roomId
  local ids = redis.call('ZRANGEBYSCORE', index, '-inf', ARGV[1])
  if #ids > 0 then
    redis.call('ZREM', index, unpack(ids))
    local keyPrefix = ARGV[2] .. 'msg:' .. roomId .. ':'
    for i = 1, #ids do
      release(KEYS[2], owners, ids[i])
      redis.call('DEL', keyPrefix .. ids[i])
    end
    out[#out + 1] = roomId
    out[#out + 1] = #ids
    for i = 1, #ids do out[#out + 1] = ids[i] end
  end
  if redis.call('ZCARD', index) == 0 then
    redis.call('SREM', KEYS[1], roomId)
    redis.call('DEL', owners)
  end
end
return out`);

/**
 * Deletes one message and gives back its bytes; ZREM decides which caller removed it, so a
 * message is deleted (and announced) once. KEYS: room index, message key, held counts, room
 * owners. ARGV: id. Returns 1 when this call removed it.
 */
const REMOVE_MESSAGE = new RedisScript(`${RELEASE_FN}
if redis.call('ZREM', KEYS[1], ARGV[1]) ~= 1 then return 0 end
release(KEYS[3], KEYS[4], ARGV[1])
redis.call('DEL', KEYS[2])
return 1`);

/**
 * Deletes a room's messages and gives back their bytes. KEYS: room index, held counts, room
 * owners, rooms set. ARGV: message-key prefix of the room, room id.
 */
const PURGE_ROOM = new RedisScript(`${RELEASE_FN}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  release(KEYS[2], KEYS[3], id)
  redis.call('DEL', ARGV[1] .. id)
end
redis.call('DEL', KEYS[1], KEYS[3])
redis.call('SREM', KEYS[4], ARGV[2])
return 1`);

export class RedisMessageStore implements EphemeralMessageStore {
  constructor(
    private readonly redis: RedisHandles,
    private readonly now: () => number,
    private readonly maxPerRoom = MAX_MESSAGES_PER_ROOM,
    private readonly budget: HeldMessageBudget = DEFAULT_HELD_MESSAGE_BUDGET,
  ) {}

  private key(roomId: string, id: string) {
    return `${this.keyPrefix(roomId)}${id}`;
  }
  private keyPrefix(roomId: string) {
    return `${this.redis.prefix}msg:${roomId}:`;
  }
  private index(roomId: string) {
    return `${this.redis.prefix}msgs:${roomId}`;
  }
  private get rooms() {
    return `${this.redis.prefix}msg-rooms`;
  }
  private get held() {
    return `${this.redis.prefix}msg-held`;
  }
  private owners(roomId: string) {
    return `${this.redis.prefix}msg-owners:${roomId}`;
  }

  add(message: Message, _encoded?: unknown, visitor: string | null = null): Promise<string[]> {
    return this.store(message, visitor, []);
  }

  /** Stores the message and publishes it to its room in the same step (see ADD_MESSAGE). */
  relay(message: Message, visitor: string | null = null): Promise<string[]> {
    return this.store(message, visitor, [
      this.redis.prefix + roomChannel(message.roomId),
      roomPayload(''),
    ]);
  }

  private async store(
    message: Message,
    visitor: string | null,
    relay: readonly string[],
  ): Promise<string[]> {
    const expiresAt = Date.parse(message.expiresAt);
    const ttl = Math.max(1, expiresAt - this.now());
    const [status, evicted] = (await ADD_MESSAGE.run(
      this.redis.client,
      [
        this.key(message.roomId, message.id),
        this.index(message.roomId),
        this.rooms,
        this.held,
        this.owners(message.roomId),
      ],
      [
        JSON.stringify(message),
        ttl,
        expiresAt,
        message.id,
        message.roomId,
        this.maxPerRoom,
        this.keyPrefix(message.roomId),
        visitor ?? '',
        this.budget.perVisitorBytes,
        this.budget.totalBytes,
        ...relay,
      ],
    )) as [number, string[] | undefined];
    if (status === 1) throw heldBudgetRefusal('visitor');
    if (status === 2) throw heldBudgetRefusal('total');
    return evicted ?? [];
  }

  async list(roomId: string, now: number): Promise<Message[]> {
    const ids = await this.redis.client.zrangebyscore(this.index(roomId), `(${now}`, '+inf');
    if (ids.length === 0) return [];
    const values = await this.redis.client.mget(ids.map((id) => this.key(roomId, id)));
    return values.flatMap((value) => {
      if (!value) return [];
      const parsed = MessageSchema.safeParse(JSON.parse(value));
      return parsed.success ? [parsed.data] : [];
    });
  }

  async expire(now: number): Promise<Map<string, string[]>> {
    const expired = new Map<string, string[]>();
    const flat = (await CLAIM_EXPIRED.run(
      this.redis.client,
      [this.rooms, this.held],
      [now, this.redis.prefix],
    )) as (string | number)[];
    for (let at = 0; at < flat.length;) {
      const roomId = String(flat[at]);
      const count = Number(flat[at + 1]);
      expired.set(roomId, flat.slice(at + 2, at + 2 + count).map(String));
      at += 2 + count;
    }
    return expired;
  }

  async remove(roomId: string, messageId: string): Promise<Message | null> {
    const found = await this.find(roomId, messageId, this.now());
    const removed = await REMOVE_MESSAGE.run(
      this.redis.client,
      [this.index(roomId), this.key(roomId, messageId), this.held, this.owners(roomId)],
      [messageId],
    );
    return Number(removed) === 1 ? found : null;
  }

  async find(roomId: string, messageId: string, now: number): Promise<Message | null> {
    const value = await this.redis.client.get(this.key(roomId, messageId));
    if (!value) return null;
    const parsed = MessageSchema.safeParse(JSON.parse(value));
    return parsed.success && Date.parse(parsed.data.expiresAt) > now ? parsed.data : null;
  }

  async purgeRoom(roomId: string): Promise<void> {
    await PURGE_ROOM.run(
      this.redis.client,
      [this.index(roomId), this.held, this.owners(roomId), this.rooms],
      [this.keyPrefix(roomId), roomId],
    );
  }

  async heldBytes(visitor: string | null): Promise<number> {
    const field = visitor === null ? 'all' : `v:${visitor}`;
    return Number((await this.redis.client.hget(this.held, field)) ?? 0);
  }

  async size(): Promise<number> {
    let total = 0;
    for (const roomId of await this.redis.client.smembers(this.rooms))
      total += await this.redis.client.zcard(this.index(roomId));
    return total;
  }
}
