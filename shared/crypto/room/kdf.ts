/**
 * HKDF-SHA-256 (RFC 5869) and the domain-separation labels of room encryption. Every key that
 * room encryption derives comes from one {@link hkdf} call whose `info` starts with one of
 * {@link KDF_LABELS}, so no two constructions can ever derive the same key from the same secret:
 *
 * ```
 * info = UTF-8(label) ‖ context…          e.g. "securechannel/v1/message/E2EE-AES" ‖ u32be(i)
 * OKM  = HKDF-Expand(HKDF-Extract(salt, IKM), info, L)          RFC 5869 §2.2, §2.3
 * ```
 *
 * An absent salt is HKDF's default: HashLen (32) zero bytes (RFC 5869 §2.2).
 */
import { hkdf as nobleHkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, utf8Encode } from '../bytes.js';

/** Prefix of every label: the product and the version of these constructions. */
export const KDF_LABEL_PREFIX = 'securechannel/v1/';

/**
 * The `info` labels, one per derived key. Changing one changes every key it derives (and the
 * known-answer vectors): treat them as part of the wire format.
 */
export const KDF_LABELS = {
  /** Sender-key ratchet: chainKey₀ = HKDF(SKc, info = this). */
  ratchetSeed: `${KDF_LABEL_PREFIX}ratchet/seed`,
  /** Pairwise wrap, ECDH P-256 only. */
  pairwiseClassic: `${KDF_LABEL_PREFIX}pairwise-wrap/classic`,
  /** Pairwise wrap, ECDH P-256 + ML-KEM-768. */
  pairwiseHybrid: `${KDF_LABEL_PREFIX}pairwise-wrap/hybrid`,
  /** `PFS-ECDH`: AES-256-GCM key from the ratchet's message key. */
  pfsEcdh: `${KDF_LABEL_PREFIX}message/PFS-ECDH`,
  /** `AES-256-GCM`: the per-message key-encryption key from the ratchet's message key. */
  aesGcmKek: `${KDF_LABEL_PREFIX}message/AES-256-GCM/kek`,
  /** `AES-256-CBC`: encryption key ‖ MAC key from the ratchet's message key. */
  aesCbc: `${KDF_LABEL_PREFIX}message/AES-256-CBC`,
  /** `E2EE-AES`: per-iteration key from the ratchet's message key. */
  e2eeAes: `${KDF_LABEL_PREFIX}message/E2EE-AES`,
  /** `quantum`: per-iteration key from the ratchet's message key and SKq. */
  quantum: `${KDF_LABEL_PREFIX}message/quantum`,
} as const;

/** One of {@link KDF_LABELS}. */
export type KdfLabel = (typeof KDF_LABELS)[keyof typeof KDF_LABELS];

/** Largest output of HKDF-SHA-256: 255 × HashLen bytes (RFC 5869 §2.3). */
export const HKDF_SHA256_MAX_BYTES = 255 * 32;

/**
 * HKDF-SHA-256 (RFC 5869): `length` bytes of output keying material.
 * @param ikm - the input keying material (a shared secret or a sender key).
 * @param salt - a non-secret salt, or `null` for the default of 32 zero bytes.
 * @param info - the context: a label from {@link KDF_LABELS} and its parameters.
 * @throws RangeError when `length` is not an integer in 1..8160.
 */
export function hkdf(
  ikm: Uint8Array,
  salt: Uint8Array | null,
  info: Uint8Array,
  length: number,
): Uint8Array {
  if (!Number.isInteger(length) || length < 1 || length > HKDF_SHA256_MAX_BYTES) {
    throw new RangeError(`HKDF-SHA-256 output is 1..${HKDF_SHA256_MAX_BYTES} bytes`);
  }
  return nobleHkdf(sha256, ikm, salt ?? undefined, info, length);
}

/**
 * A 32-bit unsigned integer as 4 big-endian bytes (network order).
 * @throws RangeError when `value` is not an integer in 0..2³²−1.
 */
export function uint32BigEndian(value: number): Uint8Array {
  if (!Number.isInteger(value) || value < 0 || value > 0xffff_ffff) {
    throw new RangeError('Not a 32-bit unsigned integer');
  }
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value);
  return bytes;
}

/** `info` = UTF-8(`label`) ‖ `parts[0]` ‖ `parts[1]` ‖ … */
export function labelInfo(label: KdfLabel, ...parts: readonly Uint8Array[]): Uint8Array {
  return concatBytes(utf8Encode(label), ...parts);
}

/**
 * `info` of a per-iteration message key: UTF-8(`label`) ‖ u32be(`iteration`).
 * @throws RangeError when `iteration` is not a 32-bit unsigned integer.
 */
export function iterationInfo(label: KdfLabel, iteration: number): Uint8Array {
  return labelInfo(label, uint32BigEndian(iteration));
}

/** SHA-256 (FIPS 180-4) of `bytes`: 32 bytes. */
export function sha256Bytes(bytes: Uint8Array): Uint8Array {
  return sha256(bytes);
}

/** Overwrites each given array with zeros: secrets that are no longer needed. */
export function wipe(...secrets: readonly (Uint8Array | null | undefined)[]): void {
  for (const secret of secrets) secret?.fill(0);
}
