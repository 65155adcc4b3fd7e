/**
 * Login challenges: single use, valid two minutes (DESIGN.md "Login"). They are live state, not
 * records: kept in this process by default, or in Redis when REDIS_URL is set so a challenge
 * issued by one process is verifiable on another (server/redis/redis-stores.ts). Keeping them out
 * of the database means a burst of logins costs the embedded database nothing until sessions open.
 */
export interface ChallengeEntry {
  keyId: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

export interface ChallengeStore {
  put(challenge: string, entry: ChallengeEntry): Promise<void>;
  /**
   * Removes and returns the challenge if it was issued to this key and is still valid: single use
   * even when two verifications race.
   */
  take(challenge: string, keyId: string): Promise<ChallengeEntry | null>;
  /** Drops every outstanding challenge of a key (revocation). */
  forgetKey(keyId: string): Promise<void>;
}

/**
 * At most this many outstanding challenges in one process. Challenges are rate limited per
 * address and per key; the cap bounds memory even against many addresses, by dropping the oldest
 * (whose holders simply ask again).
 */
export const MEMORY_CHALLENGE_CAP = 100_000;

export class MemoryChallengeStore implements ChallengeStore {
  /** Insertion order is issue order, so the first entries are the oldest. */
  private readonly entries = new Map<string, ChallengeEntry>();

  constructor(
    private readonly now: () => number,
    private readonly cap = MEMORY_CHALLENGE_CAP,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  async put(challenge: string, entry: ChallengeEntry): Promise<void> {
    this.dropExpired();
    while (this.entries.size >= this.cap) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
    this.entries.set(challenge, entry);
  }

  async take(challenge: string, keyId: string): Promise<ChallengeEntry | null> {
    const entry = this.entries.get(challenge);
    if (!entry || entry.keyId !== keyId) return null;
    this.entries.delete(challenge);
    return entry.expiresAt > this.now() ? entry : null;
  }

  async forgetKey(keyId: string): Promise<void> {
    for (const [challenge, entry] of this.entries) {
      if (entry.keyId === keyId) this.entries.delete(challenge);
    }
  }

  /** Every challenge lives the same two minutes, so the expired ones are at the front. */
  private dropExpired(): void {
    const now = this.now();
    for (const [challenge, entry] of this.entries) {
      if (entry.expiresAt > now) break;
      this.entries.delete(challenge);
    }
  }
}
