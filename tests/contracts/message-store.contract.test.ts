/**
 * One behaviour suite for every ephemeral message store: memory (one process) and Redis (many).
 * Spec 000 §9: messages are deleted after their lifetime; issue "Rooms": bounded per room.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  MemoryMessageStore,
  type EphemeralMessageStore,
} from '../../server/features/messages/index.js';
import { RedisMessageStore } from '../../server/redis/redis-message-store.js';
import type { Message } from '../../shared/protocol/ws/chat.js';
import { freshRedis } from '../support/redis.js';
import { HAS_REDIS } from '../support/services.js';

function message(id: string, roomId: string, createdAt: number, ttlMs = 30_000): Message {
  return {
    id,
    senderId: 'node_1',
    senderUsername: 'Agent1',
    roomId,
    content: '',
    encryptedContent: `ct-${id}`,
    encryptionType: 'AES-256-GCM',
    signature: null,
    isStealthMode: false,
    hasImage: false,
    imageUrl: null,
    thumbnailUrl: null,
    imageMetadata: null,
    createdAt: new Date(createdAt).toISOString(),
    expiresAt: new Date(createdAt + ttlMs).toISOString(),
    isSystem: false,
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

type MakeStore = (now: () => number, max?: number) => Promise<EphemeralMessageStore>;

const makeRedisStore: MakeStore = async (now, max) => {
  const redis = await freshRedis();
  cleanups.push(redis.cleanup);
  return new RedisMessageStore(redis, now, max);
};

// Redis is left out when it is missing and could not be started (the global setup said so).
const backends: [string, MakeStore][] = [
  ['memory', async (_now, max) => new MemoryMessageStore(max)],
  ...(HAS_REDIS ? [['redis', makeRedisStore] as [string, MakeStore]] : []),
];

describe.each(backends)('ephemeral message store on %s', (_name, make) => {
  const base = Date.now();

  it('lists only unexpired messages, oldest first (spec 000 §4)', async () => {
    const store = await make(() => base);
    await store.add(message('a', 'r', base));
    await store.add(message('b', 'r', base + 10_000));
    expect((await store.list('r', base + 29_999)).map((m) => m.id)).toEqual(['a', 'b']);
    expect((await store.list('r', base + 30_000)).map((m) => m.id)).toEqual(['b']);
  });

  it('deletes expired messages once and reports them by room', async () => {
    const store = await make(() => base);
    await store.add(message('a', 'r1', base));
    await store.add(message('b', 'r2', base));
    await store.add(message('c', 'r2', base + 20_000));
    const expired = await store.expire(base + 30_000);
    expect(Object.fromEntries(expired)).toEqual({ r1: ['a'], r2: ['b'] });
    expect(await store.size()).toBe(1);
    expect(Object.fromEntries(await store.expire(base + 30_000))).toEqual({});
  });

  it('keeps at most the bound per room by evicting the oldest', async () => {
    const store = await make(() => base, 3);
    const evicted: string[] = [];
    for (let i = 0; i < 5; i += 1)
      evicted.push(...(await store.add(message(`m${i}`, 'r', base + i))));
    expect(evicted).toEqual(['m0', 'm1']);
    expect((await store.list('r', base)).map((m) => m.id)).toEqual(['m2', 'm3', 'm4']);
  });

  it('purges a destroyed room', async () => {
    const store = await make(() => base);
    await store.add(message('a', 'gone', base));
    await store.purgeRoom('gone');
    expect(await store.list('gone', base)).toEqual([]);
    expect(await store.size()).toBe(0);
  });
});

describe.runIf(HAS_REDIS)('redis message store', () => {
  it('lets Redis itself delete a message at its time, with no process sweeping', async () => {
    const redis = await freshRedis();
    cleanups.push(redis.cleanup);
    const store = new RedisMessageStore(redis, () => Date.now());
    await store.add(message('short', 'r', Date.now(), 300));
    expect(await redis.client.exists(`${redis.prefix}msg:r:short`)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(await redis.client.exists(`${redis.prefix}msg:r:short`)).toBe(0);
  });

  it('lets only one of two processes claim an expired message', async () => {
    const redis = await freshRedis();
    cleanups.push(redis.cleanup);
    const base = Date.now();
    const first = new RedisMessageStore(redis, () => base);
    const second = new RedisMessageStore(redis, () => base);
    for (let i = 0; i < 20; i += 1)
      await first.add(message(`m${i}`, 'r', base - 60_000, 30_000 + i));
    const [a, b] = await Promise.all([first.expire(base), second.expire(base)]);
    const claimed = [...(a.get('r') ?? []), ...(b.get('r') ?? [])].sort();
    expect(claimed).toHaveLength(20);
    expect(new Set(claimed).size).toBe(20);
  });
});
