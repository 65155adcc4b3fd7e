/**
 * Key holders and locked rooms (issue 31): spec 000 §4 lets a key into every room without its
 * access code; a room's creator may require the code from everyone, key holders included. The
 * rule (`roomEntry`) and the service calls built on it: joining, image membership, the room list.
 */
import { describe, expect, it } from 'vitest';
import { MemoryAccessGrantStore } from '../../../server/features/rooms/access-grants.js';
import {
  RoomService,
  roomEntry,
  type RoomServiceDeps,
} from '../../../server/features/rooms/service.js';
import type { NewRoomRow, RoomRow, RoomStore } from '../../../server/features/rooms/store.js';

const base = {
  isPrivate: true,
  securityLevel: 'classified' as const,
  isLocked: false,
  codeRequiredForKeyHolders: false,
};
const OPEN = { ...base, isPrivate: false, securityLevel: 'public' as const };
const LOCKED = base;
const CODE_FOR_EVERYONE = { ...base, codeRequiredForKeyHolders: true };
/** A public room its moderators locked: it has no code, so only keys (and old grants) get in. */
const MODERATION_LOCKED = { ...OPEN, isLocked: true };

describe('roomEntry', () => {
  it('lets anyone into an open room, marked open', () => {
    for (const isKeyHolder of [true, false])
      for (const hasGrant of [true, false])
        expect(roomEntry(OPEN, { isKeyHolder, hasGrant })).toBe('open');
  });

  it('lets a key holder into a locked room without the code by default, marked key (spec 000 §4)', () => {
    expect(roomEntry(LOCKED, { isKeyHolder: true, hasGrant: false })).toBe('key');
    // The room never asked them for the code, even if they also hold a grant.
    expect(roomEntry(LOCKED, { isKeyHolder: true, hasGrant: true })).toBe('key');
    expect(roomEntry(MODERATION_LOCKED, { isKeyHolder: true, hasGrant: false })).toBe('key');
  });

  it('refuses a visitor without a grant and admits one with it, marked code', () => {
    expect(roomEntry(LOCKED, { isKeyHolder: false, hasGrant: false })).toBeNull();
    expect(roomEntry(LOCKED, { isKeyHolder: false, hasGrant: true })).toBe('code');
  });

  it('refuses a key holder without the code when the creator required it from everyone', () => {
    expect(roomEntry(CODE_FOR_EVERYONE, { isKeyHolder: true, hasGrant: false })).toBeNull();
    expect(roomEntry(CODE_FOR_EVERYONE, { isKeyHolder: true, hasGrant: true })).toBe('code');
    expect(roomEntry(CODE_FOR_EVERYONE, { isKeyHolder: false, hasGrant: true })).toBe('code');
    expect(roomEntry(CODE_FOR_EVERYONE, { isKeyHolder: false, hasGrant: false })).toBeNull();
  });
});

describe('RoomService and the code-for-everyone option', () => {
  function setup() {
    const rows = new Map<string, RoomRow>();
    const store = {
      insert: async (row: NewRoomRow) => {
        const full = { isDefault: false, isLocked: false, ...row } as RoomRow;
        rows.set(full.id, full);
        return full;
      },
      findById: async (id: string) => rows.get(id) ?? null,
      findBySecureId: async (secureId: string) =>
        [...rows.values()].find((row) => row.secureId === secureId) ?? null,
      list: async () => [...rows.values()],
    } as unknown as RoomStore;
    const now = () => Date.UTC(2026, 10, 28, 12);
    const grants = new MemoryAccessGrantStore(now);
    const service = new RoomService({
      store,
      now,
      grants,
      presence: { purgeRoom: async () => undefined },
      channels: { publish: async () => undefined },
      purgeMessages: async () => undefined,
      purgeBundles: async () => undefined,
      attemptLimiter: { hit: async () => true },
    } as unknown as RoomServiceDeps);
    return { service, grants };
  }
  const code = 'c'.repeat(64);

  it('stores the option for rooms with a code and never for public rooms', async () => {
    const { service } = setup();
    const locked = await service.createRoom({
      name: 'vault',
      isPrivate: true,
      securityLevel: 'restricted',
      passwordHash: code,
      selfDestructTimer: null,
      codeRequiredForKeyHolders: true,
    });
    expect(locked.codeRequiredForKeyHolders).toBe(true);
    const open = await service.createRoom({
      name: 'lobby',
      isPrivate: false,
      securityLevel: 'public',
      selfDestructTimer: null,
      codeRequiredForKeyHolders: true,
    });
    expect(open.codeRequiredForKeyHolders).toBe(false);
    const plain = await service.createRoom({
      name: 'default rule',
      isPrivate: true,
      securityLevel: 'classified',
      passwordHash: code,
      selfDestructTimer: null,
    });
    expect(plain.codeRequiredForKeyHolders).toBe(false);
  });

  it('asks a key holder for a grant of this room, for joining and for images alike', async () => {
    const { service, grants } = setup();
    const room = await service.createRoom({
      name: 'vault',
      isPrivate: true,
      securityLevel: 'top_secret',
      passwordHash: code,
      selfDestructTimer: null,
      codeRequiredForKeyHolders: true,
    });
    const other = await service.createRoom({
      name: 'other',
      isPrivate: true,
      securityLevel: 'top_secret',
      passwordHash: code,
      selfDestructTimer: null,
      codeRequiredForKeyHolders: true,
    });
    const row = await service.getRow(room.id);
    const keyOnly = { isKeyHolder: true, accessToken: null };
    expect(await service.entry(row, keyOnly)).toBeNull();
    expect(await service.mayEnter(row, keyOnly)).toBe(false);
    expect(await service.isMember(row, keyOnly)).toBe(false);
    const wrongRoom = { isKeyHolder: true, accessToken: await grants.issue(other.id, 'addr:x') };
    expect(await service.entry(row, wrongRoom)).toBeNull();
    const granted = { isKeyHolder: true, accessToken: await grants.issue(room.id, 'addr:x') };
    expect(await service.entry(row, granted)).toBe('code');
    expect(await service.isMember(row, granted)).toBe(true);
  });

  it('lists a code-for-everyone room to key holders no more than to visitors', async () => {
    const { service } = setup();
    const keyed = await service.createRoom({
      name: 'keys welcome',
      isPrivate: true,
      securityLevel: 'restricted',
      passwordHash: code,
      selfDestructTimer: null,
    });
    const closed = await service.createRoom({
      name: 'code for everyone',
      isPrivate: true,
      securityLevel: 'restricted',
      passwordHash: code,
      selfDestructTimer: null,
      codeRequiredForKeyHolders: true,
    });
    const open = await service.createRoom({
      name: 'lobby',
      isPrivate: false,
      securityLevel: 'public',
      selfDestructTimer: null,
    });
    const ids = async (includeLocked: boolean) =>
      (await service.listRooms({ includeLocked })).map((room) => room.id);
    expect(await ids(true)).toEqual(expect.arrayContaining([keyed.id, open.id]));
    expect(await ids(true)).not.toContain(closed.id);
    expect(await ids(false)).toEqual([open.id]);
  });
});
