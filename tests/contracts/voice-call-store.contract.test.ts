/**
 * One behaviour suite for the voice call store (server/features/voice/store.ts) against memory
 * (one process) and Redis (many, two store instances on one prefix): joining order, the cap under
 * concurrent joins, first in and last out decided once, and the room's purge.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryVoiceCallStore, type VoiceCallStore } from '../../server/features/voice/index.js';
import { RedisVoiceCallStore } from '../../server/redis/redis-voice-store.js';
import { freshRedis } from '../support/redis.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const backends: [string, () => Promise<[VoiceCallStore, VoiceCallStore]>][] = [
  [
    'memory',
    async () => {
      const store = new MemoryVoiceCallStore();
      return [store, store];
    },
  ],
  [
    'redis',
    async () => {
      const redis = await freshRedis();
      cleanups.push(redis.cleanup);
      return [new RedisVoiceCallStore(redis), new RedisVoiceCallStore(redis)];
    },
  ],
];

const participant = (index: number) => ({
  nodeId: `node_${String(index).padStart(16, '0')}`,
  username: `Agent${index}`,
  joinedAt: new Date(1_700_000_000_000 + index * 1000).toISOString(),
});

describe.each(backends)('voice call store (%s)', (_name, open) => {
  it('keeps participants in joining order and the start of the call', async () => {
    const [one, two] = await open();
    expect(await one.get('r1')).toBeNull();
    expect(await one.join('r1', participant(2), 8)).toMatchObject({ status: 'joined' });
    const joined = await two.join('r1', participant(1), 8);
    expect(joined).toEqual({
      status: 'joined',
      call: {
        participants: [participant(1), participant(2)],
        startedAt: participant(2).joinedAt,
      },
    });
    expect(
      await one.join('r1', { ...participant(2), joinedAt: participant(9).joinedAt }, 8),
    ).toEqual({
      status: 'already',
      call: { participants: [participant(1), participant(2)], startedAt: participant(2).joinedAt },
    });
    expect(
      await two.areParticipants('r1', [participant(1).nodeId, 'node_x', participant(2).nodeId]),
    ).toEqual([true, false, true]);
    expect(await two.areParticipants('r2', [participant(1).nodeId])).toEqual([false]);
  });

  it('never lets concurrent joins past the cap', async () => {
    const [one, two] = await open();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        (index % 2 === 0 ? one : two).join('r1', participant(index + 1), 5),
      ),
    );
    expect(results.filter((result) => result.status === 'joined')).toHaveLength(5);
    expect(results.filter((result) => result.status === 'full')).toHaveLength(7);
    expect((await one.get('r1'))?.participants).toHaveLength(5);
  });

  it('ends the call with its last participant, once', async () => {
    const [one, two] = await open();
    await one.join('r1', participant(1), 8);
    await one.join('r1', participant(2), 8);
    expect(await two.leave('r1', participant(1).nodeId)).toEqual({
      removed: true,
      call: { participants: [participant(2)], startedAt: participant(1).joinedAt },
    });
    const last = await Promise.all([
      one.leave('r1', participant(2).nodeId),
      two.leave('r1', participant(2).nodeId),
    ]);
    expect(last.filter((result) => result.removed)).toHaveLength(1);
    expect(last.every((result) => result.call === null)).toBe(true);
    expect(await one.get('r1')).toBeNull();
    // A new call has a new start.
    await two.join('r1', participant(5), 8);
    expect((await one.get('r1'))?.startedAt).toBe(participant(5).joinedAt);
  });

  it('purges a destroyed room and leaves other rooms alone', async () => {
    const [one, two] = await open();
    await one.join('r1', participant(1), 8);
    await one.join('r1', participant(2), 8);
    await one.join('r2', participant(3), 8);
    expect(await two.purgeRoom('r1')).toEqual([participant(1), participant(2)]);
    expect(await one.get('r1')).toBeNull();
    expect(await two.purgeRoom('r1')).toEqual([]);
    expect((await one.get('r2'))?.participants).toEqual([participant(3)]);
  });
});
