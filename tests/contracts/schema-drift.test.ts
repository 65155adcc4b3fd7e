/**
 * The SQL migrations are the database's source of truth and the Drizzle schema mirrors them:
 * every Drizzle column must exist in the migrated database with the same nullability.
 */
import { getTableConfig } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { schema } from '../../server/db/schema.js';
import { BACKENDS, freshDatabase } from '../support/database.js';

describe.each(BACKENDS)('migrations on %s', (backend) => {
  it('create every table and column of the Drizzle schema', async () => {
    const { database, cleanup } = await freshDatabase(backend);
    try {
      const columns = await database.query<{
        table_name: string;
        column_name: string;
        is_nullable: string;
      }>(
        `SELECT table_name, column_name, is_nullable FROM information_schema.columns
         WHERE table_schema = current_schema()`,
      );
      const actual = new Map(
        columns.map((c) => [`${c.table_name}.${c.column_name}`, c.is_nullable === 'YES']),
      );
      for (const table of Object.values(schema)) {
        const config = getTableConfig(table);
        for (const column of config.columns) {
          const key = `${config.name}.${column.name}`;
          expect(actual.has(key), key).toBe(true);
          expect(actual.get(key), `${key} nullability`).toBe(!column.notNull);
        }
      }
    } finally {
      await cleanup();
    }
  });

  it('keep no server-held DM thread key: dm_threads.server_key is gone (migration 0006)', async () => {
    const { database, cleanup } = await freshDatabase(backend);
    try {
      const columns = await database.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name = 'dm_threads'`,
      );
      const names = columns.map((c) => c.column_name);
      expect(names).not.toContain('server_key');
      expect(names).toEqual(
        expect.arrayContaining(['key_commitment', 'signature_ml_dsa', 'signature_ecdsa']),
      );
    } finally {
      await cleanup();
    }
  });

  it('apply each migration once, even when run again', async () => {
    const { database, cleanup } = await freshDatabase(backend);
    try {
      const { runMigrations } = await import('../../server/db/migrate.js');
      const again = await runMigrations({
        exec: async (sql) => {
          await database.query(sql);
        },
        query: (sql, params) => database.query(sql, params),
      });
      expect(again).toEqual([]);
    } finally {
      await cleanup();
    }
  });
});
