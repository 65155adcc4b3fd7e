/**
 * The Security Verification challenge (spec 000 §2, §4): a proof of work in ALTCHA's scheme
 * (shared/crypto/proof-of-work.ts) instead of the spec's arithmetic question, which a script
 * answers for free (docs/decisions.md). Its cost rises with the abuse signal: every challenge an
 * address earned within the last half hour multiplies the next one's work by four.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  createPowChallenge,
  verifyPowSolution,
  type PowChallenge,
  type PowRefusal,
} from '../../../shared/crypto/proof-of-work.js';
import { ExpiryQueue } from '../../lib/expiry-queue.js';

/** Work of a first challenge: about 50,000 hashes on average, well under a second in a browser. */
export const POW_BASE_MAXNUMBER = 100_000;
/** Each earlier challenge of the address within the window multiplies the work by this. */
export const POW_GROWTH = 4;
/** The most work asked: about 6 million hashes on average. */
export const POW_MAX_MAXNUMBER = 12_800_000;
/** How long earlier challenges count towards the next one's work. */
export const POW_SIGNAL_WINDOW_MS = 30 * 60_000;
/** A challenge must be answered within this time. */
export const POW_TTL_MS = 5 * 60_000;

export interface Challenge {
  challengeId: string;
  pow: PowChallenge;
}

/** The work for an address that has earned `earlier` challenges within the window. */
export function powDifficulty(earlier: number): number {
  return Math.min(POW_MAX_MAXNUMBER, POW_BASE_MAXNUMBER * POW_GROWTH ** Math.min(earlier, 10));
}

/** Makes and checks challenges with this process's key; remembers the abuse signal per address. */
export class ChallengeIssuer {
  private readonly key = new Uint8Array(randomBytes(32));
  /** Challenges per address within the window (the window opens at the first one). */
  private readonly earned: ExpiryQueue<string, { count: number }>;

  constructor(private readonly now: () => number) {
    this.earned = new ExpiryQueue(POW_SIGNAL_WINDOW_MS, now);
  }

  /** A new challenge for `address`, harder the more it has earned lately. */
  issue(address: string): Challenge {
    const earlier = this.earned.get(address);
    if (earlier) earlier.count += 1;
    else this.earned.set(address, { count: 1 });
    return {
      challengeId: randomUUID(),
      pow: createPowChallenge({
        key: this.key,
        maxNumber: powDifficulty((earlier?.count ?? 1) - 1),
        expiresAt: this.now() + POW_TTL_MS,
      }),
    };
  }

  /** Null when `answer` (the decimal number) solves `challenge`; why not otherwise. */
  check(challenge: Challenge, answer: string): PowRefusal | null {
    if (!/^\d{1,10}$/.test(answer.trim())) return 'invalid';
    return verifyPowSolution(challenge.pow, Number(answer.trim()), this.key, this.now());
  }
}
