/**
 * Bridges in the database (spec 000 §3, §5): add, import, remove, list. Rows hold only fields
 * that passed the shared validation; torrc.ts validates them once more when it writes them.
 */
import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import type { BridgeFields } from '../../../shared/protocol/http/tor.js';
import type { Bridge } from '../../../shared/protocol/http/tor.js';
import type { Db } from '../../db/connect.js';
import { torBridges } from '../../db/schema.js';

export interface NewBridge extends BridgeFields {
  country: string;
}

export interface BridgeStore {
  list(): Promise<Bridge[]>;
  /** Inserts the bridges not stored yet (same type, address and fingerprint); returns the new ones. */
  add(bridges: readonly NewBridge[]): Promise<Bridge[]>;
  /** True when a row was removed. */
  remove(id: string): Promise<boolean>;
  find(id: string): Promise<Bridge | null>;
}

type Row = typeof torBridges.$inferSelect;

function toBridge(row: Row): Bridge {
  return {
    id: row.id,
    type: row.type,
    address: row.address,
    fingerprint: row.fingerprint,
    args: row.args,
    country: row.country,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
  };
}

export function createBridgeStore(db: Db, now: () => number): BridgeStore {
  return {
    list: async () =>
      (
        await db.select().from(torBridges).orderBy(asc(torBridges.createdAt), asc(torBridges.id))
      ).map(toBridge),
    add: async (bridges) => {
      if (bridges.length === 0) return [];
      // One millisecond apart, so that the list (and the torrc) keeps the order of the import.
      const at = now();
      const rows = await db
        .insert(torBridges)
        .values(
          bridges.map((bridge, index) => ({
            id: randomUUID(),
            type: bridge.type,
            address: bridge.address,
            fingerprint: bridge.fingerprint,
            args: bridge.args,
            country: bridge.country,
            active: true,
            createdAt: new Date(at + index),
          })),
        )
        .onConflictDoNothing()
        .returning();
      return rows.map(toBridge);
    },
    remove: async (id) =>
      (await db.delete(torBridges).where(eq(torBridges.id, id)).returning({ id: torBridges.id }))
        .length === 1,
    find: async (id) => {
      const rows = await db.select().from(torBridges).where(eq(torBridges.id, id)).limit(1);
      return rows[0] ? toBridge(rows[0]) : null;
    },
  };
}
