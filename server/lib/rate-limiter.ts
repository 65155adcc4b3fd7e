/**
 * Fixed-window counters keyed by a string (an address, a key id). The memory implementation
 * serves one process; a Redis one shares the windows between processes (REDIS_URL).
 */
export interface RateLimiter {
  /** Counts one hit for `key`; false when the key is over its limit in this window. */
  hit(key: string): Promise<boolean>;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(key: string): Promise<boolean> {
    const now = this.now();
    const window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      this.windows.set(key, { start: now, count: 1 });
      this.sweep(now);
      return this.limit >= 1;
    }
    window.count += 1;
    return window.count <= this.limit;
  }

  /** Drops finished windows now and then so the map cannot grow without bound. */
  private sweep(now: number): void {
    if (this.windows.size < 10_000) return;
    for (const [key, window] of this.windows) {
      if (now - window.start >= this.windowMs) this.windows.delete(key);
    }
  }
}
