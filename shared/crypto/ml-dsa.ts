/**
 * ML-DSA-65 (FIPS 204, security category 3) through `@noble/post-quantum`. The key file's
 * `dilithiumPublicKey` / `dilithiumPrivateKey` / `selfSignature` and the login's
 * `dilithiumSignature` are these byte strings:
 *
 * ```
 * public key  1952 bytes  pkEncode(ρ, t1)                  FIPS 204 Alg. 22
 * secret key  4032 bytes  skEncode(ρ, K, tr, s1, s2, t0)   FIPS 204 Alg. 24
 * signature   3309 bytes  sigEncode(c̃, z, h)               FIPS 204 Alg. 26
 * ```
 *
 * Signatures use the pure (non-prehash) variant with an empty context string.
 */
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';
import {
  ML_DSA_65_PRIVATE_KEY_BYTES,
  ML_DSA_65_PUBLIC_KEY_BYTES,
  ML_DSA_65_SIGNATURE_BYTES,
} from '../constants.js';

/** Length of the optional key-generation seed ξ, in bytes (FIPS 204 Alg. 1). */
export const ML_DSA_65_SEED_BYTES = 32;

/** An ML-DSA-65 key pair as raw bytes. */
export interface MlDsaKeyPair {
  /** 1952 bytes. */
  publicKey: Uint8Array;
  /** 4032 bytes; never leaves the key file. */
  secretKey: Uint8Array;
}

/** Options of {@link signMlDsa}. */
export interface MlDsaSignOptions {
  /**
   * The 32-byte `rnd` of FIPS 204 Alg. 2. Omitted: fresh random bytes (hedged signing, the
   * default and the right choice in production). `false`: all zeros, the deterministic variant,
   * used only for reproducible test vectors. A given 32-byte value makes a signature reproducible
   * from injected randomness.
   */
  extraEntropy?: Uint8Array | false;
}

/**
 * A new ML-DSA-65 key pair. With a 32-byte `seed` (ξ) the pair is fully determined by it
 * (ML-DSA.KeyGen_internal, FIPS 204 Alg. 6); without one, ξ comes from `globalThis.crypto`.
 * @throws RangeError when `seed` is given and is not 32 bytes.
 */
export function generateMlDsaKeyPair(seed?: Uint8Array): MlDsaKeyPair {
  if (seed !== undefined && seed.length !== ML_DSA_65_SEED_BYTES) {
    throw new RangeError(`An ML-DSA-65 seed is ${ML_DSA_65_SEED_BYTES} bytes`);
  }
  const { publicKey, secretKey } = ml_dsa65.keygen(seed);
  return { publicKey, secretKey };
}

/**
 * The 3309-byte ML-DSA-65 signature of `message` under `secretKey`.
 * @throws RangeError when `secretKey` is not 4032 bytes; Error from the library when its
 * coefficients are out of range.
 */
export function signMlDsa(
  message: Uint8Array,
  secretKey: Uint8Array,
  options: MlDsaSignOptions = {},
): Uint8Array {
  if (secretKey.length !== ML_DSA_65_PRIVATE_KEY_BYTES) {
    throw new RangeError(`An ML-DSA-65 secret key is ${ML_DSA_65_PRIVATE_KEY_BYTES} bytes`);
  }
  const signOptions =
    options.extraEntropy === undefined ? {} : { extraEntropy: options.extraEntropy };
  return ml_dsa65.sign(message, secretKey, signOptions);
}

/**
 * True when `signature` is a valid ML-DSA-65 signature of `message` under `publicKey`.
 * Never throws: wrong lengths, non-byte inputs and undecodable values all give `false`.
 */
export function verifyMlDsa(
  signature: Uint8Array,
  message: Uint8Array,
  publicKey: Uint8Array,
): boolean {
  if (!(signature instanceof Uint8Array) || signature.length !== ML_DSA_65_SIGNATURE_BYTES) {
    return false;
  }
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== ML_DSA_65_PUBLIC_KEY_BYTES) {
    return false;
  }
  if (!(message instanceof Uint8Array)) return false;
  try {
    return ml_dsa65.verify(signature, message, publicKey);
  } catch {
    // The library throws on undecodable input; to a caller that is simply "not valid".
    return false;
  }
}

/**
 * The public key that belongs to `secretKey`, recomputed from ρ, s1 and s2, or `null` when the
 * secret key is malformed (wrong length, coefficients out of range). Never throws.
 */
export function deriveMlDsaPublicKey(secretKey: Uint8Array): Uint8Array | null {
  if (!(secretKey instanceof Uint8Array) || secretKey.length !== ML_DSA_65_PRIVATE_KEY_BYTES) {
    return null;
  }
  try {
    // The library wipes buffers after use; a copy keeps the caller's key untouched whatever it does.
    return ml_dsa65.getPublicKey(new Uint8Array(secretKey));
  } catch {
    return null;
  }
}
