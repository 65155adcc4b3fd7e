/**
 * Ephemeral room messages in Redis. Each message is its own key with a TTL, so expiry holds even
 * if every server process dies; a sorted set per room (score = expiry) orders them and lets one
 * process, atomically, claim what has expired so the room is told once.
 *
 *   {p}msg:{roomId}:{id}   message JSON, PX = time left
 *   {p}msgs:{roomId}       ZSET id → expiresAt (ms)
 *   {p}msg-rooms           SET of room ids holding messages
 */
import type { Message } from '../../shared/protocol/ws/chat.js';
import { MessageSchema } from '../../shared/protocol/ws/chat.js';
import { MAX_MESSAGES_PER_ROOM, type EphemeralMessageStore } from '../features/messages/index.js';
import { roomChannel, roomPayload } from '../realtime/room-channels.js';
import type { RedisHandles } from './connect.js';
import { RedisScript } from './script.js';

/*
 * Both scripts name keys they build from ARGV (a room's key prefix plus an id, or the key
 * prefix plus a room id): fine on one Redis server, which is what REDIS_URL points at (not Redis
 * Cluster).
 */

/**
 * Stores a message, indexes it, evicts the room's oldest beyond the cap and publishes the room's
 * frames, in one round trip and one atomic step: `new_message`, then `messages_expired` for what
 * was evicted. The frames are built here from the stored JSON, so the message is serialized once,
 * and a room's order of storage is its order of delivery on every process.
 * KEYS: message key, room index, rooms set. ARGV: message JSON, TTL ms, expiresAt ms, id, room
 * id, cap, message-key prefix of the room, then (relay only) the room's channel and the payload
 * header (room-channels.ts). Returns the evicted ids.
 */
const ADD_MESSAGE = new RedisScript(`
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[2]) + 60000)
redis.call('SADD', KEYS[3], ARGV[5])
local relay = ARGV[8] ~= nil
if relay then
  redis.call('PUBLISH', ARGV[8], ARGV[9] .. '{"type":"new_message","message":' .. ARGV[1] .. '}')
end
local excess = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[6])
if excess <= 0 then return {} end
local popped = redis.call('ZPOPMIN', KEYS[2], excess)
local ids = {}
for i = 1, #popped, 2 do
  ids[#ids + 1] = popped[i]
  redis.call('DEL', ARGV[7] .. popped[i])
end
if relay then
  redis.call('PUBLISH', ARGV[8],
    ARGV[9] .. '{"type":"messages_expired","messageIds":' .. cjson.encode(ids) .. '}')
end
return ids`);

/**
 * For every room holding messages: removes and returns its ids with score ≤ now, deletes their
 * keys (Redis has usually done so by TTL already) and drops the room from the rooms set when
 * nothing is left; one round trip for all rooms, and one process claims each expired message.
 * KEYS: rooms set. ARGV: now, key prefix. Returns room id, count, ids, room id, count, ids, …
 */
const CLAIM_EXPIRED = new RedisScript(`
local out = {}
for _, roomId in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local index = ARGV[2] .. 'msgs:' .. roomId
  local ids = redis.call('ZRANGEBYSCORE', index, '-inf', ARGV[1])
  if #ids > 0 then
    redis.call('ZREM', index, unpack(ids))
    local keyPrefix = ARGV[2] .. 'msg:' .. roomId .. ':'
    for i = 1, #ids do redis.call('DEL', keyPrefix .. ids[i]) end
    out[#out + 1] = roomId
    out[#out + 1] = #ids
    for i = 1, #ids do out[#out + 1] = ids[i] end
  end
  if redis.call('ZCARD', index) == 0 then redis.call('SREM', KEYS[1], roomId) end
end
return out`);

export class RedisMessageStore implements EphemeralMessageStore {
  constructor(
    private readonly redis: RedisHandles,
    private readonly now: () => number,
    private readonly maxPerRoom = MAX_MESSAGES_PER_ROOM,
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

  add(message: Message): Promise<string[]> {
    return this.store(message, []);
  }

  /** Stores the message and publishes it to its room in the same step (see ADD_MESSAGE). */
  relay(message: Message): Promise<string[]> {
    return this.store(message, [this.redis.prefix + roomChannel(message.roomId), roomPayload('')]);
  }

  private async store(message: Message, relay: readonly string[]): Promise<string[]> {
    const expiresAt = Date.parse(message.expiresAt);
    const ttl = Math.max(1, expiresAt - this.now());
    return (await ADD_MESSAGE.run(
      this.redis.client,
      [this.key(message.roomId, message.id), this.index(message.roomId), this.rooms],
      [
        JSON.stringify(message),
        ttl,
        expiresAt,
        message.id,
        message.roomId,
        this.maxPerRoom,
        this.keyPrefix(message.roomId),
        ...relay,
      ],
    )) as string[];
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
      [this.rooms],
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
    // ZREM decides which caller removed it, so a message is deleted (and announced) once.
    if ((await this.redis.client.zrem(this.index(roomId), messageId)) !== 1) return null;
    await this.redis.client.del(this.key(roomId, messageId));
    return found;
  }

  async find(roomId: string, messageId: string, now: number): Promise<Message | null> {
    const value = await this.redis.client.get(this.key(roomId, messageId));
    if (!value) return null;
    const parsed = MessageSchema.safeParse(JSON.parse(value));
    return parsed.success && Date.parse(parsed.data.expiresAt) > now ? parsed.data : null;
  }

  async purgeRoom(roomId: string): Promise<void> {
    const ids = await this.redis.client.zrange(this.index(roomId), 0, -1);
    const keys = [this.index(roomId), ...ids.map((id) => this.key(roomId, id))];
    await this.redis.client.del(...keys);
    await this.redis.client.srem(this.rooms, roomId);
  }

  async size(): Promise<number> {
    let total = 0;
    for (const roomId of await this.redis.client.smembers(this.rooms))
      total += await this.redis.client.zcard(this.index(roomId));
    return total;
  }
}
