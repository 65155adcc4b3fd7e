/**
 * Applies migrations/*.sql in name order, each once, inside a transaction, under a PostgreSQL
 * advisory lock so that concurrent starts run them exactly once.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One connection's worth of SQL: plain statements and parameterised queries. */
export interface MigrationSession {
  exec(sql: string): Promise<void>;
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
}

/** Arbitrary constant naming this product's migration lock. */
const MIGRATION_LOCK_KEY = 0x5ec0c4a7;

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** The migration files, in the order they apply. */
export async function listMigrations(): Promise<{ name: string; sql: string }[]> {
  const names = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort();
  return Promise.all(
    names.map(async (name) => ({
      name,
      sql: await readFile(path.join(MIGRATIONS_DIR, name), 'utf8'),
    })),
  );
}

/** Brings the schema up to date; returns the names applied by this call. */
export async function runMigrations(session: MigrationSession): Promise<string[]> {
  const migrations = await listMigrations();
  const applied: string[] = [];
  await session.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  try {
    await session.exec(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         name text PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const done = new Set(
      (await session.query<{ name: string }>('SELECT name FROM schema_migrations')).map(
        (row) => row.name,
      ),
    );
    for (const migration of migrations) {
      if (done.has(migration.name)) continue;
      await session.exec('BEGIN');
      try {
        await session.exec(migration.sql);
        await session.query('INSERT INTO schema_migrations (name) VALUES ($1)', [migration.name]);
        await session.exec('COMMIT');
      } catch (error) {
        await session.exec('ROLLBACK');
        throw new Error(`Migration ${migration.name} failed`, { cause: error });
      }
      applied.push(migration.name);
    }
  } finally {
    await session.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
  }
  return applied;
}
