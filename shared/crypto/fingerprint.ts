/**
 * The key fingerprint: what a user compares to recognise a key, and what the key file's
 * `fingerprint` field holds (DESIGN.md, "Wire formats the specs leave open").
 *
 * ```
 * fingerprint = lowercase hex( SHA-256( dilithiumPublicKey (1952) ‖ ecdsaPublicKey (65) ) )
 *             = 64 hex digits
 * ```
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, toHex } from './bytes.js';

export { FINGERPRINT_PATTERN } from './fingerprint-pattern.js';

/** Lowercase hex SHA-256 of `bytes` (FIPS 180-4). */
export function sha256Hex(bytes: Uint8Array): string {
  return toHex(sha256(bytes));
}

/** The fingerprint of a key pair's public halves: hex SHA-256 of ML-DSA-65 key ‖ ECDSA key. */
export function computeKeyFingerprint(
  dilithiumPublicKey: Uint8Array,
  ecdsaPublicKey: Uint8Array,
): string {
  return sha256Hex(concatBytes(dilithiumPublicKey, ecdsaPublicKey));
}
