/**
 * Opens the database: PGlite (PostgreSQL in WebAssembly, a folder under DATA_DIR) by default, or a
 * PostgreSQL server when DATABASE_URL is set. Both get the same migrations and the same Drizzle
 * schema, so nothing above this file knows which one it talks to.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { TurnQueue } from '../lib/turns.js';
import { withLiftoffOnly } from './liftoff.js';
import { schema } from './schema.js';
import { runMigrations, type MigrationSession } from './migrate.js';

/** The Drizzle handle every store uses. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs raw SQL with parameters; for health checks and tests. */
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** Keeps PGlite in memory instead of DATA_DIR (tests). */
  inMemory?: boolean;
  /**
   * For an in-memory PGlite: a data directory to start from instead of running initdb, and the
   * WebAssembly module already compiled. The test suite starts hundreds of servers; from a migrated
   * snapshot each opens several times faster (tests/support/pglite-snapshot.ts).
   */
  pgliteStart?: PgliteStart;
}

/** What an in-memory PGlite may start from (see `DatabaseOptions.pgliteStart`). */
export type PgliteStart = Pick<PGliteOptions, 'loadDataDir' | 'pgliteWasmModule' | 'fsBundle'>;

/** Opens the configured database and brings its schema up to date. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database = options.databaseUrl
    ? openPostgres(options.databaseUrl)
    : await openPglite(
        options.inMemory ? null : path.join(options.dataDir, 'db'),
        options.inMemory ? options.pgliteStart : undefined,
      );
  try {
    await database.migrate();
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/**
 * PGlite's settings, sized for a small self-hosted machine: the database is a few tables of keys,
 * sessions and rooms, so PostgreSQL's defaults (128 MB of shared buffers inside the WebAssembly
 * heap) cost memory that buys nothing. Measured in docs/benchmarks.md ("Idle memory").
 */
export const PGLITE_OPTIONS = {
  // The smallest heap the WebAssembly module accepts; it grows on demand.
  initialMemory: 128 * 1024 * 1024,
  postgresqlconf: [
    'shared_buffers = 16MB',
    'wal_buffers = 1MB',
    'work_mem = 2MB',
    'maintenance_work_mem = 8MB',
    'temp_buffers = 2MB',
  ],
};

const PGLITE_INIT_SCRIPT = new URL('./pglite-init.mjs', import.meta.url);

/** Creates the database folder in a short-lived child process (see pglite-init.mjs). */
export async function initPgliteFolder(folder: string): Promise<void> {
  await promisify(execFile)(process.execPath, [
    PGLITE_INIT_SCRIPT.pathname,
    folder,
    JSON.stringify(PGLITE_OPTIONS),
  ]);
}

async function openPglite(folder: string | null, start?: PgliteStart) {
  if (folder) {
    await mkdir(folder, { recursive: true });
    if (!existsSync(path.join(folder, 'PG_VERSION'))) await initPgliteFolder(folder);
  }
  const client = await withLiftoffOnly(async () => {
    const opened = folder
      ? new PGlite(folder, PGLITE_OPTIONS)
      : new PGlite({ ...PGLITE_OPTIONS, ...start });
    await opened.waitReady;
    return opened;
  });
  takeTurnsWithSockets(client);
  const session: MigrationSession = {
    exec: async (sql) => {
      await client.exec(sql);
    },
    query: async <Row>(sql: string, params: unknown[] = []) =>
      (await client.query<Row>(sql, params)).rows,
  };
  return {
    db: drizzlePglite({ client, schema }) as Db,
    kind: 'pglite' as const,
    query: session.query,
    migrate: () => runMigrations(session),
    close: () => client.close(),
  };
}

/**
 * PGlite runs each statement synchronously on the main thread and hands its lock from one waiting
 * statement to the next in microtasks, so a queue of statements (a burst of logins, say) would
 * keep the event loop from reading sockets until the queue is empty. Routing `query`, `exec` and
 * `transaction` through a turn queue lets socket I/O in between: a chat frame waits for one
 * statement, never for the whole queue. Statements still run one at a time in arrival order, as
 * PGlite runs them anyway.
 */
function takeTurnsWithSockets(client: PGlite): void {
  const turns = new TurnQueue();
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = ((...args: Parameters<typeof query>) =>
    turns.run(() => query(...args))) as typeof client.query;
  client.exec = (...args) => turns.run(() => exec(...args));
  client.transaction = ((...args: Parameters<typeof transaction>) =>
    turns.run(() => transaction(...args))) as typeof client.transaction;
}

function openPostgres(url: string) {
  // While PostgreSQL is away a query fails fast instead of waiting for a connection that will not
  // come: the API answers 503 (lib/unavailable.ts). The pool drops broken clients and opens new
  // ones on demand, so it works again by itself once the server is back.
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 });
  // An idle client's network error must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return {
    db: drizzlePg({ client: pool, schema }) as Db,
    kind: 'postgres' as const,
    query: async <Row>(sql: string, params: unknown[] = []) =>
      (await pool.query(sql, params)).rows as Row[],
    migrate: async () => {
      // Several processes may start at once on an empty database: one connection holds an
      // advisory lock while it migrates, the others wait and then find nothing left to do.
      const client = await pool.connect();
      try {
        await runMigrations({
          exec: async (sql) => {
            await client.query(sql);
          },
          query: async <Row>(sql: string, params: unknown[] = []) =>
            (await client.query(sql, params)).rows as Row[],
        });
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
