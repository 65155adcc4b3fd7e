/**
 * The server verifies ML-DSA-65 with liboqs in WebAssembly (server/features/auth/ml-dsa-verifier.mjs)
 * and keeps @noble/post-quantum, the library the browser signs with, as the reference. Both must
 * accept and refuse exactly the same 10,000 fixtures (issue 22, target 1): valid signatures,
 * signatures with one bit flipped (in c̃, in z and in the hint encoding), signatures checked
 * under another key, and signatures checked against another message.
 *
 * The fixtures are made deterministically, from fixed seeds: four key pairs, 1,000 messages of
 * 0–300 bytes signed by @noble in its deterministic variant, and seven bit flips per signature at
 * positions drawn from a seeded generator. The work is split over two files that run side by side
 * (`tests/unit/ml-dsa-differential.test.ts` and `…-second-half.test.ts`; one file alone was the
 * last of its group to end): each draws the whole seeded sequence, so a fixture is the same
 * whichever file makes it, and signs and checks only its half of the messages (message n belongs
 * to part n mod 2).
 */
import { createHash } from 'node:crypto';
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ML_DSA_65_SIGNATURE_BYTES,
  loadMlDsaVerifier,
  nobleMlDsaVerifier,
  type LoadedMlDsaVerifier,
  type MlDsaVerifier,
} from '../../server/features/auth/ml-dsa-verifier.mjs';
import { flipBit } from './bytes.js';

const KEYS = 4;
export const SIGNED_MESSAGES = 1000;
/** Bit flips per signature: one in c̃, three in z, three in the hint encoding. */
const FLIPS_PER_SIGNATURE = 7;
/** Fixtures per signed message: the valid one, its bit flips, another key, another message. */
const FIXTURES_PER_MESSAGE = 1 + FLIPS_PER_SIGNATURE + 2;
const C_TILDE_BYTES = 48;
/** ω + k for ML-DSA-65: the hint encoding at the end of the signature. */
const HINT_BYTES = 55 + 6;
/** The files the fixtures are split over. */
export const PARTS = 2;
/**
 * SHA-256 of each part's fixtures (kind, signature, message and public key of each, in order):
 * the same fixtures as the single file drew before the split, so a change to the seeded draws,
 * or a split that shifts them, is seen rather than silently testing other signatures.
 */
const FIXTURE_DIGESTS = [
  '6f87f3935d12a34de0a0b8ddaaf54e7bee90f7e6a636272ffe784f7d6d3121ed',
  '82068dd56da788a6934845454eb873527de0adc599a9b4d14dec2cd46f98c817',
];

type Kind = 'valid' | 'bit-flipped' | 'wrong-key' | 'wrong-message';

interface Fixture {
  /** The signed message it comes from (0 … 999). */
  messageIndex: number;
  kind: Kind;
  signature: Uint8Array;
  message: Uint8Array;
  publicKey: Uint8Array;
}

/** xorshift32: a small seeded generator, so that every run draws the same fixtures. */
function seeded(seed: number): (below: number) => number {
  let state = seed >>> 0 || 1;
  return (below) => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state % below;
  };
}

/** A copy of `bytes` with the bit at position `bit` (counted from the first byte's lowest) flipped. */
const flipBitAt = (bytes: Uint8Array, bit: number) => flipBit(bytes, bit >> 3, bit & 7);

/**
 * The fixtures of the messages `part` of `PARTS` signs. Every draw of the seeded sequence is
 * made for every message, signed here or not, so the fixtures do not depend on the split.
 */
export function makeFixtures(part: number): Fixture[] {
  const random = seeded(0x22_0001);
  const keys = Array.from({ length: KEYS }, (_, index) =>
    ml_dsa65.keygen(new Uint8Array(32).fill(index + 1)),
  );
  const zBits = (ML_DSA_65_SIGNATURE_BYTES - C_TILDE_BYTES - HINT_BYTES) * 8;
  const fixtures: Fixture[] = [];
  for (let n = 0; n < SIGNED_MESSAGES; n += 1) {
    const key = keys[n % KEYS]!;
    const other = keys[(n + 1) % KEYS]!;
    const length = n === 0 ? 0 : random(301);
    const message = Uint8Array.from({ length }, () => random(256));
    const bits = [
      random(C_TILDE_BYTES * 8),
      ...[0, 1, 2].map(() => C_TILDE_BYTES * 8 + random(zBits)),
      ...[0, 1, 2].map(() => (ML_DSA_65_SIGNATURE_BYTES - HINT_BYTES) * 8 + random(HINT_BYTES * 8)),
    ];
    const otherMessage =
      length === 0 ? Uint8Array.of(0) : flipBitAt(message, random(message.length * 8));
    if (n % PARTS !== part) continue;
    const signature = ml_dsa65.sign(message, key.secretKey, { extraEntropy: false });
    const of = { messageIndex: n, message, publicKey: key.publicKey };
    fixtures.push({ ...of, kind: 'valid', signature });
    for (const bit of bits)
      fixtures.push({ ...of, kind: 'bit-flipped', signature: flipBitAt(signature, bit) });
    fixtures.push({ ...of, kind: 'wrong-key', signature, publicKey: other.publicKey });
    fixtures.push({ ...of, kind: 'wrong-message', signature, message: otherMessage });
  }
  return fixtures;
}

function answers(verifier: MlDsaVerifier, fixtures: Fixture[]): boolean[] {
  return fixtures.map((fixture) =>
    verifier.verify(fixture.signature, fixture.message, fixture.publicKey),
  );
}

/** The differential test of one part: its fixtures, counted, and both verifiers' answers. */
export function describeDifferential(part: number): void {
  const messages = Array.from({ length: SIGNED_MESSAGES }, (_, n) => n).filter(
    (n) => n % PARTS === part,
  );

  describe(`ML-DSA-65: the fast verifier agrees with the reference (part ${part + 1} of ${PARTS})`, () => {
    let fixtures: Fixture[] = [];
    let fast: LoadedMlDsaVerifier;

    beforeAll(async () => {
      fast = await loadMlDsaVerifier();
      fixtures = makeFixtures(part);
    }, 300_000);

    it('loads the fast implementation here', () => {
      expect(fast.implementation).toBe('liboqs-wasm');
      expect(fast.fallbackReason).toBeNull();
    });

    it(`makes the ${(messages.length * FIXTURES_PER_MESSAGE).toLocaleString('en')} fixtures of its ${messages.length} messages, of the four kinds`, () => {
      expect([...new Set(fixtures.map((fixture) => fixture.messageIndex))]).toEqual(messages);
      const counts: Record<Kind, number> = {
        valid: 0,
        'bit-flipped': 0,
        'wrong-key': 0,
        'wrong-message': 0,
      };
      for (const fixture of fixtures) counts[fixture.kind] += 1;
      expect(fixtures).toHaveLength(messages.length * FIXTURES_PER_MESSAGE);
      expect(counts).toEqual({
        valid: messages.length,
        'bit-flipped': messages.length * FLIPS_PER_SIGNATURE,
        'wrong-key': messages.length,
        'wrong-message': messages.length,
      });
    });

    it('draws the same fixtures as every run before', () => {
      const hash = createHash('sha256');
      for (const fixture of fixtures) {
        hash.update(fixture.kind);
        hash.update(fixture.signature);
        hash.update(fixture.message);
        hash.update(fixture.publicKey);
      }
      expect(hash.digest('hex')).toBe(FIXTURE_DIGESTS[part]);
    });

    it('gives the same answer as @noble on every fixture', { timeout: 300_000 }, () => {
      const reference = answers(nobleMlDsaVerifier(), fixtures);
      const fastAnswers = answers(fast, fixtures);
      const disagreements = fixtures
        .map((fixture, index) => ({ index, kind: fixture.kind, reference: reference[index] }))
        .filter(({ index }) => reference[index] !== fastAnswers[index]);
      expect(disagreements).toEqual([]);
      // The fixtures mean what they say: exactly the valid ones are accepted.
      const accepted = fixtures.filter((_, index) => reference[index]).map((f) => f.kind);
      expect(accepted).toEqual(messages.map(() => 'valid'));
    });
  });
}
