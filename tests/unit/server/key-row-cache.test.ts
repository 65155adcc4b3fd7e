/**
 * The key rows a single process keeps (cachingKeyRows): found keys are kept, a revocation is seen
 * by the very next lookup, a lookup that raced a write keeps nothing, unknown keys are asked again.
 */
import { describe, expect, it } from 'vitest';
import {
  cachingKeyRows,
  type AuthStore,
  type KeyRow,
} from '../../../server/features/auth/store.js';

function keyRow(keyId: string): KeyRow {
  return {
    keyId,
    userId: `user-${keyId}`,
    username: `Agent-${keyId}`,
    dilithiumPublicKey: new Uint8Array(4),
    ecdsaPublicKey: new Uint8Array(4),
    fingerprint: `fp-${keyId}`,
    permissionLevel: 'user',
    capabilities: [],
    rooms: [],
    issuedAt: new Date(0),
    expiresAt: null,
    selfSignature: new Uint8Array(4),
    hardwareFingerprint: 'hw',
    createdAt: new Date(0),
    revokedAt: null,
    kemPublicKey: null,
    x25519PublicKey: null,
    encryptionKeySignature: null,
  };
}

/** A store over a map, counting lookups; `hold` makes the next lookup wait until released. */
function mapStore(...ids: string[]) {
  const table = new Map(ids.map((id) => [id, keyRow(id)]));
  const state = { lookups: 0, hold: null as null | Promise<void> };
  const store: AuthStore = {
    insertKey: async (row) => {
      if (table.has(row.keyId)) return false;
      table.set(row.keyId, { ...keyRow(row.keyId), ...row } as KeyRow);
      return true;
    },
    findKey: async (keyId) => {
      state.lookups += 1;
      const row = table.get(keyId) ?? null;
      if (state.hold) await state.hold;
      return row && { ...row };
    },
    listKeys: async () => [...table.values()],
    revokeKey: async (keyId, at) => {
      const row = table.get(keyId);
      if (!row) return null;
      table.set(keyId, { ...row, revokedAt: at });
      return 0;
    },
    insertSession: async () => undefined,
    findSession: async () => null,
    deleteSession: async () => undefined,
    deleteExpired: async () => undefined,
  };
  return { store, state };
}

describe('cachingKeyRows', () => {
  it('asks the database once per key, and again after a revocation', async () => {
    const { store, state } = mapStore('a');
    const cached = cachingKeyRows(store);
    expect((await cached.findKey('a'))?.revokedAt).toBeNull();
    await cached.findKey('a');
    expect(state.lookups).toBe(1);

    await cached.revokeKey('a', new Date(1000));
    expect((await cached.findKey('a'))?.revokedAt).toEqual(new Date(1000));
    expect(state.lookups).toBe(2);
  });

  it('keeps nothing from a lookup that a revocation overtook', async () => {
    const { store, state } = mapStore('a');
    const cached = cachingKeyRows(store);
    let release: () => void = () => undefined;
    state.hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const stale = cached.findKey('a'); // reads the row before the revocation, answers after it
    await cached.revokeKey('a', new Date(1000));
    release();
    expect((await stale)?.revokedAt).toBeNull();
    state.hold = null;
    expect((await cached.findKey('a'))?.revokedAt).toEqual(new Date(1000));
  });

  it('asks again for a key it did not find, so a key registered meanwhile is found', async () => {
    const { store, state } = mapStore();
    const cached = cachingKeyRows(store);
    expect(await cached.findKey('b')).toBeNull();
    await store.insertKey(keyRow('b')); // another process's write (npm run keygen)
    expect((await cached.findKey('b'))?.keyId).toBe('b');
    expect(state.lookups).toBe(2);
  });

  it('keeps at most the given number of keys, dropping the oldest', async () => {
    const { store, state } = mapStore('a', 'b', 'c');
    const cached = cachingKeyRows(store, 2);
    await cached.findKey('a');
    await cached.findKey('b');
    await cached.findKey('c');
    expect(state.lookups).toBe(3);
    await cached.findKey('c');
    await cached.findKey('b');
    expect(state.lookups).toBe(3);
    await cached.findKey('a');
    expect(state.lookups).toBe(4);
  });
});
