/**
 * Signed image uploads (spec 000 §9: "requests signed with Ed25519"). The browser signs, with a
 * per-session Ed25519 key, the canonical JSON of
 *   { roomId, image: SHA-256(ciphertext) hex, thumbnail: SHA-256(thumbnail ciphertext) hex | null,
 *     timestamp: ms }
 * so that the server can refuse a tampered or replayed upload and members can check that an
 * image was uploaded by the key that announced it. The image key is never part of it.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { toHex } from '../ids.js';
import { canonicalJson } from './canonical-json.js';
import { utf8Encode } from './bytes.js';

/** What an upload signature covers. */
export interface UploadClaims {
  roomId: string;
  image: string;
  thumbnail: string | null;
  timestamp: number;
}

/** Lowercase hex SHA-256 of `bytes`. */
export function digestHex(bytes: Uint8Array): string {
  return toHex(sha256(bytes));
}

/** The bytes that are signed. */
export function uploadSignedBytes(claims: UploadClaims): Uint8Array {
  return utf8Encode(canonicalJson({ ...claims }));
}

/** A new Ed25519 key pair for signing uploads in this session. */
export function generateUploadKeyPair(): { secretKey: Uint8Array; publicKey: Uint8Array } {
  const secretKey = ed25519.utils.randomSecretKey();
  return { secretKey, publicKey: ed25519.getPublicKey(secretKey) };
}

export function signUpload(claims: UploadClaims, secretKey: Uint8Array): Uint8Array {
  return ed25519.sign(uploadSignedBytes(claims), secretKey);
}

/** True for a valid signature; false (never a throw) for anything malformed. */
export function verifyUpload(
  claims: UploadClaims,
  signature: Uint8Array,
  publicKey: Uint8Array,
): boolean {
  try {
    return ed25519.verify(signature, uploadSignedBytes(claims), publicKey);
  } catch {
    return false;
  }
}
