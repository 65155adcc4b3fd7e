/**
 * The earliest due times the housekeeping sweeps wake for (server/lib/due-sweep.ts), on both
 * databases: a room's destruction time and a direct message's or thread's expiry, as dates.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createAuthStore, registerPublicKey } from '../../server/features/auth/index.js';
import { createDmStore } from '../../server/features/dm/store.js';
import { createRoomStore } from '../../server/features/rooms/store.js';
import { createKeyFile } from '../../shared/crypto/key-file.js';
import { publicPart } from '../../shared/crypto/key-file-schema.js';
import { BACKENDS, freshDatabase } from '../support/database.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const T0 = new Date('2026-11-21T12:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

describe.each(BACKENDS)('due times on %s', (backend) => {
  async function open() {
    const { database, cleanup } = await freshDatabase(backend);
    cleanups.push(cleanup);
    return database;
  }

  it('gives the earliest room destruction time, never the default room, and the next after a sweep', async () => {
    const rooms = createRoomStore((await open()).db);
    expect(await rooms.earliestDue()).toBeNull();
    const room = (name: string, destructionAt: Date | null, isDefault = false) =>
      rooms.insert({
        id: randomUUID(),
        secureId: randomUUID().replaceAll('-', '').repeat(2),
        name,
        isPrivate: false,
        securityLevel: 'public',
        accessCodeHash: null,
        selfDestructTimer: destructionAt ? 5 : null,
        destructionAt,
        isDefault,
        createdAt: T0,
      });
    await room('default', at(1), true);
    await room('no timer', null);
    await room('later', at(30));
    await room('sooner', at(5));
    expect(await rooms.earliestDue()).toEqual(at(5));
    expect((await rooms.deleteDue(at(6))).map((row) => row.name)).toEqual(['sooner']);
    expect(await rooms.earliestDue()).toEqual(at(30));
  });

  it('gives the earliest expiry of any direct message or thread', async () => {
    const database = await open();
    const auth = createAuthStore(database.db);
    const keys = await Promise.all(
      ['ada', 'bob'].map(async (username) => {
        const key = await createKeyFile({ username, level: 'user', validityDays: 1 });
        await registerPublicKey(auth, publicPart(key));
        return key.keyId;
      }),
    );
    const dm = createDmStore(database.db);
    expect(await dm.earliestExpiry()).toBeNull();
    const threadId = randomUUID();
    await dm.insertThread({
      id: threadId,
      participant1: keys[0]!,
      participant2: keys[1]!,
      mode: 'e2e',
      wrappedKey1: 'd3JhcHBlZDE=',
      wrappedKey2: 'd3JhcHBlZDI=',
      keyCommitment: 'Y29tbWl0bWVudA==',
      signatureMlDsa: 'c2lnbmF0dXJl',
      signatureEcdsa: 'c2lnbmF0dXJl',
      createdAt: T0,
      lastMessageAt: null,
      expiresAt: at(60),
    });
    expect(await dm.earliestExpiry()).toEqual(at(60));
    await dm.insertMessage({
      id: randomUUID(),
      threadId,
      senderKeyId: keys[0]!,
      encrypted: 'Y2lwaGVy',
      iv: 'aXY=',
      counter: 1,
      signedAt: T0.toISOString(),
      signature: 'c2lnbmF0dXJl',
      sentAt: T0,
      expiresAt: at(2),
    });
    expect(await dm.earliestExpiry()).toEqual(at(2));
    await dm.deleteExpired(at(3));
    expect(await dm.earliestExpiry()).toEqual(at(60));
  });
});
