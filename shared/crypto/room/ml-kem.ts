/**
 * ML-KEM-768 (FIPS 203, security category 3) through `@noble/post-quantum`: the post-quantum half
 * of the hybrid pairwise wrap. Sizes (FIPS 203 Table 3):
 *
 * ```
 * encapsulation key (public)  1184 bytes   ByteEncode12(t̂) ‖ ρ
 * decapsulation key (secret)  2400 bytes   dk_PKE ‖ ek ‖ H(ek) ‖ z
 * ciphertext                  1088 bytes   c1 ‖ c2
 * shared secret                 32 bytes
 * key-generation seed           64 bytes   d ‖ z        (ML-KEM.KeyGen_internal, Alg. 16)
 * encapsulation randomness      32 bytes   m            (ML-KEM.Encaps_internal, Alg. 17)
 * ```
 *
 * Decapsulation with the wrong key does not fail: it returns an unrelated secret (implicit
 * rejection, FIPS 203 §6.3), which then fails the AEAD tag.
 */
import { ml_kem768 } from '@noble/post-quantum/ml-kem.js';
import { randomBytes } from '../../ids.js';
import { type RandomBytesSource } from '../bytes.js';
import { wipe } from './kdf.js';
import { EncryptError } from './room-crypto-error.js';
import { ML_KEM_768_PUBLIC_KEY_BYTES, ML_KEM_768_SECRET_KEY_BYTES } from './ml-kem-sizes.js';

export { ML_KEM_768_PUBLIC_KEY_BYTES, ML_KEM_768_SECRET_KEY_BYTES } from './ml-kem-sizes.js';
/** ML-KEM-768 ciphertext length. */
export const ML_KEM_768_CIPHERTEXT_BYTES = 1088;
/** ML-KEM shared secret length. */
export const ML_KEM_SHARED_SECRET_BYTES = 32;
/** Key-generation seed d ‖ z. */
export const ML_KEM_768_SEED_BYTES = 64;
/** Encapsulation randomness m. */
export const ML_KEM_ENCAPSULATION_RANDOM_BYTES = 32;

/** An ML-KEM-768 key pair as raw bytes. */
export interface MlKemKeyPair {
  /** 1184 bytes: what other members receive. */
  publicKey: Uint8Array;
  /** 2400 bytes: never leaves the member's browser. */
  secretKey: Uint8Array;
}

/** What an encapsulation gives the sender. */
export interface MlKemEncapsulation {
  /** 1088 bytes, sent to the key's owner. */
  cipherText: Uint8Array;
  /** 32 bytes; the sender wipes it once used. */
  sharedSecret: Uint8Array;
}

/**
 * A new ML-KEM-768 key pair: from a 64-byte `seed` (reproducible) or from `globalThis.crypto`.
 * @throws RangeError when `seed` is given and is not 64 bytes.
 */
export function generateMlKemKeyPair(seed?: Uint8Array): MlKemKeyPair {
  if (seed !== undefined && seed.length !== ML_KEM_768_SEED_BYTES) {
    throw new RangeError('An ML-KEM-768 seed is 64 bytes');
  }
  const { publicKey, secretKey } = ml_kem768.keygen(seed);
  return { publicKey, secretKey };
}

/**
 * Encapsulates a fresh shared secret to `publicKey`, drawing m from `random`.
 * @throws EncryptError `INVALID_KEY` when `publicKey` is not a valid 1184-byte encapsulation key
 * (the FIPS 203 §7.2 modulus check included).
 */
export function encapsulateMlKem(
  publicKey: Uint8Array,
  random: RandomBytesSource = randomBytes,
): MlKemEncapsulation {
  if (publicKey.length !== ML_KEM_768_PUBLIC_KEY_BYTES) throw new EncryptError('INVALID_KEY');
  const message = random(ML_KEM_ENCAPSULATION_RANDOM_BYTES);
  try {
    const { cipherText, sharedSecret } = ml_kem768.encapsulate(publicKey, message);
    return { cipherText, sharedSecret };
  } catch (error) {
    throw new EncryptError('INVALID_KEY', { cause: error });
  } finally {
    // m is the preimage of the shared secret; the library leaves a caller-supplied m alone.
    wipe(message);
  }
}

/**
 * The shared secret of `cipherText` under `secretKey`, or `null` when either has the wrong size
 * or the library refuses the key. A wrong but well-formed key yields an unrelated secret.
 */
export function decapsulateMlKem(cipherText: Uint8Array, secretKey: Uint8Array): Uint8Array | null {
  if (cipherText.length !== ML_KEM_768_CIPHERTEXT_BYTES) return null;
  if (secretKey.length !== ML_KEM_768_SECRET_KEY_BYTES) return null;
  try {
    return ml_kem768.decapsulate(cipherText, secretKey);
  } catch {
    return null;
  }
}
