/**
 * Spots bot-like behaviour on one connection (spec 000 §4 "Bot challenge"). Thresholds sit above
 * ordinary use: ten messages a second from one member never trips them (docs/decisions.md).
 * - a burst: more than 32 messages within three seconds (ten a second plus jitter stays below it,
 *   and the wide window means a server stall bunching traffic together is not mistaken for one);
 * - repetition: the same message body four times within a minute (identical ciphertext means a
 *   replayed frame, since every honest encryption uses a fresh IV);
 * - a join flood: more than 6 joins within 30 seconds.
 */
import { createHash } from 'node:crypto';

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
  private bodies: Map<string, number[]> | null = null;
  private joinTimes: number[] | null = null;

  constructor(private readonly now: () => number) {}

  /** Records a message; returns the signal it raises, if any. */
  onMessage(body: string, now: number = this.now()): BotSignal | null {
    const messageTimes = (this.messageTimes ??= []);
    messageTimes.push(now);
    prune(messageTimes, now - BOT_LIMITS.burstWindowMs);
    if (messageTimes.length > BOT_LIMITS.burstMessages) return 'burst';

    const bodies = (this.bodies ??= new Map());
    const digest = createHash('sha256').update(body).digest('base64');
    const times = bodies.get(digest) ?? [];
    times.push(now);
    prune(times, now - BOT_LIMITS.repeatWindowMs);
    bodies.set(digest, times);
    if (bodies.size > 500) this.forgetOldBodies(bodies, now);
    return times.length >= BOT_LIMITS.repeatCount ? 'repetition' : null;
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
    this.bodies = null;
  }

  private forgetOldBodies(bodies: Map<string, number[]>, now: number): void {
    for (const [digest, times] of bodies) {
      prune(times, now - BOT_LIMITS.repeatWindowMs);
      if (times.length === 0) bodies.delete(digest);
    }
  }
}

/** Drops the entries of a sorted list older than `cutoff`. */
function prune(times: number[], cutoff: number): void {
  let drop = 0;
  while (drop < times.length && times[drop]! <= cutoff) drop += 1;
  if (drop > 0) times.splice(0, drop);
}
