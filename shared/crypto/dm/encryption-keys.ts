/**
 * A key holder's encryption key pair for direct messages (docs/crypto.md, "Direct messages"):
 * hybrid ML-KEM-768 (FIPS 203) + X25519 (RFC 7748), made with the key file and bound to its
 * identity by an ML-DSA-65 signature over the canonical JSON of
 *   { keyId, kem: base64(1184-byte encapsulation key), x25519: base64(32-byte public key) }.
 * The public half is registered with the key; the private half stays in the key file.
 */
import { x25519 } from '@noble/curves/ed25519.js';
import { randomBytes } from '../../ids.js';
import {
  bytesToBase64,
  numbersToBytes,
  bytesToNumbers,
  utf8Encode,
  type RandomBytesSource,
} from '../bytes.js';
import { canonicalJson } from '../canonical-json.js';
import { signMlDsa, verifyMlDsa } from '../ml-dsa.js';
import { generateMlKemKeyPair } from '../room/ml-kem.js';
import { ML_KEM_768_PUBLIC_KEY_BYTES } from '../room/ml-kem-sizes.js';
import type { EncryptionPrivateKey, EncryptionPublicKey } from './encryption-key-schema.js';

export {
  EncryptionPrivateKeySchema,
  EncryptionPublicKeySchema,
  type EncryptionPrivateKey,
  type EncryptionPublicKey,
} from './encryption-key-schema.js';

/** A new encryption key pair; `random` is injectable for reproducible fixtures. */
export function generateEncryptionKeyPair(random: RandomBytesSource = randomBytes): {
  publicKey: EncryptionPublicKey;
  privateKey: EncryptionPrivateKey;
} {
  const kem = generateMlKemKeyPair(random(64));
  const xSecret = random(32);
  const xPublic = x25519.getPublicKey(xSecret);
  return {
    publicKey: { kem: bytesToNumbers(kem.publicKey), x25519: bytesToNumbers(xPublic) },
    privateKey: { kem: bytesToNumbers(kem.secretKey), x25519: bytesToNumbers(xSecret) },
  };
}

/** The bytes the identity signature covers. */
export function encryptionKeySignedMessage(
  keyId: string,
  publicKey: EncryptionPublicKey,
): Uint8Array {
  return utf8Encode(
    canonicalJson({
      keyId,
      kem: bytesToBase64(numbersToBytes(publicKey.kem)),
      x25519: bytesToBase64(numbersToBytes(publicKey.x25519)),
    }),
  );
}

/** ML-DSA-65 signature binding the encryption key to the key file's identity. */
export function signEncryptionKey(
  keyId: string,
  publicKey: EncryptionPublicKey,
  dilithiumSecretKey: Uint8Array,
): Uint8Array {
  return signMlDsa(encryptionKeySignedMessage(keyId, publicKey), dilithiumSecretKey);
}

/** True when `signature` binds `publicKey` to `keyId` under the identity's ML-DSA-65 key. */
export function verifyEncryptionKey(
  keyId: string,
  publicKey: EncryptionPublicKey,
  signature: Uint8Array,
  dilithiumPublicKey: Uint8Array,
): boolean {
  return verifyMlDsa(signature, encryptionKeySignedMessage(keyId, publicKey), dilithiumPublicKey);
}

/** True when the private half belongs to the public half (X25519 recomputed, ML-KEM key embedded). */
export function encryptionKeysMatch(
  publicKey: EncryptionPublicKey,
  privateKey: EncryptionPrivateKey,
): boolean {
  try {
    const xPublic = x25519.getPublicKey(numbersToBytes(privateKey.x25519));
    const sameX = bytesToBase64(xPublic) === bytesToBase64(numbersToBytes(publicKey.x25519));
    // FIPS 203: dk = dk_PKE (1152 bytes) ‖ ek (1184) ‖ H(ek) ‖ z.
    const embedded = numbersToBytes(privateKey.kem).slice(1152, 1152 + ML_KEM_768_PUBLIC_KEY_BYTES);
    return sameX && bytesToBase64(embedded) === bytesToBase64(numbersToBytes(publicKey.kem));
  } catch {
    return false;
  }
}
