/**
 * The service state (spec 001 §4): operational, or emergency shutdown with a reason. Kept in the
 * settings table so that it survives a restart, and cached in memory so that every request and
 * frame can check it without a query.
 */
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/connect.js';
import { settings } from '../../db/schema.js';

const STATE_KEY = 'service_state';

export const ServiceStateSchema = z.object({
  status: z.enum(['operational', 'emergency']),
  reason: z.string().nullable(),
  since: z.string().nullable(),
});
export type ServiceState = z.infer<typeof ServiceStateSchema>;

export const OPERATIONAL: ServiceState = { status: 'operational', reason: null, since: null };

export interface ServiceStateStore {
  load(): Promise<ServiceState>;
  save(state: ServiceState): Promise<void>;
  /**
   * Saves `state` only when the stored status differs (one atomic statement, so two admins or two
   * processes cannot both shut down or both restore); true when this call changed it.
   */
  transition(state: ServiceState): Promise<boolean>;
}

export function createServiceStateStore(db: Db): ServiceStateStore {
  return {
    load: async () => {
      const rows = await db.select().from(settings).where(eq(settings.key, STATE_KEY)).limit(1);
      const parsed = ServiceStateSchema.safeParse(rows[0]?.value);
      return parsed.success ? parsed.data : OPERATIONAL;
    },
    save: async (state) => {
      await db
        .insert(settings)
        .values({ key: STATE_KEY, value: state })
        .onConflictDoUpdate({ target: settings.key, set: { value: state, updatedAt: new Date() } });
    },
    transition: async (state) => {
      if (state.status === 'emergency') {
        // No row yet means operational: insert; otherwise update only a non-emergency row.
        const rows = await db
          .insert(settings)
          .values({ key: STATE_KEY, value: state })
          .onConflictDoUpdate({
            target: settings.key,
            set: { value: state, updatedAt: new Date() },
            setWhere: sql`${settings.value}->>'status' is distinct from 'emergency'`,
          })
          .returning({ key: settings.key });
        return rows.length > 0;
      }
      const rows = await db
        .update(settings)
        .set({ value: state, updatedAt: new Date() })
        .where(and(eq(settings.key, STATE_KEY), sql`${settings.value}->>'status' = 'emergency'`))
        .returning({ key: settings.key });
      return rows.length > 0;
    },
  };
}

/** The cached state plus its changes. */
export class ServiceStateHolder {
  private state: ServiceState = OPERATIONAL;
  private readonly listeners: ((state: ServiceState) => void)[] = [];

  constructor(private readonly store: ServiceStateStore) {}

  async load(): Promise<void> {
    this.state = await this.store.load();
  }

  get current(): ServiceState {
    return this.state;
  }

  get isShutDown(): boolean {
    return this.state.status === 'emergency';
  }

  /** Persists and applies a new state; listeners run once per change. */
  async set(state: ServiceState): Promise<void> {
    await this.store.save(state);
    this.apply(state);
  }

  /**
   * Moves to `state` when the stored status is another one; false (nothing saved, nothing
   * applied) when the service is already in that status, here or on another process.
   */
  async transition(state: ServiceState): Promise<boolean> {
    const changed = await this.store.transition(state);
    if (changed) this.apply(state);
    else this.apply(await this.store.load());
    return changed;
  }

  /**
   * Reads the stored state again and applies it: after events from the other processes may have
   * been missed (a shutdown or restore published while this process did not hear Redis).
   */
  async reload(): Promise<void> {
    this.apply(await this.store.load());
  }

  /** Applies a state learned from elsewhere (another process) without saving it again. */
  apply(state: ServiceState): void {
    const changed = state.status !== this.state.status;
    this.state = state;
    if (changed) for (const listener of this.listeners) listener(state);
  }

  onChange(listener: (state: ServiceState) => void): void {
    this.listeners.push(listener);
  }
}
