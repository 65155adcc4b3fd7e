/**
 * Sanctions held in memory, for a process that is the database's only writer (no Redis: one
 * process serves every socket, so every sanction is written through it). Every join_room asks
 * whether the newcomer is banned, kicked or muted; without this each join was one database query
 * (with the embedded PGlite, about 60% of a join's CPU in the connect bench). The sanctions still
 * in force are read once, with the first question; sanctions added or lifted here change the
 * copy after the database, and rows whose time is over are filtered by `until` and dropped by
 * the sweep (which deletes them from the database too).
 *
 * With several processes (Redis) another process may write a sanction at any time, so the store
 * is used as is and every join asks the database.
 */
import type { ModerationStore, SanctionRow } from './store.js';

export function cacheSanctions(store: ModerationStore, now: () => number): ModerationStore {
  let loaded: Promise<Map<string, SanctionRow[]>> | null = null;

  const rooms = (): Promise<Map<string, SanctionRow[]>> => {
    if (!loaded) {
      const reading = (async () => {
        const byRoom = new Map<string, SanctionRow[]>();
        for (const row of await store.allSanctions(new Date(now()))) add(byRoom, row);
        return byRoom;
      })();
      // A failed read is not kept: the next question asks again.
      reading.catch(() => {
        if (loaded === reading) loaded = null;
      });
      loaded = reading;
    }
    return loaded;
  };
  const add = (byRoom: Map<string, SanctionRow[]>, row: SanctionRow) => {
    byRoom.set(row.roomId, [...(byRoom.get(row.roomId) ?? []), row]);
  };
  const drop = async (roomId: string, removed: readonly SanctionRow[]) => {
    const ids = new Set(removed.map((row) => row.id));
    const byRoom = await rooms();
    const left = (byRoom.get(roomId) ?? []).filter((row) => !ids.has(row.id));
    if (left.length > 0) byRoom.set(roomId, left);
    else byRoom.delete(roomId);
  };
  const inForce = (row: SanctionRow, at: number) => row.until === null || row.until.getTime() > at;

  return {
    ...store,
    activeSanctions: async (roomId, subjects, at) => {
      const rows = (await rooms()).get(roomId);
      if (!rows) return [];
      const wanted = new Set(subjects);
      const time = at.getTime();
      return rows.filter((row) => wanted.has(row.subject) && inForce(row, time));
    },
    addSanction: async (row) => {
      const byRoom = await rooms();
      await store.addSanction(row);
      add(byRoom, row);
    },
    removeSanctions: async (roomId, subject, kind) => {
      await rooms();
      const removed = await store.removeSanctions(roomId, subject, kind);
      await drop(roomId, removed);
      return removed;
    },
    removeSanctionById: async (roomId, id, kind) => {
      await rooms();
      const removed = await store.removeSanctionById(roomId, id, kind);
      if (removed) await drop(roomId, [removed]);
      return removed;
    },
    sweep: async (at, logBefore) => {
      const byRoom = await rooms();
      const result = await store.sweep(at, logBefore);
      const time = at.getTime();
      for (const [roomId, rows] of byRoom) {
        const left = rows.filter((row) => inForce(row, time));
        if (left.length === 0) byRoom.delete(roomId);
        else if (left.length < rows.length) byRoom.set(roomId, left);
      }
      return result;
    },
  };
}
