/**
 * One behaviour suite for every ephemeral message store: memory (one process) and Redis (many).
 * Spec 000 §9: messages are deleted after their lifetime; issue "Rooms": bounded per room.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MAX_MESSAGES_PER_ROOM,
  MemoryMessageStore,
  type EphemeralMessageStore,
  type HeldMessageBudget,
} from '../../server/features/messages/index.js';
import { WS_ERROR } from '../../shared/protocol/errors.js';
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

type MakeStore = (
  now: () => number,
  max?: number,
  budget?: HeldMessageBudget,
) => Promise<EphemeralMessageStore>;

const makeRedisStore: MakeStore = async (now, max, budget) => {
  const redis = await freshRedis();
  cleanups.push(redis.cleanup);
  return new RedisMessageStore(redis, now, max, budget);
};

// Redis is left out when it is missing and could not be started (the global setup said so).
const backends: [string, MakeStore][] = [
  ['memory', async (_now, max, budget) => new MemoryMessageStore(max, budget)],
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

  /** The bytes a held message counts for: its JSON text in UTF-8 (ids and rooms of 2 letters). */
  const one = Buffer.byteLength(JSON.stringify(message('m0', 'r0', base)));

  it("refuses a message over its sender's byte budget and keeps what is held (issue 31)", async () => {
    const store = await make(() => base, MAX_MESSAGES_PER_ROOM, {
      perVisitorBytes: one * 3,
      totalBytes: one * 100,
    });
    await store.add(message('o0', 'r0', base), undefined, 'b');
    for (let i = 0; i < 3; i += 1)
      await store.add(message(`v${i}`, 'r0', base + 1 + i), undefined, 'a');
    await expect(store.add(message('v3', 'r0', base + 4), undefined, 'a')).rejects.toThrow(
      WS_ERROR.heldBytesSender,
    );
    // Nothing stored or evicted for it; another visitor still has room.
    expect(await store.heldBytes('a')).toBe(one * 3);
    await store.add(message('o1', 'r0', base + 5), undefined, 'b');
    expect((await store.list('r0', base)).map((m) => m.id)).toEqual(['o0', 'v0', 'v1', 'v2', 'o1']);
  });

  it('refuses every visitor once all held messages reach the total budget', async () => {
    const store = await make(() => base, MAX_MESSAGES_PER_ROOM, {
      perVisitorBytes: one * 10,
      totalBytes: one * 4,
    });
    for (let i = 0; i < 4; i += 1)
      await store.add(message(`m${i}`, `r${i}`, base), undefined, `visitor-${i}`);
    await expect(store.add(message('m4', 'r4', base), undefined, 'visitor-4')).rejects.toThrow(
      WS_ERROR.heldBytesTotal,
    );
    expect(await store.heldBytes(null)).toBe(one * 4);
    expect(await store.size()).toBe(4);
  });

  it('gives held bytes back at expiry, deletion, eviction and room purge', async () => {
    const store = await make(() => base, 2, { perVisitorBytes: one * 2, totalBytes: one * 100 });
    await store.add(message('m0', 'r0', base), undefined, 'a');
    await store.add(message('m1', 'r0', base + 1), undefined, 'a');
    // The room's cap evicts m0 for b's message, giving a's bytes back.
    expect(await store.add(message('m2', 'r0', base + 2), undefined, 'b')).toEqual(['m0']);
    expect(await store.heldBytes('a')).toBe(one);
    await store.add(message('m3', 'r1', base), undefined, 'a');
    await expect(store.add(message('m4', 'r2', base), undefined, 'a')).rejects.toThrow(
      WS_ERROR.heldBytesSender,
    );
    expect(await store.remove('r1', 'm3')).not.toBeNull();
    await store.add(message('m4', 'r2', base), undefined, 'a');
    await store.purgeRoom('r2');
    expect(await store.heldBytes('a')).toBe(one);
    await store.expire(base + 30_002);
    expect(await store.heldBytes('a')).toBe(0);
    expect(await store.heldBytes('b')).toBe(0);
    expect(await store.heldBytes(null)).toBe(0);
    await store.add(message('m5', 'r0', base + 3), undefined, 'a');
    await store.add(message('m6', 'r0', base + 4), undefined, 'a');
    expect(await store.heldBytes('a')).toBe(one * 2);
  });

  it('lets concurrent senders never pass the budget together', async () => {
    const store = await make(() => base, MAX_MESSAGES_PER_ROOM, {
      perVisitorBytes: one * 5,
      totalBytes: one * 100,
    });
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        store.add(message(`${'abc'[i % 3]}${i % 10}`, `r${i % 3}`, base), undefined, 'a'),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(5);
    expect(await store.heldBytes('a')).toBe(one * 5);
    expect(await store.size()).toBe(5);
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
