/**
 * One behaviour suite for the admission stores of issue 15 against memory (one process) and
 * Redis (many): the upload quota ledger and the room access grants.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  MemoryUploadQuota,
  type QuotaLimits,
  type UploadQuota,
} from '../../server/features/images/index.js';
import {
  MemoryAccessGrantStore,
  type AccessGrantStore,
} from '../../server/features/rooms/index.js';
import { RedisUploadQuota } from '../../server/redis/redis-upload-quota.js';
import { RedisAccessGrantStore } from '../../server/redis/redis-stores.js';
import { freshRedis } from '../support/redis.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const limits: QuotaLimits = {
  member: { bytes: 300, count: 3 },
  address: { bytes: 500, count: 5 },
  room: { bytes: 800, count: 8 },
  global: { bytes: 1000, count: 10 },
};

const quotas: [string, () => Promise<[UploadQuota, UploadQuota]>][] = [
  [
    'memory',
    async () => {
      const quota = new MemoryUploadQuota(limits);
      return [quota, quota];
    },
  ],
  [
    'redis',
    async () => {
      const redis = await freshRedis();
      cleanups.push(redis.cleanup);
      return [new RedisUploadQuota(redis, limits), new RedisUploadQuota(redis, limits)];
    },
  ],
];

const owner = (member: string, address = 'a1', roomId = 'r1') => ({ member, roomId, address });

describe.each(quotas)('upload quota (%s)', (_name, make) => {
  it('refuses the first full scope and takes nothing then', async () => {
    const [one, two] = await make();
    expect(await one.reserve('t1', owner('m1'), 200, 10_000, 0)).toBeNull();
    expect(await two.reserve('t2', owner('m1'), 200, 10_000, 0)).toBe('member');
    expect(await two.reserve('t3', owner('m2'), 250, 10_000, 0)).toBeNull();
    expect(await one.reserve('t4', owner('m3'), 100, 10_000, 0)).toBe('address');
    expect(await one.reserve('t5', owner('m4', 'a2'), 250, 10_000, 0)).toBeNull();
    expect(await one.reserve('t6', owner('m5', 'a2'), 150, 10_000, 0)).toBe('room');
    expect(await one.reserve('t7', owner('m6', 'a3', 'r2'), 200, 10_000, 0)).toBeNull();
    expect(await one.reserve('t8', owner('m7', 'a4', 'r3'), 200, 10_000, 0)).toBe('global');
  });

  it('gives back on release, after settling down, and at expiry', async () => {
    const [one, two] = await make();
    expect(await one.reserve('t1', owner('m1'), 300, 10_000, 0)).toBeNull();
    expect(await two.reserve('t2', owner('m1'), 1, 10_000, 0)).toBe('member');
    await two.settle('t1', 100, 5_000);
    expect(await one.reserve('t2', owner('m1'), 150, 20_000, 0)).toBeNull();
    await one.release('t2');
    await one.release('t2');
    expect(await two.reserve('t3', owner('m1'), 200, 20_000, 0)).toBeNull();
    expect(await two.reserve('t4', owner('m1'), 1, 20_000, 0)).toBe('member');
    // t1 expires at 5 s; extending t3 keeps it.
    await one.extend('t3', 30_000);
    expect(await two.reserve('t4', owner('m1'), 100, 40_000, 5_000)).toBeNull();
    expect(await two.reserve('t5', owner('m1'), 1, 40_000, 25_000)).toBe('member');
    expect(await two.reserve('t5', owner('m1'), 200, 40_000, 30_000)).toBeNull();
  });

  it('never lets concurrent reservations overshoot', async () => {
    const [one, two] = await make();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? one : two).reserve(`t${i}`, owner(`m${i}`, `a${i}`, `r${i}`), 100, 10_000, 0),
      ),
    );
    expect(results.filter((result) => result === null)).toHaveLength(10);
  });
});

const grantStores: [string, () => Promise<AccessGrantStore>][] = [
  ['memory', async () => new MemoryAccessGrantStore(Date.now)],
  [
    'redis',
    async () => {
      const redis = await freshRedis();
      cleanups.push(redis.cleanup);
      return new RedisAccessGrantStore(redis, 60_000);
    },
  ],
];

describe.each(grantStores)('access grants (%s)', (_name, make) => {
  it('reuses one grant per holder and room and says whose it is', async () => {
    const grants = await make();
    const first = await grants.issue('room-1', 'node_a');
    expect(await grants.issue('room-1', 'node_a')).toBe(first);
    expect(await grants.issue('room-1', 'node_b')).not.toBe(first);
    expect(await grants.issue('room-2', 'node_a')).not.toBe(first);
    expect(await grants.find(first)).toEqual({ roomId: 'room-1', holder: 'node_a' });
    expect(await grants.isValid(first, 'room-1')).toBe(true);
    expect(await grants.isValid(first, 'room-2')).toBe(false);
    expect(await grants.find('nope')).toBeNull();
  });

  it("revokes a holder's grant, and every grant of a room but those of the holders kept", async () => {
    const grants = await make();
    const a = await grants.issue('room-1', 'node_a');
    const b = await grants.issue('room-1', 'node_b');
    const code = await grants.issue('room-1', 'addr:10.0.0.1');
    const elsewhere = await grants.issue('room-2', 'node_a');

    await grants.revoke('room-1', 'node_a');
    expect(await grants.find(a)).toBeNull();
    expect(await grants.isValid(a, 'room-1')).toBe(false);
    // The holder's grant for another room, and the others' in this room, stay.
    expect(await grants.isValid(elsewhere, 'room-2')).toBe(true);
    expect(await grants.isValid(b, 'room-1')).toBe(true);
    // A revoked holder that comes back gets a new token, not the old one.
    const again = await grants.issue('room-1', 'node_a');
    expect(again).not.toBe(a);

    expect(await grants.revokeAbsent('room-1', new Set(['node_b']))).toBe(2);
    expect(await grants.find(again)).toBeNull();
    expect(await grants.find(code)).toBeNull();
    expect(await grants.isValid(b, 'room-1')).toBe(true);
    expect(await grants.isValid(elsewhere, 'room-2')).toBe(true);
    expect(await grants.issue('room-1', 'node_b')).toBe(b);

    await grants.purgeRoom('room-1');
    expect(await grants.find(b)).toBeNull();
    expect(await grants.isValid(elsewhere, 'room-2')).toBe(true);
  });
});
