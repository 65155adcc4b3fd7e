import { describe, expect, it } from 'vitest';
import {
  ML_DSA_65_PRIVATE_KEY_BYTES,
  ML_DSA_65_PUBLIC_KEY_BYTES,
  ML_DSA_65_SIGNATURE_BYTES,
} from '../../../../shared/constants.js';
import { utf8Encode } from '../../../../shared/crypto/bytes.js';
import {
  deriveMlDsaPublicKey,
  generateMlDsaKeyPair,
  signMlDsa,
  verifyMlDsa,
} from '../../../../shared/crypto/ml-dsa.js';
import { flipBit } from '../../../support/bytes.js';

const seed = Uint8Array.from({ length: 32 }, (_, index) => 255 - index);
const keys = generateMlDsaKeyPair(seed);
const message = utf8Encode('challenge-1234');

describe('ML-DSA-65', () => {
  it('makes keys and signatures of the sizes in spec 000 §9', () => {
    expect(keys.publicKey).toHaveLength(ML_DSA_65_PUBLIC_KEY_BYTES);
    expect(keys.secretKey).toHaveLength(ML_DSA_65_PRIVATE_KEY_BYTES);
    expect(signMlDsa(message, keys.secretKey)).toHaveLength(ML_DSA_65_SIGNATURE_BYTES);
  });

  it('derives the same key pair from the same seed, and another from another seed', () => {
    const again = generateMlDsaKeyPair(Uint8Array.from(seed));
    expect(again.publicKey).toEqual(keys.publicKey);
    expect(again.secretKey).toEqual(keys.secretKey);
    expect(generateMlDsaKeyPair(new Uint8Array(32)).publicKey).not.toEqual(keys.publicKey);
  });

  it('refuses a seed that is not 32 bytes', () => {
    expect(() => generateMlDsaKeyPair(new Uint8Array(31))).toThrow(RangeError);
  });

  it('accepts a hedged signature, and two hedged signatures of one message differ', () => {
    const first = signMlDsa(message, keys.secretKey);
    const second = signMlDsa(message, keys.secretKey);
    expect(first).not.toEqual(second);
    expect(verifyMlDsa(first, message, keys.publicKey)).toBe(true);
    expect(verifyMlDsa(second, message, keys.publicKey)).toBe(true);
  });

  it('signs deterministically when extraEntropy is false', () => {
    const first = signMlDsa(message, keys.secretKey, { extraEntropy: false });
    expect(signMlDsa(message, keys.secretKey, { extraEntropy: false })).toEqual(first);
  });

  it('rejects a signature with one flipped bit, or over another message, or another key', () => {
    const signature = signMlDsa(message, keys.secretKey);
    expect(verifyMlDsa(flipBit(signature, 100), message, keys.publicKey)).toBe(false);
    expect(verifyMlDsa(signature, flipBit(message, 0), keys.publicKey)).toBe(false);
    const other = generateMlDsaKeyPair(new Uint8Array(32));
    expect(verifyMlDsa(signature, message, other.publicKey)).toBe(false);
  });

  it('answers false, without throwing, for malformed signatures and keys', () => {
    const signature = signMlDsa(message, keys.secretKey);
    expect(verifyMlDsa(signature.subarray(1), message, keys.publicKey)).toBe(false);
    expect(verifyMlDsa(signature, message, keys.publicKey.subarray(1))).toBe(false);
    expect(verifyMlDsa(new Uint8Array(3309).fill(255), message, keys.publicKey)).toBe(false);
    expect(verifyMlDsa(signature, message, new Uint8Array(1952).fill(255))).toBe(false);
    // Outside data may not be bytes at all, whatever the static types say.
    const notBytes = [1, 2, 3] as unknown as Uint8Array;
    expect(verifyMlDsa(notBytes, message, keys.publicKey)).toBe(false);
    expect(verifyMlDsa(signature, notBytes, keys.publicKey)).toBe(false);
  });

  it('recomputes the public key from the secret key and gives null for a malformed one', () => {
    expect(deriveMlDsaPublicKey(keys.secretKey)).toEqual(keys.publicKey);
    expect(deriveMlDsaPublicKey(keys.secretKey.subarray(1))).toBeNull();
    expect(deriveMlDsaPublicKey(new Uint8Array(4032).fill(255))).toBeNull();
  });
});
