/**
 * A map whose entries all live the same time, kept in expiry order for free: JavaScript maps
 * iterate in insertion order, so with one lifetime for all the oldest insertion expires first.
 * Every write sweeps expired entries from the front, stopping at the first live one, so each
 * entry is removed once and a write costs amortised O(1), however large the map (no full scans).
 * Refreshing an entry moves it to the back.
 */
export class ExpiryQueue<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  /** The live value of `key`, or undefined. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > this.now()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Sets `key` (a fresh lifetime, at the back of the queue) and sweeps the expired front. */
  set(key: K, value: V): void {
    const now = this.now();
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: now + this.ttlMs });
    this.sweep(now);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Removes every entry `predicate` picks (a full pass: for rare purges only). */
  deleteWhere(predicate: (value: V, key: K) => boolean): void {
    for (const [key, entry] of this.entries)
      if (predicate(entry.value, key)) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt > now) return;
      this.entries.delete(key);
    }
  }
}
