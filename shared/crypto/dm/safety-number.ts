/**
 * The safety number two people compare to know that each holds the other's real identity key
 * (docs/crypto.md, "Direct messages: safety number"), after Signal's numeric fingerprint
 * (libsignal `NumericFingerprintGenerator`, version 0):
 *
 * ```
 * h₀   = SHA-512( u16be(0) ‖ fp ‖ utf8(keyId) )        fp: the 32-byte identity fingerprint,
 * hᵢ₊₁ = SHA-512( hᵢ ‖ fp )            × 5200               SHA-256(ML-DSA-65 key ‖ ECDSA key)
 * half = for each 5-byte chunk c of h[0..30): u40be(c) mod 100000, as 5 digits   → 30 digits
 * safety number = the two halves in ascending order, concatenated                → 60 digits
 * ```
 *
 * Sorting the halves makes it the same on both sides, whoever computes it. It changes when
 * either identity key changes.
 */
import { sha512 } from '@noble/hashes/sha2.js';
import { concatBytes, hexToBytes, utf8Encode } from '../bytes.js';
import { FINGERPRINT_PATTERN } from '../fingerprint.js';

/** Hash iterations per half (libsignal's value). */
export const SAFETY_NUMBER_ITERATIONS = 5200;
/** Digits per group as shown, and groups in all. */
export const SAFETY_NUMBER_GROUP_DIGITS = 5;
export const SAFETY_NUMBER_GROUPS = 12;

/** One identity: its keyId and its fingerprint (64 lowercase hex digits). */
export interface SafetyIdentity {
  keyId: string;
  fingerprint: string;
}

function half({ keyId, fingerprint }: SafetyIdentity): string {
  if (!FINGERPRINT_PATTERN.test(fingerprint)) throw new RangeError('Malformed fingerprint');
  const fp = hexToBytes(fingerprint);
  let hash = sha512(concatBytes(new Uint8Array([0, 0]), fp, utf8Encode(keyId)));
  for (let i = 0; i < SAFETY_NUMBER_ITERATIONS; i += 1) hash = sha512(concatBytes(hash, fp));
  let digits = '';
  for (let offset = 0; offset < 30; offset += 5) {
    let chunk = 0;
    for (let i = 0; i < 5; i += 1) chunk = chunk * 256 + hash[offset + i]!;
    digits += String(chunk % 100000).padStart(5, '0');
  }
  return digits;
}

/** The 60-digit safety number of two identities; the same whichever order they are given in. */
export function computeSafetyNumber(a: SafetyIdentity, b: SafetyIdentity): string {
  const halves = [half(a), half(b)].sort();
  return halves.join('');
}

/** The safety number as shown: twelve groups of five digits. */
export function safetyNumberGroups(safetyNumber: string): string[] {
  const groups: string[] = [];
  for (let i = 0; i < safetyNumber.length; i += SAFETY_NUMBER_GROUP_DIGITS) {
    groups.push(safetyNumber.slice(i, i + SAFETY_NUMBER_GROUP_DIGITS));
  }
  return groups;
}
