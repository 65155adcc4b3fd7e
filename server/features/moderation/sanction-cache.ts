/**
 * A room's sanctions held in memory, for a process that is the database's only writer (no Redis:
 * one process serves every socket, so every sanction is written through it). Every join_room
 * asks whether the newcomer is banned, kicked or muted; without this each join was one database
 * query (with the embedded PGlite, about a third of a join's CPU). The first join to a room
 * loads the room's sanctions still in force; sanctions added here are appended, removals drop
 * the room so that the next join reads it again, and rows that have ended are filtered by `until`
 * (the sweep deletes them from the database later).
 *
 * With several processes (Redis) another process may write a sanction at any time, so the store
 * is used as is and every join asks the database.
 */
import type { ModerationStore, SanctionRow } from './store.js';

/** Rooms whose sanctions are held at once; the least recently loaded goes first. */
const MAX_ROOMS = 10_000;

export function cacheSanctions(store: ModerationStore): ModerationStore {
  const rooms = new Map<string, Promise<SanctionRow[]>>();

  const load = (roomId: string, now: Date): Promise<SanctionRow[]> => {
    let rows = rooms.get(roomId);
    if (!rows) {
      // One real promise: a query builder would run again on every await.
      rows = Promise.resolve(store.roomSanctions(roomId, now));
      rooms.set(roomId, rows);
      // A failed read is not kept: the next join asks again.
      rows.catch(() => rooms.delete(roomId));
      if (rooms.size > MAX_ROOMS) rooms.delete(rooms.keys().next().value as string);
    }
    return rows;
  };

  return {
    ...store,
    activeSanctions: async (roomId, subjects, now) => {
      const wanted = new Set(subjects);
      const at = now.getTime();
      return (await load(roomId, now)).filter(
        (row) => wanted.has(row.subject) && (row.until === null || row.until.getTime() > at),
      );
    },
    addSanction: async (row) => {
      await store.addSanction(row);
      const cached = rooms.get(row.roomId);
      if (cached)
        rooms.set(
          row.roomId,
          cached.then((rows) => [...rows, row]),
        );
    },
    removeSanctions: async (roomId, subject, kind) => {
      rooms.delete(roomId);
      const removed = await store.removeSanctions(roomId, subject, kind);
      rooms.delete(roomId);
      return removed;
    },
    removeSanctionById: async (roomId, id, kind) => {
      rooms.delete(roomId);
      const removed = await store.removeSanctionById(roomId, id, kind);
      rooms.delete(roomId);
      return removed;
    },
  };
}
