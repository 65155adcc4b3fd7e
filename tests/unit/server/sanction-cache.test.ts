import { describe, expect, it } from 'vitest';
import { cacheSanctions } from '../../../server/features/moderation/sanction-cache.js';
import type { ModerationStore, SanctionRow } from '../../../server/features/moderation/store.js';

/** A store over an array, counting how often the room's sanctions are read. */
function arrayStore() {
  const rows: SanctionRow[] = [];
  const reads = { count: 0 };
  const active = (row: SanctionRow, now: Date) => row.until === null || row.until > now;
  const unused = () => Promise.reject(new Error('not used here'));
  const store: ModerationStore = {
    addressKey: unused,
    isModerator: unused,
    appoint: unused,
    dismiss: unused,
    moderators: unused,
    activeSanctions: async (roomId, subjects, now) =>
      rows.filter(
        (row) => row.roomId === roomId && subjects.includes(row.subject) && active(row, now),
      ),
    // Like a Drizzle query builder: a thenable that runs the query each time it is awaited.
    allSanctions: (now) =>
      ({
        then: (resolve: (rows: SanctionRow[]) => unknown) => {
          reads.count += 1;
          return Promise.resolve(resolve(rows.filter((row) => active(row, now))));
        },
      }) as unknown as Promise<SanctionRow[]>,
    addSanction: async (row) => {
      rows.push(row);
    },
    removeSanctions: async (roomId, subject, kind) => {
      const gone = rows.filter(
        (r) => r.roomId === roomId && r.subject === subject && r.kind === kind,
      );
      for (const row of gone) rows.splice(rows.indexOf(row), 1);
      return gone;
    },
    removeSanctionById: async (roomId, id, kind) => {
      const row = rows.find((r) => r.roomId === roomId && r.id === id && r.kind === kind);
      if (row) rows.splice(rows.indexOf(row), 1);
      return row ?? null;
    },
    bans: unused,
    log: unused,
    logEntries: unused,
    sweep: async (now) => {
      const ended = rows.filter((row) => !active(row, now));
      for (const row of ended) rows.splice(rows.indexOf(row), 1);
      return { sanctions: ended.length, logEntries: 0 };
    },
  };
  return { store, rows, reads };
}

const sanction = (
  id: string,
  kind: SanctionRow['kind'],
  subject: string,
  until: Date | null,
  roomId = 'room-1',
) =>
  ({
    id,
    roomId,
    kind,
    subject,
    subjectName: 'Agent1',
    until,
    createdBy: 'key:k',
    createdAt: new Date(0),
  }) as SanctionRow;

describe('cacheSanctions', () => {
  it('reads the sanctions in force once, then answers every room from memory', async () => {
    const { store, rows, reads } = arrayStore();
    rows.push(sanction('old', 'ban', 'addr:x', null, 'room-2'));
    rows.push(sanction('over', 'kick', 'addr:y', new Date(500), 'room-2'));
    const cached = cacheSanctions(store, () => 1_000);
    const now = new Date(1_000);
    expect((await cached.activeSanctions('room-2', ['addr:x'], now)).map((r) => r.id)).toEqual([
      'old',
    ]);
    expect(await cached.activeSanctions('room-2', ['addr:y'], now)).toEqual([]);
    expect(await cached.activeSanctions('room-1', ['addr:a'], now)).toEqual([]);
    await cached.addSanction(sanction('s1', 'ban', 'addr:a', null));
    expect((await cached.activeSanctions('room-1', ['addr:a'], now)).map((r) => r.id)).toEqual([
      's1',
    ]);
    expect(await cached.activeSanctions('room-1', ['addr:b'], now)).toEqual([]);
    expect(reads.count).toBe(1);
  });

  it('drops sanctions whose time is over, and the sweep forgets them', async () => {
    const { store, rows, reads } = arrayStore();
    const cached = cacheSanctions(store, () => 0);
    await cached.addSanction(sanction('k1', 'kick', 'addr:a', new Date(5_000)));
    expect(await cached.activeSanctions('room-1', ['addr:a'], new Date(4_999))).toHaveLength(1);
    expect(await cached.activeSanctions('room-1', ['addr:a'], new Date(5_000))).toEqual([]);
    await cached.sweep(new Date(6_000), new Date(0));
    expect(rows).toEqual([]);
    expect(await cached.activeSanctions('room-1', ['addr:a'], new Date(0))).toEqual([]);
    expect(reads.count).toBe(1);
  });

  it('forgets a sanction once it is lifted', async () => {
    const { store, reads } = arrayStore();
    const cached = cacheSanctions(store, () => 0);
    const now = new Date(1_000);
    await cached.addSanction(sanction('m1', 'mute', 'addr:a', new Date(60_000)));
    await cached.addSanction(sanction('m2', 'mute', 'addr:b', new Date(60_000)));
    await cached.addSanction(sanction('b1', 'ban', 'addr:b', null));
    expect(await cached.activeSanctions('room-1', ['addr:a'], now)).toHaveLength(1);
    await cached.removeSanctions('room-1', 'addr:a', 'mute');
    expect(await cached.activeSanctions('room-1', ['addr:a'], now)).toEqual([]);
    await cached.removeSanctionById('room-1', 'b1', 'ban');
    expect((await cached.activeSanctions('room-1', ['addr:b'], now)).map((r) => r.id)).toEqual([
      'm2',
    ]);
    expect(reads.count).toBe(1);
  });
});
