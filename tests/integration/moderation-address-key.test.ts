/** The key that address tags are made with: one per database, read once per process. */
import { afterEach, describe, expect, it } from 'vitest';
import { createModerationStore } from '../../server/features/moderation/store.js';
import { freshDatabase, type TestDatabase } from '../support/database.js';

const databases: TestDatabase[] = [];
afterEach(async () => {
  for (const database of databases.splice(0)) await database.cleanup();
});

describe('moderation address key', () => {
  it('gives every caller the same key, those asking while it is first read included', async () => {
    const database = await freshDatabase('pglite');
    databases.push(database);
    const store = createModerationStore(database.database.db);
    const keys = await Promise.all(Array.from({ length: 20 }, () => store.addressKey()));
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toHaveLength(32);
    expect(await store.addressKey()).toBe(keys[0]);
    // Another process on the same database (a second store) hashes alike.
    const other = createModerationStore(database.database.db);
    expect((await other.addressKey()).equals(keys[0]!)).toBe(true);
  });
});
