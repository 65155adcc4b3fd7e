/**
 * Every join looks its room up; the room service reuses rows for a few seconds and shares a
 * lookup already on its way, without ever letting anyone into a room past its destruction.
 */
import { describe, expect, it } from 'vitest';
import {
  ROOM_CACHE_TTL_MS,
  RoomService,
  type RoomRow,
  type RoomServiceDeps,
  type RoomStore,
} from '../../../server/features/rooms/index.js';

const SECURE_ID = 'ab'.repeat(32);
const ID = '11111111-2222-4333-8444-555555555555';

function setup() {
  const clock = { now: Date.UTC(2026, 10, 21, 12) };
  let row: RoomRow | null = {
    id: ID,
    secureId: SECURE_ID,
    name: 'ops',
    isPrivate: false,
    securityLevel: 'public',
    accessCodeHash: null,
    selfDestructTimer: null,
    destructionAt: null,
    isDefault: false,
    createdAt: new Date(clock.now),
    creatorKeyId: null,
    isLocked: false,
    codeRequiredForKeyHolders: false,
  };
  const reads = { count: 0 };
  const read = async () => {
    reads.count += 1;
    await new Promise((resolve) => setTimeout(resolve, 5));
    return row ? { ...row } : null;
  };
  const store = {
    findById: read,
    findBySecureId: read,
    setTimer: async (_id: string, minutes: number | null, destructionAt: Date | null) => {
      if (!row) return null;
      row = { ...row, selfDestructTimer: minutes, destructionAt };
      return { ...row };
    },
    deleteDue: async (now: Date) => {
      if (!row?.destructionAt || row.destructionAt > now) return [];
      const gone = row;
      row = null;
      return [gone];
    },
  } as unknown as RoomStore;
  const service = new RoomService({
    store,
    now: () => clock.now,
    grants: { isValid: async () => false, purgeRoom: async () => undefined },
    presence: { purgeRoom: async () => undefined },
    channels: { publish: async () => undefined },
    purgeMessages: async () => undefined,
    purgeBundles: async () => undefined,
    attemptLimiter: { hit: async () => true },
  } as unknown as RoomServiceDeps);
  return {
    clock,
    reads,
    service,
    setRow: (next: RoomRow | null) => (row = next),
  };
}

describe('room lookups', () => {
  it('makes one database read for ten joins arriving together, by secure id or id', async () => {
    const { service, reads } = setup();
    const rows = await Promise.all(Array.from({ length: 10 }, () => service.getRow(SECURE_ID)));
    expect(rows.every((row) => row.id === ID)).toBe(true);
    await service.getRow(ID);
    expect(reads.count).toBe(1);
  });

  it('reads the row again after the cache time, and sees a change made elsewhere', async () => {
    const { service, reads, clock, setRow } = setup();
    const first = await service.getRow(SECURE_ID);
    setRow({ ...first, selfDestructTimer: 1, destructionAt: new Date(clock.now + 60_000) });
    expect((await service.getRow(SECURE_ID)).destructionAt).toBeNull();
    clock.now += ROOM_CACHE_TTL_MS;
    expect((await service.getRow(SECURE_ID)).destructionAt).not.toBeNull();
    expect(reads.count).toBe(2);
  });

  it('never serves a room past its destruction time, nor after destroying it', async () => {
    const { service, clock, setRow } = setup();
    const first = await service.getRow(SECURE_ID);
    // The timer was set on this process: the cache holds the new destruction time.
    await service.setSelfDestruct(SECURE_ID, 0.5, async () => true);
    clock.now += 30_000;
    // Another process destroyed it; the cached row's time has passed, so it is read again.
    setRow(null);
    await expect(service.getRow(first.secureId)).rejects.toThrow('Room not found');
  });

  it('forgets a room it destroyed itself', async () => {
    const { service, clock } = setup();
    await service.setSelfDestruct(SECURE_ID, 0.5, async () => true);
    clock.now += 30_000;
    expect(await service.destroyDueRooms()).toHaveLength(1);
    clock.now -= 29_000;
    await expect(service.getRow(SECURE_ID)).rejects.toThrow('Room not found');
  });
});
