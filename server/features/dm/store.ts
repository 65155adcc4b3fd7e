/** Direct-message persistence: threads and ciphertext messages (Drizzle). */
import { and, asc, eq, gt, lte, min, or } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import { dmMessages, dmThreads, keys } from '../../db/schema.js';

export type ThreadRow = typeof dmThreads.$inferSelect;
export type MessageRow = typeof dmMessages.$inferSelect;
export type KeyRow = typeof keys.$inferSelect;

export interface DmStore {
  findKey(keyId: string): Promise<KeyRow | null>;
  findThreadBetween(a: string, b: string): Promise<ThreadRow | null>;
  findThread(id: string): Promise<ThreadRow | null>;
  threadsOf(keyId: string): Promise<ThreadRow[]>;
  insertThread(row: ThreadRow): Promise<void>;
  touchThread(id: string, lastMessageAt: Date, expiresAt: Date): Promise<void>;
  deleteThread(id: string): Promise<ThreadRow | null>;
  insertMessage(row: MessageRow): Promise<void>;
  messagesOf(threadId: string, now: Date): Promise<MessageRow[]>;
  /** Deletes expired messages and threads; returns the deleted threads. */
  deleteExpired(now: Date): Promise<ThreadRow[]>;
  /** The earliest expiry of any message or thread (null: none stored). */
  earliestExpiry(): Promise<Date | null>;
}

export function createDmStore(db: Db): DmStore {
  return {
    findKey: async (keyId) =>
      (await db.select().from(keys).where(eq(keys.keyId, keyId)).limit(1))[0] ?? null,
    findThreadBetween: async (a, b) =>
      (
        await db
          .select()
          .from(dmThreads)
          .where(
            or(
              and(eq(dmThreads.participant1, a), eq(dmThreads.participant2, b)),
              and(eq(dmThreads.participant1, b), eq(dmThreads.participant2, a)),
            ),
          )
          .limit(1)
      )[0] ?? null,
    findThread: async (id) =>
      (await db.select().from(dmThreads).where(eq(dmThreads.id, id)).limit(1))[0] ?? null,
    threadsOf: (keyId) =>
      db
        .select()
        .from(dmThreads)
        .where(or(eq(dmThreads.participant1, keyId), eq(dmThreads.participant2, keyId)))
        .orderBy(asc(dmThreads.createdAt)),
    insertThread: async (row) => {
      await db.insert(dmThreads).values(row);
    },
    touchThread: async (id, lastMessageAt, expiresAt) => {
      await db.update(dmThreads).set({ lastMessageAt, expiresAt }).where(eq(dmThreads.id, id));
    },
    deleteThread: async (id) =>
      (await db.delete(dmThreads).where(eq(dmThreads.id, id)).returning())[0] ?? null,
    insertMessage: async (row) => {
      await db.insert(dmMessages).values(row);
    },
    messagesOf: (threadId, now) =>
      db
        .select()
        .from(dmMessages)
        .where(and(eq(dmMessages.threadId, threadId), gt(dmMessages.expiresAt, now)))
        .orderBy(asc(dmMessages.sentAt)),
    deleteExpired: async (now) => {
      await db.delete(dmMessages).where(lte(dmMessages.expiresAt, now));
      return db.delete(dmThreads).where(lte(dmThreads.expiresAt, now)).returning();
    },
    earliestExpiry: async () => {
      // Both: a thread outlives its messages, but an older message can expire before its thread.
      const [messages] = await db.select({ at: min(dmMessages.expiresAt) }).from(dmMessages);
      const [threads] = await db.select({ at: min(dmThreads.expiresAt) }).from(dmThreads);
      const a = messages?.at ?? null;
      const b = threads?.at ?? null;
      return a && b ? (a < b ? a : b) : (a ?? b);
    },
  };
}
