/**
 * The service state (spec 001 §4): operational, or emergency shutdown with a reason. Kept in the
 * settings table so that it survives a restart, and cached in memory so that every request and
 * frame can check it without a query.
 */
import { eq } from 'drizzle-orm';
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
