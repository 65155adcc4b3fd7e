/** Room persistence behind a small interface: Drizzle over PGlite or PostgreSQL. */
import { and, eq, isNotNull, lte, min } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import { rooms } from '../../db/schema.js';

export type RoomRow = typeof rooms.$inferSelect;
export type NewRoomRow = typeof rooms.$inferInsert;

export interface RoomStore {
  findDefault(): Promise<RoomRow | null>;
  /** Inserts the default room unless one exists; returns the default room either way. */
  ensureDefault(candidate: NewRoomRow): Promise<RoomRow>;
  findById(id: string): Promise<RoomRow | null>;
  findBySecureId(secureId: string): Promise<RoomRow | null>;
  list(): Promise<RoomRow[]>;
  insert(row: NewRoomRow): Promise<RoomRow>;
  setTimer(
    id: string,
    selfDestructTimer: number | null,
    destructionAt: Date | null,
  ): Promise<RoomRow | null>;
  setLocked(id: string, locked: boolean): Promise<RoomRow | null>;
  /** Deletes the rooms due for destruction and returns them; each row is returned to one caller only. */
  deleteDue(now: Date): Promise<RoomRow[]>;
  /** The earliest destruction time still set (null: no room has a timer). */
  earliestDue(): Promise<Date | null>;
}

export function createRoomStore(db: Db): RoomStore {
  const first = (rows: RoomRow[]) => rows[0] ?? null;
  const store: RoomStore = {
    findDefault: async () =>
      first(await db.select().from(rooms).where(eq(rooms.isDefault, true)).limit(1)),
    ensureDefault: async (candidate) => {
      // The partial unique index makes this safe when several processes start at once.
      await db
        .insert(rooms)
        .values({ ...candidate, isDefault: true })
        .onConflictDoNothing();
      const room = await store.findDefault();
      if (!room) throw new Error('Default room missing after insert');
      return room;
    },
    findById: async (id) => first(await db.select().from(rooms).where(eq(rooms.id, id)).limit(1)),
    findBySecureId: async (secureId) =>
      first(await db.select().from(rooms).where(eq(rooms.secureId, secureId)).limit(1)),
    list: () => db.select().from(rooms).orderBy(rooms.createdAt, rooms.name),
    insert: async (row) => {
      const [inserted] = await db.insert(rooms).values(row).returning();
      if (!inserted) throw new Error('Room insert returned nothing');
      return inserted;
    },
    setTimer: async (id, selfDestructTimer, destructionAt) =>
      first(
        await db
          .update(rooms)
          .set({ selfDestructTimer, destructionAt })
          .where(eq(rooms.id, id))
          .returning(),
      ),
    setLocked: async (id, locked) =>
      first(await db.update(rooms).set({ isLocked: locked }).where(eq(rooms.id, id)).returning()),
    deleteDue: (now) =>
      db
        .delete(rooms)
        .where(
          and(
            isNotNull(rooms.destructionAt),
            lte(rooms.destructionAt, now),
            eq(rooms.isDefault, false),
          ),
        )
        .returning(),
    earliestDue: async () => {
      const [row] = await db
        .select({ at: min(rooms.destructionAt) })
        .from(rooms)
        .where(eq(rooms.isDefault, false));
      return row?.at ?? null;
    },
  };
  return store;
}
