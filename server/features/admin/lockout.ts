/**
 * The admin lockout rules (spec 001 §4, §9): three failures lock for five minutes; the failure
 * counter resets after 60 s without attempts; a success resets it. Counted per client address, so
 * that a stranger cannot lock the operator out of their own server.
 *
 * Every check is counted **before** the password is verified (increment, then verify), in one
 * atomic step of the store, and only one check per address runs at a time, on every process: so
 * concurrent requests cannot verify more passwords than the rule allows. A finished check never
 * shortens a lock, so a failure that ends while a lock is in force cannot lift it.
 */
import {
  ADMIN_ATTEMPT_RESET_MS,
  ADMIN_CHECK_IN_FLIGHT_MS,
  ADMIN_LOCKOUT_MS,
  ADMIN_MAX_FAILED_ATTEMPTS,
} from '../../../shared/constants.js';

/** The rule's numbers; stores apply them inside their atomic step. */
export interface LockoutRules {
  maxAttempts: number;
  lockoutMs: number;
  resetMs: number;
  /** How long an unfinished check (a process that died mid-check) holds the address. */
  inFlightMs: number;
}

export const ADMIN_LOCKOUT_RULES: LockoutRules = {
  maxAttempts: ADMIN_MAX_FAILED_ATTEMPTS,
  lockoutMs: ADMIN_LOCKOUT_MS,
  resetMs: ADMIN_ATTEMPT_RESET_MS,
  inFlightMs: ADMIN_CHECK_IN_FLIGHT_MS,
};

/** What `begin` decided: the check may run, or the address is locked, or another check runs. */
export type LockoutAdmission =
  { kind: 'admitted' } | { kind: 'locked'; remainingMs: number } | { kind: 'busy' };

/** One address's state: attempts counted in the current window, the lock, the running check. */
export interface LockoutState {
  attempts: number;
  lastAttemptAt: number;
  lockedUntil: number;
  inFlightUntil: number;
}

/**
 * Where lockout state lives (memory, or Redis for every process). Both operations are atomic:
 * the memory store runs them synchronously, the Redis store as one Lua script each.
 */
export interface LockoutStore {
  /** Refuses when locked or busy; otherwise counts one attempt and marks a check in flight. */
  begin(client: string, now: number, rules: LockoutRules): Promise<LockoutAdmission>;
  /** Ends the check; returns the lock now in force, in ms (0 when none). Never shortens a lock. */
  finish(client: string, now: number, succeeded: boolean, rules: LockoutRules): Promise<number>;
}

const EMPTY: LockoutState = { attempts: 0, lastAttemptAt: 0, lockedUntil: 0, inFlightUntil: 0 };

/** The rule as a pure step over one state, shared by the memory store and the tests. */
export function beginAttempt(
  state: LockoutState,
  now: number,
  rules: LockoutRules,
): { state: LockoutState; admission: LockoutAdmission } {
  if (state.lockedUntil > now)
    return { state, admission: { kind: 'locked', remainingMs: state.lockedUntil - now } };
  if (state.inFlightUntil > now) return { state, admission: { kind: 'busy' } };
  const attempts = now - state.lastAttemptAt >= rules.resetMs ? 0 : state.attempts;
  if (attempts >= rules.maxAttempts) {
    // The checks that used these attempts never finished (a process died): lock now.
    const lockedUntil = now + rules.lockoutMs;
    return {
      state: { attempts: 0, lastAttemptAt: now, lockedUntil, inFlightUntil: 0 },
      admission: { kind: 'locked', remainingMs: rules.lockoutMs },
    };
  }
  return {
    state: {
      attempts: attempts + 1,
      lastAttemptAt: now,
      lockedUntil: state.lockedUntil,
      inFlightUntil: now + rules.inFlightMs,
    },
    admission: { kind: 'admitted' },
  };
}

export function finishAttempt(
  state: LockoutState,
  now: number,
  succeeded: boolean,
  rules: LockoutRules,
): LockoutState {
  // A success was admitted, so no lock was in force when it began: the state starts afresh.
  if (succeeded) return EMPTY;
  if (state.attempts >= rules.maxAttempts) {
    return {
      attempts: 0,
      lastAttemptAt: now,
      lockedUntil: Math.max(state.lockedUntil, now + rules.lockoutMs),
      inFlightUntil: 0,
    };
  }
  return { ...state, inFlightUntil: 0 };
}

export class MemoryLockoutStore implements LockoutStore {
  private readonly states = new Map<string, LockoutState>();

  async begin(client: string, now: number, rules: LockoutRules): Promise<LockoutAdmission> {
    this.sweep(now, rules);
    const step = beginAttempt(this.states.get(client) ?? EMPTY, now, rules);
    this.states.set(client, step.state);
    return step.admission;
  }

  async finish(client: string, now: number, succeeded: boolean, rules: LockoutRules) {
    const next = finishAttempt(this.states.get(client) ?? EMPTY, now, succeeded, rules);
    this.states.set(client, next);
    return Math.max(0, next.lockedUntil - now);
  }

  /** Forgets addresses with nothing left to remember, now and then, so the map stays small. */
  private sweep(now: number, rules: LockoutRules): void {
    if (this.states.size < 10_000) return;
    for (const [client, state] of this.states) {
      const isIdle =
        state.lockedUntil <= now &&
        state.inFlightUntil <= now &&
        now - state.lastAttemptAt >= rules.resetMs;
      if (isIdle) this.states.delete(client);
    }
  }
}

/** The outcome of a guarded password check. */
export type GuardedOutcome =
  | { kind: 'checked'; succeeded: boolean; lockedMs: number }
  | { kind: 'locked'; remainingMs: number }
  | { kind: 'busy' };

export class AdminLockout {
  constructor(
    private readonly store: LockoutStore,
    private readonly now: () => number,
    private readonly rules: LockoutRules = ADMIN_LOCKOUT_RULES,
  ) {}

  /**
   * Runs `check` (true when the password was right) under the rule: counted first, one at a time
   * per client, and refused outright while the client is locked or another check runs.
   */
  async guard(client: string, check: () => Promise<boolean>): Promise<GuardedOutcome> {
    const admission = await this.store.begin(client, this.now(), this.rules);
    if (admission.kind !== 'admitted') return admission;
    let succeeded = false;
    let checkError: unknown = null;
    try {
      succeeded = await check();
    } catch (error) {
      // A check that throws counts as a failure: the attempt was already spent.
      checkError = error;
    }
    const lockedMs = await this.store.finish(client, this.now(), succeeded, this.rules);
    if (checkError !== null) throw checkError;
    return { kind: 'checked', succeeded, lockedMs };
  }
}
