/**
 * Fixed-window counters keyed by a string (an address, a key id). The memory implementation
 * serves one process; a Redis one shares the windows between processes (REDIS_URL).
 */
import { ExpiryQueue } from './expiry-queue.js';

export interface RateLimiter {
  /** Counts one hit for `key`; false when the key is over its limit in this window. */
  hit(key: string): Promise<boolean>;
}

export class MemoryRateLimiter implements RateLimiter {
  /**
   * Every window lasts `windowMs` from its first hit, so windows expire in the order they opened:
   * the queue drops finished ones from its front as new ones open (no full scans).
   */
  private readonly windows: ExpiryQueue<string, { count: number }>;

  constructor(
    private readonly limit: number,
    windowMs: number,
    now: () => number = Date.now,
  ) {
    this.windows = new ExpiryQueue(windowMs, now);
  }

  async hit(key: string): Promise<boolean> {
    const window = this.windows.get(key);
    if (!window) {
      this.windows.set(key, { count: 1 });
      return this.limit >= 1;
    }
    window.count += 1;
    return window.count <= this.limit;
  }

  /** Keys with an open window (tests). */
  get size(): number {
    return this.windows.size;
  }
}
