/**
 * The server verifies ML-DSA-65 with liboqs in WebAssembly (server/features/auth/ml-dsa-verifier.mjs)
 * and keeps @noble/post-quantum, the library the browser signs with, as the reference. Both must
 * accept and refuse exactly the same 10,000 fixtures (issue 22, target 1): valid signatures,
 * signatures with one bit flipped (in c̃, in z and in the hint encoding), signatures checked
 * under another key, and signatures checked against another message.
 *
 * The fixtures are made here, deterministically, from fixed seeds: four key pairs, 1,000
 * messages of 0–300 bytes signed by @noble in its deterministic variant, and seven bit flips per
 * signature at positions drawn from a seeded generator.
 */
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ML_DSA_65_SIGNATURE_BYTES,
  loadMlDsaVerifier,
  nobleMlDsaVerifier,
  type LoadedMlDsaVerifier,
  type MlDsaVerifier,
} from '../../server/features/auth/ml-dsa-verifier.mjs';

const KEYS = 4;
const SIGNED_MESSAGES = 1000;
/** Bit flips per signature: one in c̃, three in z, three in the hint encoding. */
const FLIPS_PER_SIGNATURE = 7;
const C_TILDE_BYTES = 48;
/** ω + k for ML-DSA-65: the hint encoding at the end of the signature. */
const HINT_BYTES = 55 + 6;

type Kind = 'valid' | 'bit-flipped' | 'wrong-key' | 'wrong-message';

interface Fixture {
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

function flipBit(bytes: Uint8Array, bit: number): Uint8Array {
  const copy = bytes.slice();
  copy[bit >> 3] = copy[bit >> 3]! ^ (1 << (bit & 7));
  return copy;
}

function makeFixtures(): Fixture[] {
  const random = seeded(0x22_0001);
  const keys = Array.from({ length: KEYS }, (_, index) =>
    ml_dsa65.keygen(new Uint8Array(32).fill(index + 1)),
  );
  const fixtures: Fixture[] = [];
  for (let n = 0; n < SIGNED_MESSAGES; n += 1) {
    const key = keys[n % KEYS]!;
    const other = keys[(n + 1) % KEYS]!;
    const length = n === 0 ? 0 : random(301);
    const message = Uint8Array.from({ length }, () => random(256));
    const signature = ml_dsa65.sign(message, key.secretKey, { extraEntropy: false });
    fixtures.push({ kind: 'valid', signature, message, publicKey: key.publicKey });
    const zBits = (ML_DSA_65_SIGNATURE_BYTES - C_TILDE_BYTES - HINT_BYTES) * 8;
    const bits = [
      random(C_TILDE_BYTES * 8),
      ...[0, 1, 2].map(() => C_TILDE_BYTES * 8 + random(zBits)),
      ...[0, 1, 2].map(() => (ML_DSA_65_SIGNATURE_BYTES - HINT_BYTES) * 8 + random(HINT_BYTES * 8)),
    ];
    for (const bit of bits) {
      fixtures.push({
        kind: 'bit-flipped',
        signature: flipBit(signature, bit),
        message,
        publicKey: key.publicKey,
      });
    }
    fixtures.push({ kind: 'wrong-key', signature, message, publicKey: other.publicKey });
    const otherMessage =
      length === 0 ? Uint8Array.of(0) : flipBit(message, random(message.length * 8));
    fixtures.push({
      kind: 'wrong-message',
      signature,
      message: otherMessage,
      publicKey: key.publicKey,
    });
  }
  return fixtures;
}

function answers(verifier: MlDsaVerifier, fixtures: Fixture[]): boolean[] {
  return fixtures.map((fixture) =>
    verifier.verify(fixture.signature, fixture.message, fixture.publicKey),
  );
}

describe('ML-DSA-65: the fast verifier agrees with the reference', () => {
  let fixtures: Fixture[] = [];
  let fast: LoadedMlDsaVerifier;

  beforeAll(async () => {
    fast = await loadMlDsaVerifier();
    fixtures = makeFixtures();
  }, 300_000);

  it('loads the fast implementation here', () => {
    expect(fast.implementation).toBe('liboqs-wasm');
    expect(fast.fallbackReason).toBeNull();
  });

  it('makes 10,000 fixtures of the four kinds', () => {
    const counts: Record<Kind, number> = {
      valid: 0,
      'bit-flipped': 0,
      'wrong-key': 0,
      'wrong-message': 0,
    };
    for (const fixture of fixtures) counts[fixture.kind] += 1;
    expect(fixtures).toHaveLength(10_000);
    expect(counts).toEqual({
      valid: SIGNED_MESSAGES,
      'bit-flipped': SIGNED_MESSAGES * FLIPS_PER_SIGNATURE,
      'wrong-key': SIGNED_MESSAGES,
      'wrong-message': SIGNED_MESSAGES,
    });
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
    expect(accepted).toEqual(Array.from({ length: SIGNED_MESSAGES }, () => 'valid'));
  });
});

describe('ML-DSA-65 verifier loading', () => {
  it('falls back to @noble, and says why, when the fast one cannot load', async () => {
    const loaded = await loadMlDsaVerifier(() => Promise.reject(new Error('no WebAssembly here')));
    expect(loaded.implementation).toBe('noble-js');
    expect(loaded.fallbackReason).toBe('no WebAssembly here');
  });

  it('refuses a fast implementation that answers wrongly', async () => {
    const loaded = await loadMlDsaVerifier(() =>
      Promise.resolve({ implementation: 'liboqs-wasm', verify: () => true }),
    );
    expect(loaded.implementation).toBe('noble-js');
    expect(loaded.fallbackReason).toMatch(/altered signature was accepted/);
  });
});
