/**
 * Spots bot-like behaviour on one connection (spec 000 §4 "Bot challenge"). Thresholds sit above
 * ordinary use: ten messages a second from one member never trips them (docs/decisions.md).
 * - a burst: more than 32 messages within three seconds (ten a second plus jitter stays below it,
 *   and the wide window means a server stall bunching traffic together is not mistaken for one);
 * - repetition: the same message body four times within a minute (identical ciphertext means a
 *   replayed frame, since every honest encryption uses a fresh IV);
 * - a join flood: more than 6 joins within 30 seconds.
 */
import { hash } from 'node:crypto';

export const BOT_LIMITS = {
  burstMessages: 32,
  burstWindowMs: 3000,
  repeatCount: 4,
  repeatWindowMs: 60_000,
  joinCount: 6,
  joinWindowMs: 30_000,
} as const;

export type BotSignal = 'burst' | 'repetition' | 'join_flood';

export class BotDetector {
  // Created on first use: most connections join once and many never send, and every open
  // connection has a detector.
  private messageTimes: number[] | null = null;
  private recentBodies: RecentBodies | null = null;
  private joinTimes: number[] | null = null;

  constructor(private readonly now: () => number) {}

  /** Records a message; returns the signal it raises, if any. */
  onMessage(body: string, now: number = this.now()): BotSignal | null {
    const messageTimes = (this.messageTimes ??= []);
    messageTimes.push(now);
    prune(messageTimes, now - BOT_LIMITS.burstWindowMs);
    if (messageTimes.length > BOT_LIMITS.burstMessages) return 'burst';

    this.recentBodies ??= new RecentBodies(BOT_LIMITS.repeatWindowMs);
    const seen = this.recentBodies.add(hash('sha256', body, 'base64'), now);
    return seen >= BOT_LIMITS.repeatCount ? 'repetition' : null;
  }

  /** Records a join; returns the signal it raises, if any. */
  onJoin(now: number = this.now()): BotSignal | null {
    const joinTimes = (this.joinTimes ??= []);
    joinTimes.push(now);
    prune(joinTimes, now - BOT_LIMITS.joinWindowMs);
    return joinTimes.length > BOT_LIMITS.joinCount ? 'join_flood' : null;
  }

  /** After a passed challenge the counters start afresh. */
  reset(): void {
    this.messageTimes = null;
    this.joinTimes = null;
    this.recentBodies = null;
  }
}

/**
 * Digests of the bodies seen within the window, in arrival order, with a count per digest.
 * Arrival times only grow, so the oldest leave from the front: each message costs the same
 * however many distinct bodies the window holds. Its size is bounded by the hub's rate limit
 * (at most 20 a second sustained, 1,200 a minute).
 */
class RecentBodies {
  private readonly times: number[] = [];
  private readonly digests: string[] = [];
  /** Entries before this index have left the window; they are cut off in bulk, not one by one. */
  private head = 0;
  private readonly counts = new Map<string, number>();

  constructor(private readonly windowMs: number) {}

  /** Records one body at `now`; returns how often it was seen within the window, this one included. */
  add(digest: string, now: number): number {
    const cutoff = now - this.windowMs;
    while (this.head < this.times.length && this.times[this.head]! <= cutoff) {
      const old = this.digests[this.head]!;
      const left = (this.counts.get(old) ?? 1) - 1;
      if (left > 0) this.counts.set(old, left);
      else this.counts.delete(old);
      this.head += 1;
    }
    // Removing from the front of an array moves everything behind it: with a minute of messages
    // held, doing that for every message was most of the detector's cost.
    if (this.head > 64 && this.head * 2 > this.times.length) {
      this.times.splice(0, this.head);
      this.digests.splice(0, this.head);
      this.head = 0;
    }
    this.times.push(now);
    this.digests.push(digest);
    const seen = (this.counts.get(digest) ?? 0) + 1;
    this.counts.set(digest, seen);
    return seen;
  }
}

/** Drops the entries of a sorted list older than `cutoff`. */
function prune(times: number[], cutoff: number): void {
  let drop = 0;
  while (drop < times.length && times[drop]! <= cutoff) drop += 1;
  if (drop > 0) times.splice(0, drop);
}
