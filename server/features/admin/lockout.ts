/**
 * The admin lockout rules (spec 001 §4, §9): three failures lock for five minutes; the failure
 * counter resets after 60 s without attempts; a success resets it. Counted per client address, so
 * that a stranger cannot lock the operator out of their own server.
 */
import {
  ADMIN_ATTEMPT_RESET_MS,
  ADMIN_LOCKOUT_MS,
  ADMIN_MAX_FAILED_ATTEMPTS,
} from '../../../shared/constants.js';

export interface LockoutState {
  failures: number;
  lastFailureAt: number;
  lockedUntil: number;
}

export interface LockoutStore {
  get(client: string): Promise<LockoutState | null>;
  set(client: string, state: LockoutState): Promise<void>;
  clear(client: string): Promise<void>;
}

export class MemoryLockoutStore implements LockoutStore {
  private readonly states = new Map<string, LockoutState>();
  async get(client: string) {
    return this.states.get(client) ?? null;
  }
  async set(client: string, state: LockoutState) {
    this.states.set(client, state);
  }
  async clear(client: string) {
    this.states.delete(client);
  }
}

export class AdminLockout {
  constructor(
    private readonly store: LockoutStore,
    private readonly now: () => number,
  ) {}

  /** Milliseconds left on a lock, or 0 when the client may try. */
  async lockedFor(client: string): Promise<number> {
    const state = await this.store.get(client);
    if (!state) return 0;
    return Math.max(0, state.lockedUntil - this.now());
  }

  /** Records a failure; returns the lock duration it caused (0 if none). */
  async recordFailure(client: string): Promise<number> {
    const now = this.now();
    const state = await this.store.get(client);
    const isStale =
      !state ||
      now - state.lastFailureAt >= ADMIN_ATTEMPT_RESET_MS ||
      (state.lockedUntil > 0 && state.lockedUntil <= now);
    const failures = (isStale ? 0 : state.failures) + 1;
    const lockedUntil = failures >= ADMIN_MAX_FAILED_ATTEMPTS ? now + ADMIN_LOCKOUT_MS : 0;
    await this.store.set(client, {
      failures: lockedUntil ? 0 : failures,
      lastFailureAt: now,
      lockedUntil,
    });
    return lockedUntil ? ADMIN_LOCKOUT_MS : 0;
  }

  async recordSuccess(client: string): Promise<void> {
    await this.store.clear(client);
  }
}
