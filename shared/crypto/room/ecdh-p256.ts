/**
 * ECDH over P-256 (SP 800-56A rev. 3, §5.7.1.2) through WebCrypto: a member's per-session key
 * agreement key. The shared secret is the x-coordinate of d_A·Q_B, 32 bytes; it is never used as
 * a key directly, only as HKDF input keying material.
 *
 * ```
 * public key   65 bytes   04 ‖ X (32) ‖ Y (32)    SEC 1 §2.3.3, uncompressed point
 * private key  PKCS#8 (RFC 5208) id-ecPublicKey / prime256v1, the same bytes ecdsa-p256.ts writes
 * secret       32 bytes   X coordinate of the shared point
 * ```
 *
 * Production keys come from {@link generateEcdhKeyPair}: the private key is a non-extractable
 * `CryptoKey` that script can use but never read. {@link generateEcdhKeyPairBytes} exists for
 * seeded tests and fixtures, whose keys must be reproducible.
 */
import { randomBytes } from '../../ids.js';
import { type RandomBytesSource } from '../bytes.js';
import { generateEcdsaKeyPair, isEcdsaPublicKey } from '../ecdsa-p256.js';
import { EncryptError } from './room-crypto-error.js';
import { bufferSource, isWebCryptoKey, subtle, type WebCryptoKey } from './webcrypto.js';

/** Length of the ECDH P-256 shared secret in bytes. */
export const ECDH_P256_SECRET_BYTES = 32;

const ECDH_PARAMS = { name: 'ECDH', namedCurve: 'P-256' } as const;

/** A key pair whose private half lives inside WebCrypto. */
export interface EcdhKeyPair {
  /** Raw uncompressed point, 65 bytes: what other members receive. */
  publicKey: Uint8Array;
  /** Non-extractable, usable only for `deriveBits`. */
  privateKey: WebCryptoKey;
}

/** An ECDH private key: a WebCrypto key, or PKCS#8 bytes imported on use. */
export type EcdhPrivateKey = WebCryptoKey | Uint8Array;

/** A new ECDH P-256 key pair from WebCrypto, private key non-extractable. */
export async function generateEcdhKeyPair(): Promise<EcdhKeyPair> {
  const pair = await subtle().generateKey(ECDH_PARAMS, false, ['deriveBits']);
  const publicKey = new Uint8Array(await subtle().exportKey('raw', pair.publicKey));
  return { publicKey, privateKey: pair.privateKey };
}

/**
 * A reproducible ECDH P-256 key pair as bytes (raw point, PKCS#8), drawn from `random`. PKCS#8
 * for id-ecPublicKey names no algorithm, so the key-file generator's encoding serves ECDH as is.
 * For tests and fixtures; production keys should come from {@link generateEcdhKeyPair}.
 */
export function generateEcdhKeyPairBytes(random: RandomBytesSource = randomBytes): {
  publicKey: Uint8Array;
  privateKey: Uint8Array;
} {
  return generateEcdsaKeyPair(random);
}

/**
 * The non-extractable WebCrypto ECDH key for PKCS#8 bytes.
 * @throws EncryptError `INVALID_KEY` when the bytes are not a P-256 PKCS#8 key.
 */
export async function importEcdhPrivateKey(pkcs8: Uint8Array): Promise<WebCryptoKey> {
  try {
    return await subtle().importKey('pkcs8', bufferSource(pkcs8), ECDH_PARAMS, false, [
      'deriveBits',
    ]);
  } catch (error) {
    throw new EncryptError('INVALID_KEY', { cause: error });
  }
}

/**
 * The WebCrypto ECDH public key for a raw point, checked to lie on P-256 first (an invalid-curve
 * point must never reach the multiplication).
 * @throws EncryptError `INVALID_KEY` when the point is malformed or not on the curve.
 */
export async function importEcdhPublicKey(publicKey: Uint8Array): Promise<WebCryptoKey> {
  if (!isEcdsaPublicKey(publicKey)) throw new EncryptError('INVALID_KEY');
  return subtle().importKey('raw', bufferSource(publicKey), ECDH_PARAMS, true, []);
}

/**
 * The 32-byte ECDH shared secret of `privateKey` and the raw point `publicKey`. Both parties get
 * the same bytes. The caller wipes the result once it has been fed to HKDF.
 * @throws EncryptError `INVALID_KEY` on a malformed key.
 */
export async function deriveEcdhSecret(
  privateKey: EcdhPrivateKey,
  publicKey: Uint8Array,
): Promise<Uint8Array> {
  const ownKey = isWebCryptoKey(privateKey) ? privateKey : await importEcdhPrivateKey(privateKey);
  const peerKey = await importEcdhPublicKey(publicKey);
  try {
    const bits = await subtle().deriveBits(
      { name: 'ECDH', public: peerKey },
      ownKey,
      ECDH_P256_SECRET_BYTES * 8,
    );
    return new Uint8Array(bits);
  } catch (error) {
    throw new EncryptError('INVALID_KEY', { cause: error });
  }
}
