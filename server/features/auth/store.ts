/** Persistence of keys, login challenges and sessions (Drizzle over PGlite or PostgreSQL). */
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import { keys, sessions } from '../../db/schema.js';

export type KeyRow = typeof keys.$inferSelect;
export type NewKeyRow = typeof keys.$inferInsert;

export interface SessionWithKey {
  tokenHash: string;
  expiresAt: Date;
  key: KeyRow;
}

export interface AuthStore {
  insertKey(row: NewKeyRow): Promise<boolean>;
  findKey(keyId: string): Promise<KeyRow | null>;
  listKeys(): Promise<KeyRow[]>;
  /** Marks a key revoked and deletes its sessions; returns how many sessions ended, or null if unknown. */
  revokeKey(keyId: string, at: Date): Promise<number | null>;
  insertSession(row: {
    tokenHash: string;
    keyId: string;
    createdAt: Date;
    expiresAt: Date;
  }): Promise<void>;
  findSession(tokenHash: string, now: Date): Promise<SessionWithKey | null>;
  deleteSession(tokenHash: string): Promise<void>;
  deleteExpired(now: Date): Promise<void>;
}

type NewSessionRow = typeof sessions.$inferInsert;

/** What the session writer needs of the database's own client (PGlite, or node-postgres's pool). */
export interface SqlClient {
  query(text: string, params: unknown[]): Promise<unknown>;
}

/**
 * The client under `db`, for the one statement written without Drizzle's query builder (below), or
 * null (a Drizzle handle without one: the writer then goes through Drizzle).
 */
export function sqlClientOf(db: Db): SqlClient | null {
  const client: unknown = Reflect.get(db, '$client');
  if (typeof client !== 'object' || client === null) return null;
  const query: unknown = Reflect.get(client, 'query');
  return typeof query === 'function' ? (client as SqlClient) : null;
}

/**
 * One statement for any number of sessions: four arrays unnested, so the text never changes. On
 * the embedded database a session row costs 80–150 µs of the event loop whatever the statement,
 * and Drizzle's insert builder and result mapping added 40–70% on top (issue 22, "The burst: what
 * stalls chat" in docs/benchmarks.md).
 */
const INSERT_SESSIONS_SQL =
  'INSERT INTO sessions (token_hash, key_id, created_at, expires_at) ' +
  'SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::timestamptz[])';

function insertSessionRows(
  db: Db,
  client: SqlClient | null,
  rows: readonly NewSessionRow[],
): Promise<unknown> {
  if (!client) return db.insert(sessions).values([...rows]);
  return client.query(INSERT_SESSIONS_SQL, [
    rows.map((row) => row.tokenHash),
    rows.map((row) => row.keyId),
    rows.map((row) => row.createdAt.toISOString()),
    rows.map((row) => row.expiresAt.toISOString()),
  ]);
}

/**
 * Session inserts that arrive together are written together: while one batch is being written,
 * new sessions queue and go in the next multi-row INSERT. A burst of 500 logins then costs the
 * database a few dozen statements instead of 500 (the embedded database runs each statement on
 * the event loop). Each caller still learns whether its own row was written.
 */
/**
 * Rows per statement. The embedded database runs a statement in one piece on the event loop, at
 * 80–150 µs a row: 16 rows hold chat back for 2–2.5 ms at most on a busy machine, and the
 * statements of a burst take turns with socket I/O (server/db/connect.ts).
 */
export const SESSION_BATCH_ROWS = 16;
/**
 * How long the first session of a batch waits for others, unless SESSION_BATCH_ROWS arrive first
 * (then the batch is written at once). Logins finish one by one as the verify worker answers, and
 * on the embedded database a statement costs about 0.6 ms of event loop before its rows and
 * 0.15 ms per row (issue 36; docs/benchmarks.md "Key logins"): with a 5 ms wait a statement held
 * about three rows at a few hundred logins a second, and the statement was a quarter of a login's
 * main-thread CPU. Twenty milliseconds on a login is not felt (signing alone takes longer in the
 * browser); at a few hundred logins a second a statement then carries most of a full batch.
 */
export const SESSION_BATCH_WAIT_MS = 20;

function sessionWriter(db: Db): (row: NewSessionRow) => Promise<void> {
  const client = sqlClientOf(db);
  const pending: { row: NewSessionRow; done: (error?: unknown) => void }[] = [];
  let writing = false;
  /** The wait of the next batch, while one runs. */
  let waiting: { timer: ReturnType<typeof setTimeout>; resolve: () => void } | null = null;
  /** Waits SESSION_BATCH_WAIT_MS, or less when a full batch arrives meanwhile (`fullBatch`). */
  const batchWait = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        waiting = null;
        resolve();
      }, SESSION_BATCH_WAIT_MS);
      waiting = { timer, resolve };
    });
  const fullBatch = () => {
    if (!waiting) return;
    clearTimeout(waiting.timer);
    const { resolve } = waiting;
    waiting = null;
    resolve();
  };
  const flush = async () => {
    writing = true;
    while (pending.length > 0) {
      // Rows that arrive while a batch waits or is written go in the next one, after the same wait.
      if (pending.length < SESSION_BATCH_ROWS) await batchWait();
      const batch = pending.splice(0, SESSION_BATCH_ROWS);
      try {
        await insertSessionRows(
          db,
          client,
          batch.map((entry) => entry.row),
        );
        for (const entry of batch) entry.done();
      } catch (error) {
        if (batch.length === 1) {
          batch[0]!.done(error);
          continue;
        }
        // One bad row must not fail the others: write them one by one.
        for (const entry of batch) {
          await insertSessionRows(db, client, [entry.row]).then(
            () => entry.done(),
            (rowError: unknown) => entry.done(rowError),
          );
        }
      }
    }
    writing = false;
  };
  return (row) =>
    new Promise<void>((resolve, reject) => {
      pending.push({ row, done: (error) => (error === undefined ? resolve() : reject(error)) });
      if (pending.length >= SESSION_BATCH_ROWS) fullBatch();
      if (!writing) void flush();
    });
}

export function createAuthStore(db: Db): AuthStore {
  const insertSession = sessionWriter(db);
  return {
    insertKey: async (row) => {
      const inserted = await db
        .insert(keys)
        .values(row)
        .onConflictDoNothing()
        .returning({ keyId: keys.keyId });
      return inserted.length === 1;
    },
    findKey: async (keyId) =>
      (await db.select().from(keys).where(eq(keys.keyId, keyId)).limit(1))[0] ?? null,
    listKeys: () => db.select().from(keys).orderBy(keys.createdAt),
    revokeKey: async (keyId, at) =>
      db.transaction(async (tx) => {
        const updated = await tx
          .update(keys)
          .set({ revokedAt: at })
          .where(and(eq(keys.keyId, keyId), isNull(keys.revokedAt)))
          .returning({ keyId: keys.keyId });
        if (updated.length === 0) {
          const exists = await tx
            .select({ keyId: keys.keyId })
            .from(keys)
            .where(eq(keys.keyId, keyId));
          if (exists.length === 0) return null;
        }
        const ended = await tx
          .delete(sessions)
          .where(eq(sessions.keyId, keyId))
          .returning({ hash: sessions.tokenHash });
        return ended.length;
      }),
    insertSession,
    findSession: async (tokenHash, now) => {
      const rows = await db
        .select({ tokenHash: sessions.tokenHash, expiresAt: sessions.expiresAt, key: keys })
        .from(sessions)
        .innerJoin(keys, eq(keys.keyId, sessions.keyId))
        .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now)))
        .limit(1);
      return rows[0] ?? null;
    },
    deleteSession: async (tokenHash) => {
      await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    },
    deleteExpired: async (now) => {
      await db.delete(sessions).where(lt(sessions.expiresAt, now));
    },
  };
}

/** Key rows one process keeps (about 2.5 KB each, the two public keys). */
export const KEY_ROW_CACHE_SIZE = 1024;

/**
 * `store` with the key rows it finds kept in memory, for a process that is the only server on its
 * database (no Redis): a login looks its key up twice (challenge, verify), and each lookup was a
 * statement on the embedded database. Only keys found are kept (a key registered meanwhile by
 * `npm run keygen` is found on its first use), every key write of this process goes through
 * `insertKey` and `revokeKey`, which drop the key's row before and after writing, and expiry is read
 * from the row at each use. With several processes a revocation on one must be seen at once by
 * all, so they do not keep rows (server/compose.ts).
 */
export function cachingKeyRows(store: AuthStore, maxKeys = KEY_ROW_CACHE_SIZE): AuthStore {
  const rows = new Map<string, KeyRow>();
  /** Bumped by every write, so that a lookup that raced a write does not keep what it read. */
  let writes = 0;
  const forget = (keyId: string) => {
    writes += 1;
    rows.delete(keyId);
  };
  return {
    ...store,
    insertKey: async (row) => {
      forget(row.keyId);
      try {
        return await store.insertKey(row);
      } finally {
        forget(row.keyId);
      }
    },
    revokeKey: async (keyId, at) => {
      forget(keyId);
      try {
        return await store.revokeKey(keyId, at);
      } finally {
        forget(keyId);
      }
    },
    findKey: async (keyId) => {
      const kept = rows.get(keyId);
      if (kept) return kept;
      const writesBefore = writes;
      const row = await store.findKey(keyId);
      if (row && writes === writesBefore) {
        if (rows.size >= maxKeys) rows.delete(rows.keys().next().value as string);
        rows.set(keyId, row);
      }
      return row;
    },
  };
}
