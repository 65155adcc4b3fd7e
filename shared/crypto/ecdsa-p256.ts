/**
 * ECDSA over P-256 with SHA-256 (FIPS 186-5), the key file's second signature scheme.
 *
 * Signing and verifying go through WebCrypto (`globalThis.crypto.subtle`), present in every
 * browser and in Node 20. Key generation uses `@noble/curves` instead, because WebCrypto cannot
 * take a seed: drawing the secret from an injectable random source is what lets tests and
 * fixtures produce the same key twice. The resulting PKCS#8 bytes are the ones WebCrypto itself
 * exports, and WebCrypto imports them for every signature.
 *
 * Byte formats:
 *
 * ```
 * public key   65 bytes   04 ‖ X (32) ‖ Y (32)        SEC 1 §2.3.3, uncompressed point
 * signature    64 bytes   r (32) ‖ s (32)             IEEE P1363, WebCrypto's ECDSA output
 * private key 138 bytes   PKCS#8 (RFC 5208) wrapping an RFC 5915 ECPrivateKey:
 *   30 81 87                       SEQUENCE
 *     02 01 00                       INTEGER 0                  version
 *     30 13                          SEQUENCE                   AlgorithmIdentifier
 *       06 07 2a8648ce3d0201           OID 1.2.840.10045.2.1    id-ecPublicKey
 *       06 08 2a8648ce3d030107         OID 1.2.840.10045.3.1.7  prime256v1
 *     04 6d                          OCTET STRING
 *       30 6b                          SEQUENCE                 ECPrivateKey
 *         02 01 01                       INTEGER 1
 *         04 20 <d, 32 bytes>            OCTET STRING           the secret scalar
 *         a1 44 03 42 00 <65 bytes>      [1] BIT STRING         the public point
 * ```
 */
import { p256 } from '@noble/curves/nist.js';
import { ECDSA_P256_PUBLIC_KEY_BYTES, ECDSA_P256_SIGNATURE_BYTES } from '../constants.js';
import { randomBytes } from '../ids.js';
import { concatBytes, hexToBytes, toArrayBufferBytes, type RandomBytesSource } from './bytes.js';

/** A WebCrypto key, named without the DOM lib so the type also exists in Node-only builds. */
export type WebCryptoKey = Awaited<ReturnType<(typeof globalThis.crypto.subtle)['importKey']>>;

/** An ECDSA P-256 key pair in its key-file form. */
export interface EcdsaKeyPair {
  /** Raw uncompressed point, 65 bytes. */
  publicKey: Uint8Array;
  /** PKCS#8 DER, 138 bytes when made here; never leaves the key file. */
  privateKey: Uint8Array;
}

/** Bytes drawn for one secret scalar: 48 = 32 + 16, so reducing mod n leaves negligible bias. */
const SECRET_SEED_BYTES = 48;
const ECDSA_PARAMS = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGN_PARAMS = { name: 'ECDSA', hash: 'SHA-256' } as const;
const PKCS8_PREFIX = hexToBytes(
  '308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420',
);
const PKCS8_PUBLIC_KEY_TAG = hexToBytes('a144034200');

/**
 * A new ECDSA P-256 key pair. The secret scalar is derived from 48 bytes of `random`
 * (FIPS 186-5 A.2.1: reduce mod n − 1, add 1), so an injected seeded source reproduces the pair.
 */
export function generateEcdsaKeyPair(random: RandomBytesSource = randomBytes): EcdsaKeyPair {
  const secretKey = p256.utils.randomSecretKey(random(SECRET_SEED_BYTES));
  const publicKey = p256.getPublicKey(secretKey, false);
  const privateKey = concatBytes(PKCS8_PREFIX, secretKey, PKCS8_PUBLIC_KEY_TAG, publicKey);
  secretKey.fill(0);
  return { publicKey, privateKey };
}

/**
 * True when `publicKey` is a 65-byte uncompressed point that lies on P-256. Checked before every
 * import so that browsers and Node agree on what is malformed.
 */
export function isEcdsaPublicKey(publicKey: Uint8Array): boolean {
  if (!(publicKey instanceof Uint8Array)) return false;
  if (publicKey.length !== ECDSA_P256_PUBLIC_KEY_BYTES || publicKey[0] !== 0x04) return false;
  return p256.utils.isValidPublicKey(publicKey, false);
}

/**
 * The WebCrypto verifying key for a raw uncompressed point.
 * @throws RangeError when the point is malformed or not on the curve.
 */
export async function importEcdsaPublicKey(publicKey: Uint8Array): Promise<WebCryptoKey> {
  if (!isEcdsaPublicKey(publicKey)) throw new RangeError('Invalid ECDSA P-256 public key');
  return globalThis.crypto.subtle.importKey(
    'raw',
    toArrayBufferBytes(publicKey),
    ECDSA_PARAMS,
    true,
    ['verify'],
  );
}

/**
 * The WebCrypto signing key for PKCS#8 bytes. The key is not extractable: once imported, the
 * secret cannot be read back out of WebCrypto.
 * @throws from WebCrypto (a `DOMException` or `Error`) when the bytes are not a P-256 PKCS#8 key.
 */
export async function importEcdsaPrivateKey(privateKey: Uint8Array): Promise<WebCryptoKey> {
  return globalThis.crypto.subtle.importKey(
    'pkcs8',
    toArrayBufferBytes(privateKey),
    ECDSA_PARAMS,
    false,
    ['sign'],
  );
}

/**
 * The 64-byte signature r ‖ s of SHA-256(`message`) under `privateKey` (PKCS#8 bytes or an
 * imported key). Randomized: two signatures of one message differ, and both verify.
 * @throws when the private key cannot be imported.
 */
export async function signEcdsa(
  message: Uint8Array,
  privateKey: Uint8Array | WebCryptoKey,
): Promise<Uint8Array> {
  const key =
    privateKey instanceof Uint8Array ? await importEcdsaPrivateKey(privateKey) : privateKey;
  const signature = await globalThis.crypto.subtle.sign(
    SIGN_PARAMS,
    key,
    toArrayBufferBytes(message),
  );
  return new Uint8Array(signature);
}

/**
 * True when `signature` (64 bytes, r ‖ s) is a valid signature of `message` under the raw
 * uncompressed point `publicKey`. Never throws: malformed keys and signatures give `false`.
 */
export async function verifyEcdsa(
  signature: Uint8Array,
  message: Uint8Array,
  publicKey: Uint8Array,
): Promise<boolean> {
  if (!(signature instanceof Uint8Array) || signature.length !== ECDSA_P256_SIGNATURE_BYTES) {
    return false;
  }
  if (!(message instanceof Uint8Array) || !isEcdsaPublicKey(publicKey)) return false;
  try {
    const key = await importEcdsaPublicKey(publicKey);
    return await globalThis.crypto.subtle.verify(
      SIGN_PARAMS,
      key,
      toArrayBufferBytes(signature),
      toArrayBufferBytes(message),
    );
  } catch {
    // WebCrypto rejects some malformed inputs instead of answering false; both mean "not valid".
    return false;
  }
}
