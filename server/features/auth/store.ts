/** Persistence of keys, login challenges and sessions (Drizzle over PGlite or PostgreSQL). */
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import { authChallenges, keys, sessions } from '../../db/schema.js';

export type KeyRow = typeof keys.$inferSelect;
export type NewKeyRow = typeof keys.$inferInsert;
export type ChallengeRow = typeof authChallenges.$inferSelect;

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
  insertChallenge(row: ChallengeRow): Promise<void>;
  /** Deletes and returns the challenge: single use even when two verifications race. */
  takeChallenge(challenge: string, keyId: string): Promise<ChallengeRow | null>;
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

export function createAuthStore(db: Db): AuthStore {
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
        await tx.delete(authChallenges).where(eq(authChallenges.keyId, keyId));
        return ended.length;
      }),
    insertChallenge: async (row) => {
      await db.insert(authChallenges).values(row);
    },
    takeChallenge: async (challenge, keyId) =>
      (
        await db
          .delete(authChallenges)
          .where(and(eq(authChallenges.challenge, challenge), eq(authChallenges.keyId, keyId)))
          .returning()
      )[0] ?? null,
    insertSession: async (row) => {
      await db.insert(sessions).values(row);
    },
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
      await db.delete(authChallenges).where(lt(authChallenges.expiresAt, now));
    },
  };
}
