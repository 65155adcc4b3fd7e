/**
 * Replays, reordering and gaps in a thread's messages (docs/crypto.md, "Direct messages:
 * counters"). Each sender numbers its messages in a thread 1, 2, 3 … under its signature, so the
 * relay cannot change a number; it can only repeat, reorder or withhold messages, and each of
 * those is named here rather than shown as normal:
 *
 * - `replayed`: the same signed message again (same sender and counter, same signature), in this
 *   answer or under another id than the one first seen;
 * - `counter-reused`: a different message under a counter this sender already used;
 * - `out-of-order`: a lower counter after a higher one from the same sender, in the relay's order;
 * - `missingBefore`: counters skipped since the sender's previous message, minus those this tab
 *   saw and watched expire: messages expired on another timer, or withheld by the server.
 *
 * Only messages whose signature verified are fed in: a forgery cannot move a counter.
 */

export type SequenceFlag = 'ok' | 'replayed' | 'counter-reused' | 'out-of-order';

export interface SequencedMessage {
  id: string;
  senderKeyId: string;
  counter: number;
  /** Anything that identifies the signed content (the signature itself). */
  digest: string;
  /** The signed expiry, ms since the epoch. */
  expiresAt: number;
}

export interface SequenceVerdict {
  flag: SequenceFlag;
  missingBefore: number;
}

interface Seen {
  id: string;
  digest: string;
  expiresAt: number;
}

/** One thread's memory of what each sender sent, for this tab's life. */
export class MessageSequenceLedger {
  private readonly seen = new Map<string, Map<number, Seen>>();

  private of(senderKeyId: string): Map<number, Seen> {
    let bySender = this.seen.get(senderKeyId);
    if (!bySender) {
      bySender = new Map();
      this.seen.set(senderKeyId, bySender);
    }
    return bySender;
  }

  /** The highest counter seen from `senderKeyId` (0: none). */
  highest(senderKeyId: string): number {
    let top = 0;
    for (const counter of this.seen.get(senderKeyId)?.keys() ?? []) top = Math.max(top, counter);
    return top;
  }

  /**
   * Judges one answer of the relay, in the order it gave, and remembers what was new. `now` is
   * used to tell watched expiry from withholding.
   */
  judge(messages: readonly SequencedMessage[], now: number): SequenceVerdict[] {
    const inThisAnswer = new Map<string, Map<number, string>>();
    const topInAnswer = new Map<string, number>();
    return messages.map((message) => {
      const remembered = this.of(message.senderKeyId);
      let answer = inThisAnswer.get(message.senderKeyId);
      if (!answer) {
        answer = new Map();
        inThisAnswer.set(message.senderKeyId, answer);
      }
      const top = topInAnswer.get(message.senderKeyId) ?? 0;
      const earlier = remembered.get(message.counter);
      let verdict: SequenceVerdict = { flag: 'ok', missingBefore: 0 };
      const repeatInAnswer = answer.get(message.counter);
      if (repeatInAnswer !== undefined) {
        verdict.flag = repeatInAnswer === message.digest ? 'replayed' : 'counter-reused';
      } else if (earlier && earlier.digest !== message.digest) {
        verdict.flag = 'counter-reused';
      } else if (earlier && earlier.id !== message.id) {
        verdict.flag = 'replayed';
      } else if (message.counter < top) {
        verdict.flag = 'out-of-order';
      } else if (top > 0 && message.counter > top + 1) {
        let missing = 0;
        for (let counter = top + 1; counter < message.counter; counter += 1) {
          const known = remembered.get(counter);
          if (!known || known.expiresAt > now) missing += 1;
        }
        verdict = { flag: 'ok', missingBefore: missing };
      }
      answer.set(message.counter, message.digest);
      if (verdict.flag !== 'replayed' && verdict.flag !== 'counter-reused') {
        topInAnswer.set(message.senderKeyId, Math.max(top, message.counter));
        if (!earlier) {
          remembered.set(message.counter, {
            id: message.id,
            digest: message.digest,
            expiresAt: message.expiresAt,
          });
        }
      }
      return verdict;
    });
  }
}
