/**
 * The symmetric-key ratchet of a sender key (Signal's "sender keys" chain, as in libsignal's
 * `SenderChainKey`), HMAC-SHA-256 (RFC 2104) throughout:
 *
 * ```
 * chainKey₀      = HKDF-SHA-256(IKM = SKc, salt = none, info = "securechannel/v1/ratchet/seed", 32)
 * messageKeyᵢ    = HMAC-SHA-256(chainKeyᵢ, 0x01)
 * chainKeyᵢ₊₁    = HMAC-SHA-256(chainKeyᵢ, 0x02)
 *
 * chainKey₀ ──0x02──▶ chainKey₁ ──0x02──▶ chainKey₂ ──▶ …
 *    │0x01              │0x01              │0x01
 *    ▼                  ▼                  ▼
 * messageKey₀        messageKey₁        messageKey₂
 * ```
 *
 * HMAC is one-way, so whoever holds chainKeyᵢ can derive every later key but no earlier one:
 * once a chain key and a message key are wiped, the message they protected stays secret even if
 * the current state leaks (forward secrecy per message). Anyone who still holds SKc can of course
 * recompute the whole chain: see docs/crypto-room.md for what that means for each type.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { toHex, type RandomBytesSource } from '../bytes.js';
import { randomBytes } from '../../ids.js';
import { hkdf, KDF_LABELS, labelInfo, wipe } from './kdf.js';
import { DecryptError, EncryptError } from './room-crypto-error.js';

/** Length of a sender key (SKc, SKq), a chain key and a message key, in bytes. */
export const SENDER_KEY_BYTES = 32;
/** HMAC input deriving a message key from a chain key (libsignal's MESSAGE_KEY_SEED). */
export const MESSAGE_KEY_SEED = 0x01;
/** HMAC input deriving the next chain key (libsignal's CHAIN_KEY_SEED). */
export const CHAIN_KEY_SEED = 0x02;
/** At most this many skipped message keys are kept per chain; older ones are wiped. */
export const MAX_SKIPPED_MESSAGE_KEYS = 200;
/** A message may be at most this many iterations ahead of the receiver's chain. */
export const MAX_FORWARD_JUMP = 2000;
/** The last iteration a chain can reach: iterations travel as 32-bit unsigned integers. */
export const MAX_ITERATION = 0xffff_ffff;
/** Shape of a sender key id: 1 to 64 characters from A–Z, a–z, 0–9, `_` and `-`. */
export const SENDER_KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** A chain's state: where it stands. `iteration` is the next one to be derived. */
export interface ChainState {
  /** Which sender key (epoch) this chain belongs to; every message names it. */
  senderKeyId: string;
  /** chainKeyᵢ for i = `iteration`: 32 bytes. */
  chainKey: Uint8Array;
  /** 0 ≤ iteration ≤ 2³². */
  iteration: number;
}

/** One turn of the ratchet. */
export interface RatchetStep {
  messageKey: Uint8Array;
  nextChainKey: Uint8Array;
}

/** A message key and the iteration it belongs to. */
export interface IteratedMessageKey {
  iteration: number;
  messageKey: Uint8Array;
}

/** A new random sender key id: 16 lowercase hex digits (8 random bytes). */
export function generateSenderKeyId(random: RandomBytesSource = randomBytes): string {
  return toHex(random(8));
}

/** A new sender key (SKc or SKq): 32 random bytes. */
export function generateSenderKey(random: RandomBytesSource = randomBytes): Uint8Array {
  return random(SENDER_KEY_BYTES);
}

/**
 * One ratchet step from `chainKey`: messageKeyᵢ and chainKeyᵢ₊₁. Pure; `chainKey` is untouched.
 * @throws RangeError when `chainKey` is not 32 bytes.
 */
export function ratchetStep(chainKey: Uint8Array): RatchetStep {
  if (chainKey.length !== SENDER_KEY_BYTES) throw new RangeError('A chain key is 32 bytes');
  return {
    messageKey: hmac(sha256, chainKey, Uint8Array.of(MESSAGE_KEY_SEED)),
    nextChainKey: hmac(sha256, chainKey, Uint8Array.of(CHAIN_KEY_SEED)),
  };
}

/**
 * chainKey₀ of the chain seeded by the classic sender key SKc.
 * @throws RangeError when `classicSenderKey` is not 32 bytes.
 */
export function deriveInitialChainKey(classicSenderKey: Uint8Array): Uint8Array {
  if (classicSenderKey.length !== SENDER_KEY_BYTES) throw new RangeError('SKc is 32 bytes');
  return hkdf(classicSenderKey, null, labelInfo(KDF_LABELS.ratchetSeed), SENDER_KEY_BYTES);
}

function checkState(state: ChainState): void {
  if (!SENDER_KEY_ID_PATTERN.test(state.senderKeyId)) throw new RangeError('Invalid sender key id');
  if (state.chainKey.length !== SENDER_KEY_BYTES) throw new RangeError('A chain key is 32 bytes');
  const { iteration } = state;
  if (!Number.isInteger(iteration) || iteration < 0 || iteration > MAX_ITERATION + 1) {
    throw new RangeError('Invalid chain iteration');
  }
}

/**
 * The sending side of a chain: hands out each message key once, in order. The constructor copies
 * the given chain key; the caller may wipe its own copy.
 */
export class SenderChain {
  /** The sender key id every message of this chain carries. */
  readonly senderKeyId: string;
  #chainKey: Uint8Array;
  #iteration: number;

  /** @throws RangeError on an invalid state. */
  constructor(state: ChainState) {
    checkState(state);
    this.senderKeyId = state.senderKeyId;
    this.#chainKey = Uint8Array.from(state.chainKey);
    this.#iteration = state.iteration;
  }

  /** The iteration the next {@link advance} returns. */
  get iteration(): number {
    return this.#iteration;
  }

  /**
   * The next message key and its iteration. The chain key moves one step and the old one is
   * overwritten with zeros, so this message key can never be derived from this chain again.
   * @throws EncryptError `CHAIN_EXHAUSTED` after iteration 2³²−1.
   */
  advance(): IteratedMessageKey {
    if (this.#iteration > MAX_ITERATION) throw new EncryptError('CHAIN_EXHAUSTED');
    const { messageKey, nextChainKey } = ratchetStep(this.#chainKey);
    wipe(this.#chainKey);
    this.#chainKey = nextChainKey;
    return { iteration: this.#iteration++, messageKey };
  }

  /**
   * A copy of the current state, e.g. to hand a late joiner the chain from here on (it will
   * not be able to read earlier messages of the chain types).
   */
  snapshot(): ChainState {
    const { senderKeyId } = this;
    return { senderKeyId, chainKey: Uint8Array.from(this.#chainKey), iteration: this.#iteration };
  }

  /** Wipes the chain key; every later {@link advance} throws. */
  destroy(): void {
    wipe(this.#chainKey);
    this.#iteration = MAX_ITERATION + 1;
  }
}

/** A chain for `senderKeyId` seeded from SKc, at iteration 0. */
export function createSenderChain(senderKeyId: string, classicSenderKey: Uint8Array): SenderChain {
  const chainKey = deriveInitialChainKey(classicSenderKey);
  const chain = new SenderChain({ senderKeyId, chainKey, iteration: 0 });
  wipe(chainKey);
  return chain;
}

/** Result of walking a chain forward without committing: what a successful read would keep. */
interface PendingAdvance {
  skipped: IteratedMessageKey[];
  messageKey: Uint8Array;
  nextChainKey: Uint8Array;
}

/**
 * The receiving side of another member's chain. It derives the key of any iteration at or after
 * its own, keeps the keys it skipped (at most {@link MAX_SKIPPED_MESSAGE_KEYS}, the newest) for
 * messages that arrive late, and forgets every key once its message has been read, so each
 * message decrypts once (a replay gets `Forward secrecy: message key expired`).
 *
 * State changes only when the caller's use of the key succeeds ({@link useMessageKey}): a forged
 * or corrupted message can neither advance the chain nor burn a key the real message needs.
 */
export class ReceiverChain {
  /** The sender key id of the chain. */
  readonly senderKeyId: string;
  #chainKey: Uint8Array;
  #iteration: number;
  readonly #skipped = new Map<number, Uint8Array>();
  #queue: Promise<unknown> = Promise.resolve();

  /** @throws RangeError on an invalid state. The chain key is copied. */
  constructor(state: ChainState) {
    checkState(state);
    this.senderKeyId = state.senderKeyId;
    this.#chainKey = Uint8Array.from(state.chainKey);
    this.#iteration = state.iteration;
  }

  /** The next iteration the chain would derive; every earlier one is skipped or consumed. */
  get iteration(): number {
    return this.#iteration;
  }

  /** How many skipped message keys are held for late messages. */
  get skippedKeyCount(): number {
    return this.#skipped.size;
  }

  /**
   * Runs `use` with the message key of `iteration`. When `use` resolves, the key is consumed
   * (wiped), the keys skipped on the way are kept for late messages and the chain moves past
   * `iteration`; when it rejects, nothing changes and its error is rethrown. Calls are
   * serialized, so concurrent reads cannot both consume one state.
   * @throws DecryptError `KEY_EXPIRED` for an iteration already read or no longer held,
   * `TOO_FAR_AHEAD` beyond {@link MAX_FORWARD_JUMP}, `MALFORMED` for a non-iteration.
   */
  useMessageKey<T>(iteration: number, use: (messageKey: Uint8Array) => Promise<T>): Promise<T> {
    const run = this.#queue.then(() => this.#useNow(iteration, use));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Wipes every key held; later reads fail with `KEY_EXPIRED`. */
  destroy(): void {
    wipe(this.#chainKey, ...this.#skipped.values());
    this.#skipped.clear();
    this.#iteration = MAX_ITERATION + 1;
  }

  async #useNow<T>(iteration: number, use: (messageKey: Uint8Array) => Promise<T>): Promise<T> {
    if (!Number.isInteger(iteration) || iteration < 0 || iteration > MAX_ITERATION) {
      throw new DecryptError('MALFORMED');
    }
    if (iteration < this.#iteration) {
      const held = this.#skipped.get(iteration);
      if (held === undefined) throw new DecryptError('KEY_EXPIRED');
      const result = await use(held);
      this.#skipped.delete(iteration);
      wipe(held);
      return result;
    }
    if (iteration - this.#iteration > MAX_FORWARD_JUMP) throw new DecryptError('TOO_FAR_AHEAD');
    const pending = this.#walkTo(iteration);
    try {
      const result = await use(pending.messageKey);
      this.#commit(iteration, pending);
      return result;
    } catch (error) {
      wipe(pending.nextChainKey, ...pending.skipped.map((entry) => entry.messageKey));
      throw error;
    } finally {
      wipe(pending.messageKey);
    }
  }

  /** Derives the keys up to `iteration` from a copy of the state; the state is untouched. */
  #walkTo(iteration: number): PendingAdvance {
    const skipped: IteratedMessageKey[] = [];
    let chainKey = this.#chainKey;
    for (let current = this.#iteration; current < iteration; current++) {
      const step = ratchetStep(chainKey);
      if (chainKey !== this.#chainKey) wipe(chainKey);
      chainKey = step.nextChainKey;
      // Only the newest keys can survive eviction; the rest are wiped at once.
      if (iteration - current <= MAX_SKIPPED_MESSAGE_KEYS) {
        skipped.push({ iteration: current, messageKey: step.messageKey });
      } else {
        wipe(step.messageKey);
      }
    }
    const last = ratchetStep(chainKey);
    if (chainKey !== this.#chainKey) wipe(chainKey);
    return { skipped, messageKey: last.messageKey, nextChainKey: last.nextChainKey };
  }

  #commit(iteration: number, pending: PendingAdvance): void {
    for (const entry of pending.skipped) this.#skipped.set(entry.iteration, entry.messageKey);
    // A Map iterates in insertion order and iterations only grow: the first keys are the oldest.
    for (const [oldIteration, oldKey] of this.#skipped) {
      if (this.#skipped.size <= MAX_SKIPPED_MESSAGE_KEYS) break;
      wipe(oldKey);
      this.#skipped.delete(oldIteration);
    }
    wipe(this.#chainKey);
    this.#chainKey = pending.nextChainKey;
    this.#iteration = iteration + 1;
  }
}

/** The receiving chain for another member's `senderKeyId`, seeded from their SKc. */
export function createReceiverChain(
  senderKeyId: string,
  classicSenderKey: Uint8Array,
): ReceiverChain {
  const chainKey = deriveInitialChainKey(classicSenderKey);
  const chain = new ReceiverChain({ senderKeyId, chainKey, iteration: 0 });
  wipe(chainKey);
  return chain;
}
