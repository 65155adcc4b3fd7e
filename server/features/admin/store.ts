/** Admin password hash (in settings) and admin console sessions. */
import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import { adminSessions, settings } from '../../db/schema.js';

const PASSWORD_KEY = 'admin_password_hash';

export interface AdminStore {
  getPasswordHash(): Promise<string | null>;
  setPasswordHash(hash: string): Promise<void>;
  /** Stores the hash only if none exists yet; true when this call stored it. */
  initPasswordHash(hash: string): Promise<boolean>;
  insertSession(row: { tokenHash: string; createdAt: Date; expiresAt: Date }): Promise<void>;
  findSession(tokenHash: string, now: Date): Promise<{ expiresAt: Date } | null>;
  deleteExpiredSessions(now: Date): Promise<void>;
}

export function createAdminStore(db: Db): AdminStore {
  return {
    getPasswordHash: async () => {
      const rows = await db.select().from(settings).where(eq(settings.key, PASSWORD_KEY)).limit(1);
      const value = rows[0]?.value;
      return typeof value === 'string' ? value : null;
    },
    setPasswordHash: async (hash) => {
      await db
        .insert(settings)
        .values({ key: PASSWORD_KEY, value: hash })
        .onConflictDoUpdate({ target: settings.key, set: { value: hash, updatedAt: new Date() } });
    },
    initPasswordHash: async (hash) => {
      const inserted = await db
        .insert(settings)
        .values({ key: PASSWORD_KEY, value: hash })
        .onConflictDoNothing()
        .returning({ key: settings.key });
      return inserted.length === 1;
    },
    insertSession: async (row) => {
      await db.insert(adminSessions).values(row);
    },
    findSession: async (tokenHash, now) =>
      (
        await db
          .select({ expiresAt: adminSessions.expiresAt })
          .from(adminSessions)
          .where(and(eq(adminSessions.tokenHash, tokenHash), gt(adminSessions.expiresAt, now)))
          .limit(1)
      )[0] ?? null,
    deleteExpiredSessions: async (now) => {
      await db.delete(adminSessions).where(lt(adminSessions.expiresAt, now));
    },
  };
}
