/**
 * One behaviour suite for the login-challenge stores: memory (one process) and Redis (many).
 * DESIGN.md "Login": single use, valid two minutes; issue "Scale-out": a challenge issued by one
 * process is verifiable on another.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryChallengeStore, type ChallengeStore } from '../../server/features/auth/index.js';
import { RedisChallengeStore } from '../../server/redis/redis-stores.js';
import { freshRedis } from '../support/redis.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

type Clock = { now: number };
type Make = (clock: Clock) => Promise<[ChallengeStore, ChallengeStore]>;

/** Each backend gives two handles on one store: two processes, where that means anything. */
const backends: [string, Make][] = [
  [
    'memory',
    async (clock) => {
      const store = new MemoryChallengeStore(() => clock.now);
      return [store, store];
    },
  ],
  [
    'redis',
    async (clock) => {
      const redis = await freshRedis();
      cleanups.push(redis.cleanup);
      return [
        new RedisChallengeStore(redis, () => clock.now),
        new RedisChallengeStore(redis, () => clock.now),
      ];
    },
  ],
];

describe.each(backends)('login challenge store on %s', (_name, make) => {
  it('hands a challenge out once, to the key it was issued to, on any process', async () => {
    const clock = { now: Date.now() };
    const [issuer, verifier] = await make(clock);
    await issuer.put('challenge-a', { keyId: 'key_1', expiresAt: clock.now + 120_000 });

    expect(await verifier.take('challenge-a', 'key_2')).toBeNull();
    expect(await verifier.take('challenge-a', 'key_1')).toEqual({
      keyId: 'key_1',
      expiresAt: clock.now + 120_000,
    });
    expect(await issuer.take('challenge-a', 'key_1')).toBeNull();
  });

  it('lets only one of many racing verifications use a challenge', async () => {
    const clock = { now: Date.now() };
    const [issuer, verifier] = await make(clock);
    await issuer.put('challenge-b', { keyId: 'key_1', expiresAt: clock.now + 120_000 });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? issuer : verifier).take('challenge-b', 'key_1'),
      ),
    );
    expect(results.filter((entry) => entry !== null)).toHaveLength(1);
  });

  it('refuses a challenge after its two minutes', async () => {
    const clock = { now: Date.now() };
    const [issuer, verifier] = await make(clock);
    await issuer.put('challenge-c', { keyId: 'key_1', expiresAt: clock.now + 120_000 });
    clock.now += 120_000;
    expect(await verifier.take('challenge-c', 'key_1')).toBeNull();
  });

  it("drops a revoked key's outstanding challenges and no one else's", async () => {
    const clock = { now: Date.now() };
    const [issuer, verifier] = await make(clock);
    await issuer.put('challenge-d1', { keyId: 'key_1', expiresAt: clock.now + 120_000 });
    await issuer.put('challenge-d2', { keyId: 'key_1', expiresAt: clock.now + 120_000 });
    await issuer.put('challenge-e', { keyId: 'key_2', expiresAt: clock.now + 120_000 });
    await verifier.forgetKey('key_1');
    expect(await issuer.take('challenge-d1', 'key_1')).toBeNull();
    expect(await issuer.take('challenge-d2', 'key_1')).toBeNull();
    expect(await issuer.take('challenge-e', 'key_2')).not.toBeNull();
  });
});

describe('memory challenge store', () => {
  it('stays within its cap by dropping the oldest challenges', async () => {
    const clock = { now: Date.now() };
    const store = new MemoryChallengeStore(() => clock.now, 3);
    for (const name of ['c1', 'c2', 'c3', 'c4']) {
      await store.put(name, { keyId: 'key_1', expiresAt: clock.now + 120_000 });
    }
    expect(store.size).toBe(3);
    expect(await store.take('c1', 'key_1')).toBeNull();
    expect(await store.take('c4', 'key_1')).not.toBeNull();
  });

  it('forgets expired challenges as new ones arrive', async () => {
    const clock = { now: Date.now() };
    const store = new MemoryChallengeStore(() => clock.now);
    await store.put('old', { keyId: 'key_1', expiresAt: clock.now + 120_000 });
    clock.now += 121_000;
    await store.put('new', { keyId: 'key_1', expiresAt: clock.now + 120_000 });
    expect(store.size).toBe(1);
  });
});

describe('redis challenge store', () => {
  it('lets Redis itself remove a challenge at its time', async () => {
    const redis = await freshRedis();
    cleanups.push(redis.cleanup);
    const store = new RedisChallengeStore(redis, Date.now);
    await store.put('short', { keyId: 'key_1', expiresAt: Date.now() + 150 });
    const keys = await redis.client.keys(`${redis.prefix}challenge:*`);
    expect(keys).toHaveLength(1);
    expect(await redis.client.pttl(keys[0]!)).toBeLessThanOrEqual(150);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await redis.client.exists(keys[0]!)).toBe(0);
  });
});
