/** Whether tor should run at the next server start: the admin's last start or stop, durably. */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import { settings } from '../../db/schema.js';

const KEY = 'tor_running';

export function createTorDesiredState(db: Db) {
  return {
    get: async (): Promise<boolean> => {
      const rows = await db.select().from(settings).where(eq(settings.key, KEY)).limit(1);
      return rows[0]?.value === true;
    },
    set: async (running: boolean): Promise<void> => {
      await db
        .insert(settings)
        .values({ key: KEY, value: running })
        .onConflictDoUpdate({
          target: settings.key,
          set: { value: running, updatedAt: new Date() },
        });
    },
  };
}
