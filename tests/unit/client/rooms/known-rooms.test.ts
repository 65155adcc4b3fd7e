/**
 * This browser's own channel list (issue 33): the private channels it created or entered, in
 * localStorage `securechannel_known_rooms`, parsed by a schema on read.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KNOWN_ROOMS_MAX } from '../../../../shared/constants.js';
import {
  addKnownRoom,
  forgetKnownRoom,
  loadKnownRooms,
  rememberKnownRoom,
  removeKnownRoom,
  type KnownRoom,
} from '../../../../client/lib/rooms/known-rooms.js';
import { parseKnownRooms } from '../../../../client/lib/rooms/known-rooms-schema.js';
import { STORAGE_KEYS } from '../../../../client/lib/storage-keys.js';
import { fakeStorage } from '../../../support/fake-storage.js';

function room(n: number, overrides: Partial<KnownRoom> = {}) {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    secureId: n.toString(16).padStart(64, '0'),
    name: `ops-${n}`,
    isPrivate: true,
    securityLevel: 'classified' as const,
    ...overrides,
  };
}

function withStorage(storage: ReturnType<typeof fakeStorage>) {
  vi.stubGlobal('window', { localStorage: storage });
  return storage;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the known-rooms list', () => {
  it('adds a room first, with its role and time', () => {
    const list = addKnownRoom(addKnownRoom([], room(1), 'joined', 10), room(2), 'created', 20);
    expect(list.map((item) => [item.name, item.role, item.seenAt])).toEqual([
      ['ops-2', 'created', 20],
      ['ops-1', 'joined', 10],
    ]);
  });

  it('keeps a room once, moved up and refreshed, and a created room stays created', () => {
    let list = addKnownRoom([], room(1), 'created', 10);
    list = addKnownRoom(list, room(2), 'joined', 20);
    list = addKnownRoom(list, room(1, { name: 'renamed' }), 'joined', 30);
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ secureId: room(1).secureId, name: 'renamed', role: 'created' });
    expect(list[0]!.seenAt).toBe(30);
  });

  it('drops the oldest beyond the limit', () => {
    let list: KnownRoom[] = [];
    for (let n = 1; n <= KNOWN_ROOMS_MAX + 3; n += 1)
      list = addKnownRoom(list, room(n), 'joined', n);
    expect(list).toHaveLength(KNOWN_ROOMS_MAX);
    expect(list.some((item) => item.name === 'ops-1')).toBe(false);
  });

  it('removes a destroyed room by its id (room_destroyed) or its secure id (404)', () => {
    const list = [room(1), room(2), room(3)].reduce<KnownRoom[]>(
      (acc, item) => addKnownRoom(acc, item, 'joined', 1),
      [],
    );
    expect(removeKnownRoom(list, room(2).id).map((item) => item.name)).toEqual(['ops-3', 'ops-1']);
    expect(removeKnownRoom(list, room(3).secureId).map((item) => item.name)).toEqual([
      'ops-2',
      'ops-1',
    ]);
    expect(removeKnownRoom(list, 'not-there')).toHaveLength(3);
  });
});

describe('parseKnownRooms (what localStorage holds)', () => {
  const good = { ...room(1), role: 'created', seenAt: 5 };

  it('reads a stored list', () => {
    expect(parseKnownRooms(JSON.stringify([good]))).toEqual([good]);
  });

  it('ignores missing, unparsable and non-list content', () => {
    for (const raw of [null, '', 'not json', '{"a":1}', '42', 'null', '"text"']) {
      expect(parseKnownRooms(raw), String(raw)).toEqual([]);
    }
  });

  it('drops bad entries one by one and keeps the rest', () => {
    const bad = [
      { ...good, secureId: 'short' },
      { ...good, secureId: 'A'.repeat(64) },
      { ...good, securityLevel: 'cosmic' },
      { ...good, role: 'admin' },
      { ...good, seenAt: -1 },
      { ...good, id: undefined },
      'a string',
      null,
    ];
    const second = { ...room(2), role: 'joined', seenAt: 6 };
    expect(parseKnownRooms(JSON.stringify([...bad, good, second]))).toEqual([good, second]);
  });

  it('keeps a secure id listed twice once', () => {
    expect(parseKnownRooms(JSON.stringify([good, { ...good, name: 'again' }]))).toEqual([good]);
  });
});

describe('the stored list', () => {
  it('remembers, dedupes and forgets through localStorage', async () => {
    const storage = withStorage(fakeStorage());
    await rememberKnownRoom(room(1), 'created', 1);
    await rememberKnownRoom(room(2), 'joined', 2);
    await rememberKnownRoom(room(1), 'joined', 3);
    expect((await loadKnownRooms()).map((item) => [item.name, item.role])).toEqual([
      ['ops-1', 'created'],
      ['ops-2', 'joined'],
    ]);
    await forgetKnownRoom(room(1).secureId);
    expect((await loadKnownRooms()).map((item) => item.name)).toEqual(['ops-2']);
    expect(JSON.parse(storage.entries.get(STORAGE_KEYS.knownRooms) ?? '')).toHaveLength(1);
  });

  it('starts over from garbage in storage', async () => {
    const storage = withStorage(fakeStorage());
    storage.entries.set(STORAGE_KEYS.knownRooms, '{{{');
    expect(await loadKnownRooms()).toEqual([]);
    await rememberKnownRoom(room(4), 'joined', 1);
    expect((await loadKnownRooms()).map((item) => item.name)).toEqual(['ops-4']);
  });

  it('keeps working, with an empty list, when storage refuses', async () => {
    withStorage(fakeStorage({ refuse: true }));
    await expect(rememberKnownRoom(room(1), 'joined', 1)).resolves.toBeUndefined();
    expect(await loadKnownRooms()).toEqual([]);
  });
});
