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
    const seen = this.recentBodies.add(bodyDigest(body), now);
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
 * A body's digest as a small integer: the first 30 bits of its SHA-256, which V8 keeps inside the
 * array itself. A digest string was an object of its own living the whole minute, so with every
 * sender's minute of digests held the detector fed the heap's old generation a string (and a map
 * entry) per message (issue 36: 13% of what reached it at 2,500 messages a second). Thirty bits
 * are enough here: a window holds at most about 640 bodies of one connection (past 32 within three
 * seconds `onMessage` returns 'burst' before adding one), so two different bodies share a digest
 * about once in 1.7 million messages, and a shared digest counts as one more sighting of a body:
 * a false flag still needs three real ones within the minute. A sender who makes bodies collide on
 * purpose only counts against their own connection.
 */
export function bodyDigest(body: string): number {
  return hash('sha256', body, 'buffer').readUInt32LE(0) >>> 2;
}

/**
 * Digests of the bodies seen within the window, in arrival order. Arrival times only grow, so the
 * oldest leave from the front. A new body's sightings are counted by looking through the window
 * (at most about 640 small integers, under a microsecond) rather than kept in a map: the two arrays of
 * numbers are all a sender's minute costs the heap.
 */
class RecentBodies {
  private readonly times: number[] = [];
  private readonly digests: number[] = [];
  /** Entries before this index have left the window; they are cut off in bulk, not one by one. */
  private head = 0;

  constructor(private readonly windowMs: number) {}

  /** Records one body at `now`; returns how often it was seen within the window, this one included. */
  add(digest: number, now: number): number {
    const cutoff = now - this.windowMs;
    const { times, digests } = this;
    let head = this.head;
    while (head < times.length && times[head]! <= cutoff) head += 1;
    // Removing from the front of an array moves everything behind it: with a minute of messages
    // held, doing that for every message was most of the detector's cost.
    if (head > 64 && head * 2 > times.length) {
      times.splice(0, head);
      digests.splice(0, head);
      head = 0;
    }
    this.head = head;
    let seen = 1;
    for (let index = head; index < digests.length; index += 1) {
      if (digests[index] === digest) seen += 1;
    }
    times.push(now);
    digests.push(digest);
    return seen;
  }
}

/** Drops the entries of a sorted list older than `cutoff`. */
function prune(times: number[], cutoff: number): void {
  let drop = 0;
  while (drop < times.length && times[drop]! <= cutoff) drop += 1;
  if (drop > 0) times.splice(0, drop);
}
