/**
 * Counting failures atomically: an attempt is reserved before the expensive check runs, and
 * refunded when the check succeeds. So concurrent attempts cannot run more checks than the limit,
 * and only failures count (issue 15: a key holder's login limit counts failed verifications, not
 * the challenges anyone may request for a public key id). Fixed windows per key; the memory
 * implementation serves one process, the Redis one (server/redis/redis-stores.ts) all of them.
 */
export interface AttemptCounter {
  /** Counts one attempt for `key`; false when the key has used its attempts in this window. */
  reserve(key: string): Promise<boolean>;
  /** Gives back an attempt that turned out to be a success. */
  refund(key: string): Promise<void>;
}

export class MemoryAttemptCounter implements AttemptCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async reserve(key: string): Promise<boolean> {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      this.sweep(now);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    if (window.count >= this.limit) return false;
    window.count += 1;
    return true;
  }

  async refund(key: string): Promise<void> {
    const window = this.windows.get(key);
    if (window && window.count > 0) window.count -= 1;
  }

  /** Drops finished windows now and then so the map cannot grow without bound. */
  private sweep(now: number): void {
    if (this.windows.size < 10_000) return;
    for (const [key, window] of this.windows) {
      if (now - window.start >= this.windowMs) this.windows.delete(key);
    }
  }
}
