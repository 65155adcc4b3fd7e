/**
 * Moderation persistence (Drizzle over PGlite or PostgreSQL): moderators, sanctions (kick
 * cool-downs, mutes, bans) and the per-room moderation log. Durable, so every process sees the
 * same roles and bans; nothing here holds room content.
 */
import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import { keys, roomModerationLog, roomRoles, roomSanctions, settings } from '../../db/schema.js';

export type SanctionRow = typeof roomSanctions.$inferSelect;
export type SanctionKind = SanctionRow['kind'];
export type ModerationLogRow = typeof roomModerationLog.$inferSelect;

export interface ModeratorRow {
  keyId: string;
  username: string;
  appointedBy: string;
  createdAt: Date;
}

export interface ModerationStore {
  /** The secret that keys the hash of anonymous visitors' addresses, made on first use. */
  addressKey(): Promise<Buffer>;
  isModerator(roomId: string, keyId: string): Promise<boolean>;
  appoint(row: { roomId: string; keyId: string; appointedBy: string; at: Date }): Promise<boolean>;
  dismiss(roomId: string, keyId: string): Promise<boolean>;
  moderators(roomId: string): Promise<ModeratorRow[]>;
  /** Sanctions of `subjects` in the room still in force at `now`. */
  activeSanctions(roomId: string, subjects: string[], now: Date): Promise<SanctionRow[]>;
  /** Every sanction of every room still in force at `now` (the in-memory copy starts so). */
  allSanctions(now: Date): Promise<SanctionRow[]>;
  addSanction(row: SanctionRow): Promise<void>;
  /** Deletes the subject's sanctions of `kind` in the room; returns the deleted rows. */
  removeSanctions(roomId: string, subject: string, kind: SanctionKind): Promise<SanctionRow[]>;
  removeSanctionById(roomId: string, id: string, kind: SanctionKind): Promise<SanctionRow | null>;
  bans(roomId: string, now: Date): Promise<SanctionRow[]>;
  log(entry: Omit<ModerationLogRow, 'id'>): Promise<void>;
  logEntries(roomId: string, since: Date, limit: number): Promise<ModerationLogRow[]>;
  /** Deletes sanctions that have ended and log lines older than `logBefore`. */
  sweep(now: Date, logBefore: Date): Promise<{ sanctions: number; logEntries: number }>;
}

const ADDRESS_KEY_SETTING = 'moderation_address_key';

export function createModerationStore(db: Db): ModerationStore {
  // One read for every caller, those arriving while it runs included (a burst of joins at start
  // used to read it once each); a failed read is not kept.
  let addressKey: Promise<Buffer> | null = null;
  const readAddressKey = async () => {
    // Every process must hash addresses alike: the first one to start stores the key.
    await db
      .insert(settings)
      .values({ key: ADDRESS_KEY_SETTING, value: randomBytes(32).toString('hex') })
      .onConflictDoNothing();
    const [row] = await db
      .select()
      .from(settings)
      .where(eq(settings.key, ADDRESS_KEY_SETTING))
      .limit(1);
    if (typeof row?.value !== 'string') throw new Error('Moderation address key missing');
    return Buffer.from(row.value, 'hex');
  };
  return {
    addressKey: () => {
      if (!addressKey) {
        const reading = readAddressKey();
        reading.catch(() => {
          if (addressKey === reading) addressKey = null;
        });
        addressKey = reading;
      }
      return addressKey;
    },
    isModerator: async (roomId, keyId) =>
      (
        await db
          .select({ keyId: roomRoles.keyId })
          .from(roomRoles)
          .where(and(eq(roomRoles.roomId, roomId), eq(roomRoles.keyId, keyId)))
          .limit(1)
      ).length === 1,
    appoint: async ({ roomId, keyId, appointedBy, at }) =>
      (
        await db
          .insert(roomRoles)
          .values({ roomId, keyId, role: 'moderator', appointedBy, createdAt: at })
          .onConflictDoNothing()
          .returning({ keyId: roomRoles.keyId })
      ).length === 1,
    dismiss: async (roomId, keyId) =>
      (
        await db
          .delete(roomRoles)
          .where(and(eq(roomRoles.roomId, roomId), eq(roomRoles.keyId, keyId)))
          .returning({ keyId: roomRoles.keyId })
      ).length === 1,
    moderators: async (roomId) =>
      db
        .select({
          keyId: roomRoles.keyId,
          username: keys.username,
          appointedBy: roomRoles.appointedBy,
          createdAt: roomRoles.createdAt,
        })
        .from(roomRoles)
        .innerJoin(keys, eq(keys.keyId, roomRoles.keyId))
        .where(eq(roomRoles.roomId, roomId))
        .orderBy(roomRoles.createdAt),
    activeSanctions: async (roomId, subjects, now) =>
      subjects.length === 0
        ? []
        : db
            .select()
            .from(roomSanctions)
            .where(
              and(
                eq(roomSanctions.roomId, roomId),
                inArray(roomSanctions.subject, subjects),
                or(isNull(roomSanctions.until), gt(roomSanctions.until, now)),
              ),
            ),
    allSanctions: async (now) =>
      db
        .select()
        .from(roomSanctions)
        .where(or(isNull(roomSanctions.until), gt(roomSanctions.until, now))),
    addSanction: async (row) => {
      await db.insert(roomSanctions).values(row);
    },
    removeSanctions: (roomId, subject, kind) =>
      db
        .delete(roomSanctions)
        .where(
          and(
            eq(roomSanctions.roomId, roomId),
            eq(roomSanctions.subject, subject),
            eq(roomSanctions.kind, kind),
          ),
        )
        .returning(),
    removeSanctionById: async (roomId, id, kind) =>
      (
        await db
          .delete(roomSanctions)
          .where(
            and(
              eq(roomSanctions.id, id),
              eq(roomSanctions.roomId, roomId),
              eq(roomSanctions.kind, kind),
            ),
          )
          .returning()
      )[0] ?? null,
    bans: (roomId, now) =>
      db
        .select()
        .from(roomSanctions)
        .where(
          and(
            eq(roomSanctions.roomId, roomId),
            eq(roomSanctions.kind, 'ban'),
            or(isNull(roomSanctions.until), gt(roomSanctions.until, now)),
          ),
        )
        .orderBy(desc(roomSanctions.createdAt)),
    log: async (entry) => {
      await db.insert(roomModerationLog).values(entry);
    },
    logEntries: (roomId, since, limit) =>
      db
        .select()
        .from(roomModerationLog)
        .where(and(eq(roomModerationLog.roomId, roomId), gt(roomModerationLog.at, since)))
        .orderBy(desc(roomModerationLog.at), desc(roomModerationLog.id))
        .limit(limit),
    sweep: async (now, logBefore) => {
      const sanctions = await db
        .delete(roomSanctions)
        .where(lt(roomSanctions.until, now))
        .returning({ id: roomSanctions.id });
      const entries = await db
        .delete(roomModerationLog)
        .where(lt(roomModerationLog.at, logBefore))
        .returning({ id: roomModerationLog.id });
      return { sanctions: sanctions.length, logEntries: entries.length };
    },
  };
}
