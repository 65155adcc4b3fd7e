/**
 * One behaviour suite for every ephemeral message store: memory (one process) and Redis (many).
 * Spec 000 §9: messages are deleted after their lifetime; issue "Rooms": bounded per room.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MemoryMessageStore,
  type EphemeralMessageStore,
} from '../../server/features/messages/index.js';
import { roomChannel, roomPayload } from '../../server/realtime/room-channels.js';
import { RedisFanout } from '../../server/redis/redis-fanout.js';
import { RedisMessageStore } from '../../server/redis/redis-message-store.js';
import { RedisScript } from '../../server/redis/script.js';
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

describe.runIf(HAS_REDIS)('redis message store relaying to the room', () => {
  /** A store and a subscriber to room `r`'s channel that records the payloads in order. */
  async function relaying(max?: number) {
    const redis = await freshRedis();
    cleanups.push(redis.cleanup);
    const fanout = new RedisFanout(redis);
    const heard: string[] = [];
    await fanout.subscribe(roomChannel('r'), (payload) => heard.push(payload));
    const base = Date.now();
    return { redis, store: new RedisMessageStore(redis, () => base, max), heard, base };
  }

  const until = async (check: () => boolean) => {
    for (let i = 0; i < 100 && !check(); i += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
  };

  it('publishes the frame RoomChannels would have, after storing the message', async () => {
    const { store, heard, base } = await relaying();
    const sent = message('a', 'r', base);
    expect(await store.relay(sent)).toEqual([]);
    await until(() => heard.length > 0);
    expect(heard).toEqual([roomPayload(JSON.stringify({ type: 'new_message', message: sent }))]);
    expect(await store.find('r', 'a', base)).toEqual(sent);
  });

  it('publishes new_message, then messages_expired for what the cap evicted, in order', async () => {
    const { store, heard, base } = await relaying(2);
    const sent = [0, 1, 2, 3].map((i) => message(`m${i}`, 'r', base + i));
    const evicted = await Promise.all(sent.map((each) => store.relay(each)));
    expect(evicted).toEqual([[], [], ['m0'], ['m1']]);
    await until(() => heard.length >= 6);
    const frames = heard.map((payload) => payload.slice(payload.indexOf('\n') + 1));
    expect(frames).toEqual([
      JSON.stringify({ type: 'new_message', message: sent[0] }),
      JSON.stringify({ type: 'new_message', message: sent[1] }),
      JSON.stringify({ type: 'new_message', message: sent[2] }),
      JSON.stringify({ type: 'messages_expired', messageIds: ['m0'] }),
      JSON.stringify({ type: 'new_message', message: sent[3] }),
      JSON.stringify({ type: 'messages_expired', messageIds: ['m1'] }),
    ]);
  });
});

describe.runIf(HAS_REDIS)('redis script', () => {
  it('runs a script Redis has not seen yet by sending it once, then by its hash', async () => {
    const redis = await freshRedis();
    cleanups.push(redis.cleanup);
    // A text of its own, so that no other test or process has loaded it (no SCRIPT FLUSH needed).
    const script = new RedisScript(`-- ${randomUUID()}\nreturn redis.call('INCR', KEYS[1])`);
    const key = `${redis.prefix}counter`;
    expect(await script.run(redis.client, [key], [])).toBe(1);
    expect(await script.run(redis.client, [key], [])).toBe(2);
  });
});
