/**
 * Proof-of-work challenges in ALTCHA's scheme (https://altcha.org/docs/proof-of-work; works
 * without third parties and over Tor):
 *
 *   salt      = random hex ‖ "?expires=" ‖ expiry in Unix seconds
 *   number    = a secret random integer in [0, maxnumber]
 *   challenge = hex SHA-256(UTF-8(salt ‖ decimal(number)))
 *   signature = hex HMAC-SHA-256(server key, challenge)
 *
 * The client gets {algorithm, challenge, salt, signature, maxnumber} and tries numbers from 0 up
 * until the hash matches: on average maxnumber / 2 hashes, so maxnumber sets the cost. The server
 * checks its HMAC (the challenge is one it made), the hash, the expiry in the salt, and that the
 * challenge was not used before (the caller keeps the single-use record).
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { toHex } from '../ids.js';
import { utf8Encode } from './bytes.js';

/** What the server sends; the client needs all of it to solve, the server to verify. */
export interface PowChallenge {
  algorithm: 'SHA-256';
  /** Hex SHA-256 of salt ‖ number. */
  challenge: string;
  /** Random hex, then `?expires=` and the expiry in Unix seconds. */
  salt: string;
  /** Hex HMAC-SHA-256 of `challenge` under the server's key. */
  signature: string;
  /** The secret number is at most this. */
  maxnumber: number;
}

/** Why a solution was refused; null when it is good. */
export type PowRefusal = 'invalid' | 'expired';

/** Bytes of the random part of the salt. */
const SALT_BYTES = 12;

/** A new challenge under `key`; `random` fills a buffer with random bytes (injectable for tests). */
export function createPowChallenge(options: {
  key: Uint8Array;
  maxNumber: number;
  expiresAt: number;
  random?: (bytes: Uint8Array) => Uint8Array;
}): PowChallenge {
  const random =
    options.random ?? ((bytes: Uint8Array) => globalThis.crypto.getRandomValues(bytes));
  const salt = `${toHex(random(new Uint8Array(SALT_BYTES)))}?expires=${Math.floor(options.expiresAt / 1000)}`;
  const draw = new DataView(random(new Uint8Array(4)).buffer).getUint32(0);
  const number = draw % (options.maxNumber + 1);
  const challenge = toHex(sha256(utf8Encode(`${salt}${number}`)));
  return {
    algorithm: 'SHA-256',
    challenge,
    salt,
    signature: toHex(hmac(sha256, options.key, utf8Encode(challenge))),
    maxnumber: options.maxNumber,
  };
}

/** The expiry (ms) written into a salt, or null when it has none. */
export function powExpiry(salt: string): number | null {
  const match = /\?expires=(\d{1,12})$/.exec(salt);
  return match ? Number(match[1]) * 1000 : null;
}

/** Checks `number` against `challenge`: the server's HMAC, the hash, the expiry. */
export function verifyPowSolution(
  challenge: PowChallenge,
  number: number,
  key: Uint8Array,
  now: number,
): PowRefusal | null {
  const expected = toHex(hmac(sha256, key, utf8Encode(challenge.challenge)));
  if (!constantTimeEqual(expected, challenge.signature)) return 'invalid';
  const expiry = powExpiry(challenge.salt);
  if (expiry === null || expiry <= now) return 'expired';
  if (!Number.isSafeInteger(number) || number < 0 || number > challenge.maxnumber) return 'invalid';
  const hash = toHex(sha256(utf8Encode(`${challenge.salt}${number}`)));
  return constantTimeEqual(hash, challenge.challenge) ? null : 'invalid';
}

/**
 * Finds the number, hashing `chunk` candidates per turn and yielding between turns so a page
 * stays responsive; `onProgress` hears the share of the range tried (0..1). Resolves null when
 * the range holds no solution; rejects with the signal's reason when aborted.
 */
export async function solvePowChallenge(
  challenge: Pick<PowChallenge, 'challenge' | 'salt' | 'maxnumber'>,
  options: {
    signal?: AbortSignal;
    onProgress?: (share: number) => void;
    chunk?: number;
    yieldTurn?: () => Promise<void>;
  } = {},
): Promise<number | null> {
  const target = hexToBytes(challenge.challenge);
  const chunk = options.chunk ?? 5000;
  const yieldTurn =
    options.yieldTurn ?? (() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  for (let start = 0; start <= challenge.maxnumber; start += chunk) {
    options.signal?.throwIfAborted();
    const end = Math.min(challenge.maxnumber, start + chunk - 1);
    for (let number = start; number <= end; number += 1) {
      if (bytesEqual(sha256(utf8Encode(`${challenge.salt}${number}`)), target)) {
        options.onProgress?.(1);
        return number;
      }
    }
    options.onProgress?.((end + 1) / (challenge.maxnumber + 1));
    await yieldTurn();
  }
  return null;
}

function hexToBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i += 1) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
