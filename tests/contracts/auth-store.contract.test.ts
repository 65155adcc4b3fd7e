/**
 * The key and session store on both databases. Sessions that arrive together are written in one
 * statement (a burst of logins must not queue hundreds of statements on the embedded database),
 * yet each caller learns about its own row only.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAuthStore, registerPublicKey } from '../../server/features/auth/index.js';
import { SESSION_BATCH_ROWS, sqlClientOf } from '../../server/features/auth/store.js';
import { createKeyFile } from '../../shared/crypto/key-file.js';
import { publicPart } from '../../shared/crypto/key-file-schema.js';
import { BACKENDS, freshDatabase } from '../support/database.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe.each(BACKENDS)('auth store on %s', (backend) => {
  async function storeWithKey() {
    const { database, cleanup } = await freshDatabase(backend);
    cleanups.push(cleanup);
    const store = createAuthStore(database.db);
    const key = await createKeyFile({ username: 'batch', level: 'user', validityDays: 1 });
    await registerPublicKey(store, publicPart(key));
    return { database, store, keyId: key.keyId };
  }

  it('writes 200 sessions that arrive at once, in batches of at most 16 rows', async () => {
    const { database, store, keyId } = await storeWithKey();
    const client = sqlClientOf(database.db);
    expect(client).not.toBeNull();
    const inserts = vi.spyOn(client!, 'query');
    const now = new Date();
    const hashes = Array.from({ length: 200 }, (_, i) => i.toString(16).padStart(64, '0'));
    await Promise.all(
      hashes.map((tokenHash) =>
        store.insertSession({
          tokenHash,
          keyId,
          createdAt: now,
          expiresAt: new Date(now.getTime() + 60_000),
        }),
      ),
    );
    expect(SESSION_BATCH_ROWS).toBe(16);
    expect(inserts.mock.calls.length).toBeGreaterThanOrEqual(Math.ceil(200 / 16));
    expect(inserts.mock.calls.length).toBeLessThanOrEqual(1 + Math.ceil(199 / 16));
    const [counted] = await database.query<{ count: string }>(
      'SELECT count(*)::text AS count FROM sessions',
    );
    expect(Number(counted?.count)).toBe(200);
    for (const tokenHash of [hashes[0]!, hashes[199]!]) {
      expect((await store.findSession(tokenHash, now))?.key.keyId).toBe(keyId);
    }
  });

  it('writes a full batch at once, without waiting for more rows', async () => {
    const { database, store, keyId } = await storeWithKey();
    const inserts = vi.spyOn(sqlClientOf(database.db)!, 'query');
    const now = new Date();
    const written = Array.from({ length: SESSION_BATCH_ROWS }, (_, i) =>
      store.insertSession({
        tokenHash: (1000 + i).toString(16).padStart(64, '0'),
        keyId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + 60_000),
      }),
    );
    // A few microtasks, no timer: the batch wait (SESSION_BATCH_WAIT_MS) has not run out.
    for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
    expect(inserts).toHaveBeenCalledTimes(1);
    await Promise.all(written);
    expect(inserts).toHaveBeenCalledTimes(1);
  });

  it('keeps the times of a session to the millisecond, and its key', async () => {
    const { store, keyId } = await storeWithKey();
    const createdAt = new Date('2026-11-25T10:20:30.456Z');
    const expiresAt = new Date('2026-11-26T10:20:30.789Z');
    const tokenHash = 'd'.repeat(64);
    await store.insertSession({ tokenHash, keyId, createdAt, expiresAt });
    const found = await store.findSession(tokenHash, createdAt);
    expect(found?.key.keyId).toBe(keyId);
    expect(found?.expiresAt.getTime()).toBe(expiresAt.getTime());
    expect(await store.findSession(tokenHash, expiresAt)).toBeNull();
  });

  it('fails only the bad row of a batch', async () => {
    const { database, store, keyId } = await storeWithKey();
    const now = new Date();
    const row = (tokenHash: string) => ({
      tokenHash,
      keyId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + 60_000),
    });
    const results = await Promise.allSettled([
      store.insertSession(row('a'.repeat(64))),
      store.insertSession(row('b'.repeat(64))),
      store.insertSession(row('not a sha-256')),
      store.insertSession(row('c'.repeat(64))),
    ]);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    const [counted] = await database.query<{ count: string }>(
      'SELECT count(*)::text AS count FROM sessions',
    );
    expect(Number(counted?.count)).toBe(3);
  });
});
