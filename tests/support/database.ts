/**
 * Test databases: an in-memory PGlite, or a throwaway PostgreSQL database created on the server at
 * TEST_DATABASE_URL / DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test, or the
 * instance the global setup started) and dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../server/db/connect.js';
import { pgliteSnapshot } from './pglite-snapshot.js';
import { HAS_POSTGRES, POSTGRES_URL } from './services.js';

export type Backend = 'pglite' | 'postgres';

/** TEST_DATABASE_URL, DATABASE_URL, or the local default (tests/support/services.ts). */
export const POSTGRES_ADMIN_URL = POSTGRES_URL;

export interface TestDatabase {
  database: Database;
  /** The URL of the throwaway database (postgres backend only). */
  url: string | null;
  cleanup(): Promise<void>;
}

/** Creates an empty PostgreSQL database and returns its URL and a function that drops it. */
export async function createThrowawayPostgres(): Promise<{
  url: string;
  drop: () => Promise<void>;
}> {
  const name = `sc_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** A migrated, empty database of the given backend. */
export async function freshDatabase(backend: Backend): Promise<TestDatabase> {
  if (backend === 'pglite') {
    const database = await openDatabase({
      databaseUrl: null,
      dataDir: '',
      inMemory: true,
      pgliteStart: await pgliteSnapshot(),
    });
    return { database, url: null, cleanup: () => database.close() };
  }
  const { url, drop } = await createThrowawayPostgres();
  const database = await openDatabase({ databaseUrl: url, dataDir: '' });
  return {
    database,
    url,
    cleanup: async () => {
      await database.close();
      await drop();
    },
  };
}

/**
 * Both backends, for suites that run against each; PGlite alone when PostgreSQL is missing and
 * could not be started (the global setup printed which suites lost their PostgreSQL half).
 */
export const BACKENDS: Backend[] = HAS_POSTGRES ? ['pglite', 'postgres'] : ['pglite'];
