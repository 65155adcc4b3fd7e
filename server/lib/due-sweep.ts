/**
 * A database sweep that runs only when something may be due. Polling the database every second
 * for rooms to destroy or direct messages to delete costs a query each time, mostly for nothing;
 * this keeps the earliest due time in memory instead and queries only once it has passed.
 *
 * Where the earliest time comes from:
 * - every due time this process writes is noted ({@link DueSweep.note});
 * - each sweep returns the earliest time still in the database, which covers rows written by
 *   other processes sharing it;
 * - a full check every `fullCheckMs` catches rows another process wrote after this one last
 *   looked, should that process go away before it sweeps them itself.
 * The first tick always sweeps, so a restarted process catches up on what fell due while it
 * was down.
 */
export interface DueSweepOptions {
  /** Deletes what is due at `now`; resolves to the earliest due time left (null: none). */
  sweep: (now: number) => Promise<number | null>;
  now: () => number;
  fullCheckMs?: number;
}

/** Sweeps on this schedule even when nothing is known to be due (rows of other processes). */
export const FULL_CHECK_MS = 60_000;

export class DueSweep {
  private nextDueAt = Number.NEGATIVE_INFINITY;
  private lastSweepAt = Number.NEGATIVE_INFINITY;
  private running: Promise<void> | null = null;

  constructor(private readonly options: DueSweepOptions) {}

  /** A due time this process has just written (null or undefined: none). */
  note(dueAt: number | null | undefined): void {
    if (dueAt !== null && dueAt !== undefined) this.nextDueAt = Math.min(this.nextDueAt, dueAt);
  }

  /** Called on every tick of the housekeeping timer: sweeps when something may be due. */
  tick(): Promise<void> {
    const now = this.options.now();
    const fullCheckMs = this.options.fullCheckMs ?? FULL_CHECK_MS;
    if (this.running) return this.running;
    if (now < this.nextDueAt && now - this.lastSweepAt < fullCheckMs) return Promise.resolve();
    this.running = this.sweep(now).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async sweep(now: number): Promise<void> {
    this.lastSweepAt = now;
    // Cleared before the query, so a time noted while it runs is kept.
    this.nextDueAt = Number.POSITIVE_INFINITY;
    try {
      this.note(await this.options.sweep(now));
    } catch (error) {
      // Try again on the next tick.
      this.nextDueAt = Number.NEGATIVE_INFINITY;
      throw error;
    }
  }
}
