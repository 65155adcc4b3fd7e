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
import type { RedisHandles } from './connect.js';

/** Removes and returns the ids with score ≤ now (KEYS[1] = zset; ARGV[1] = now). */
const CLAIM_EXPIRED = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if #ids > 0 then redis.call('ZREM', KEYS[1], unpack(ids)) end
return ids`;

/** Keeps the newest ARGV[1] members; returns the evicted ids (KEYS[1] = zset). */
const EVICT_OLDEST = `
local excess = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[1])
if excess <= 0 then return {} end
local popped = redis.call('ZPOPMIN', KEYS[1], excess)
local ids = {}
for i = 1, #popped, 2 do ids[#ids + 1] = popped[i] end
return ids`;

export class RedisMessageStore implements EphemeralMessageStore {
  constructor(
    private readonly redis: RedisHandles,
    private readonly now: () => number,
    private readonly maxPerRoom = MAX_MESSAGES_PER_ROOM,
  ) {}

  private key(roomId: string, id: string) {
    return `${this.redis.prefix}msg:${roomId}:${id}`;
  }
  private index(roomId: string) {
    return `${this.redis.prefix}msgs:${roomId}`;
  }
  private get rooms() {
    return `${this.redis.prefix}msg-rooms`;
  }

  async add(message: Message): Promise<string[]> {
    const expiresAt = Date.parse(message.expiresAt);
    const ttl = Math.max(1, expiresAt - this.now());
    await this.redis.client
      .multi()
      .set(this.key(message.roomId, message.id), JSON.stringify(message), 'PX', ttl)
      .zadd(this.index(message.roomId), expiresAt, message.id)
      .pexpire(this.index(message.roomId), ttl + 60_000)
      .sadd(this.rooms, message.roomId)
      .exec();
    const evicted = (await this.redis.client.eval(
      EVICT_OLDEST,
      1,
      this.index(message.roomId),
      this.maxPerRoom,
    )) as string[];
    if (evicted.length > 0)
      await this.redis.client.del(...evicted.map((id) => this.key(message.roomId, id)));
    return evicted;
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
    for (const roomId of await this.redis.client.smembers(this.rooms)) {
      const ids = (await this.redis.client.eval(
        CLAIM_EXPIRED,
        1,
        this.index(roomId),
        now,
      )) as string[];
      if (ids.length > 0) {
        expired.set(roomId, ids);
        await this.redis.client.del(...ids.map((id) => this.key(roomId, id)));
      }
      if ((await this.redis.client.zcard(this.index(roomId))) === 0)
        await this.redis.client.srem(this.rooms, roomId);
    }
    return expired;
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
