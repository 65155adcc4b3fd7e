/**
 * RSA-OAEP with SHA-256 and MGF1-SHA-256 (RFC 8017 §7.1) through WebCrypto, 2048-bit modulus,
 * public exponent 65537: each member's per-session key for the `RSA-OAEP` message type.
 *
 * ```
 * public key   SPKI DER (RFC 5280 SubjectPublicKeyInfo, rsaEncryption): 294 bytes for 2048 bits
 * private key  PKCS#8 DER (RFC 5208), or better a non-extractable CryptoKey
 * ciphertext   256 bytes (k = modulus length)
 * label L      the message's AAD, so a wrapped key is bound to its message (RFC 8017 §7.1.1)
 * capacity     k − 2·hLen − 2 = 190 bytes per ciphertext (a content key is 32)
 * ```
 *
 * WebCrypto draws the OAEP seed itself: encryptions are randomized and cannot be reproduced, so
 * tests keep ciphertexts that must decrypt rather than exact outputs.
 */
import { DecryptError, EncryptError } from './room-crypto-error.js';
import { bufferSource, subtle, type WebCryptoKey } from './webcrypto.js';

/** Modulus length of every RSA-OAEP key here, in bits. */
export const RSA_OAEP_MODULUS_BITS = 2048;
/** Length of an RSA-OAEP ciphertext for a 2048-bit modulus, in bytes. */
export const RSA_OAEP_CIPHERTEXT_BYTES = RSA_OAEP_MODULUS_BITS / 8;

const RSA_IMPORT_PARAMS = { name: 'RSA-OAEP', hash: 'SHA-256' } as const;

/** An RSA-OAEP key pair; the private key is non-extractable when made here. */
export interface RsaOaepKeyPair {
  publicKey: WebCryptoKey;
  privateKey: WebCryptoKey;
}

/** A new 2048-bit RSA-OAEP-SHA-256 key pair from WebCrypto; the private key cannot be exported. */
export async function generateRsaOaepKeyPair(): Promise<RsaOaepKeyPair> {
  const pair = await subtle().generateKey(
    {
      ...RSA_IMPORT_PARAMS,
      modulusLength: RSA_OAEP_MODULUS_BITS,
      publicExponent: Uint8Array.of(1, 0, 1),
    },
    false,
    ['encrypt', 'decrypt'],
  );
  return { publicKey: pair.publicKey, privateKey: pair.privateKey };
}

/** The SPKI DER bytes of an RSA-OAEP public key: what other members receive. */
export async function exportRsaPublicKey(publicKey: WebCryptoKey): Promise<Uint8Array> {
  return new Uint8Array(await subtle().exportKey('spki', publicKey));
}

function hasExpectedModulus(key: WebCryptoKey): boolean {
  const { algorithm } = key;
  return 'modulusLength' in algorithm && algorithm.modulusLength === RSA_OAEP_MODULUS_BITS;
}

/**
 * The WebCrypto RSA-OAEP-SHA-256 public key for SPKI bytes.
 * @throws EncryptError `INVALID_KEY` when the bytes are not an RSA key of 2048 bits.
 */
export async function importRsaPublicKey(spki: Uint8Array): Promise<WebCryptoKey> {
  let key: WebCryptoKey;
  try {
    key = await subtle().importKey('spki', bufferSource(spki), RSA_IMPORT_PARAMS, true, [
      'encrypt',
    ]);
  } catch (error) {
    throw new EncryptError('INVALID_KEY', { cause: error });
  }
  if (!hasExpectedModulus(key)) throw new EncryptError('INVALID_KEY');
  return key;
}

/**
 * The non-extractable WebCrypto RSA-OAEP-SHA-256 private key for PKCS#8 bytes (fixtures, tests).
 * @throws EncryptError `INVALID_KEY` when the bytes are not an RSA key of 2048 bits.
 */
export async function importRsaPrivateKey(pkcs8: Uint8Array): Promise<WebCryptoKey> {
  let key: WebCryptoKey;
  try {
    key = await subtle().importKey('pkcs8', bufferSource(pkcs8), RSA_IMPORT_PARAMS, false, [
      'decrypt',
    ]);
  } catch (error) {
    throw new EncryptError('INVALID_KEY', { cause: error });
  }
  if (!hasExpectedModulus(key)) throw new EncryptError('INVALID_KEY');
  return key;
}

/**
 * RSAES-OAEP-ENCRYPT (RFC 8017 §7.1.1) of `data` (at most 190 bytes) with label `label`.
 * @throws EncryptError `INVALID_KEY` when the key is not an RSA-OAEP encryption key.
 */
export async function rsaOaepEncrypt(
  publicKey: WebCryptoKey,
  data: Uint8Array,
  label: Uint8Array,
): Promise<Uint8Array> {
  try {
    const params = { name: 'RSA-OAEP', label: bufferSource(label) };
    return new Uint8Array(await subtle().encrypt(params, publicKey, bufferSource(data)));
  } catch (error) {
    throw new EncryptError('INVALID_KEY', { cause: error });
  }
}

/**
 * RSAES-OAEP-DECRYPT (RFC 8017 §7.1.2) with label `label`.
 * @throws DecryptError `MALFORMED` for a ciphertext of the wrong size; `AUTH_FAILED` when OAEP
 * decoding fails (tampering, another label, another key). WebCrypto reports every decoding
 * failure alike, as RFC 8017 §7.1.2 requires against Manger's attack.
 */
export async function rsaOaepDecrypt(
  privateKey: WebCryptoKey,
  ciphertext: Uint8Array,
  label: Uint8Array,
): Promise<Uint8Array> {
  if (ciphertext.length !== RSA_OAEP_CIPHERTEXT_BYTES) throw new DecryptError('MALFORMED');
  try {
    const params = { name: 'RSA-OAEP', label: bufferSource(label) };
    return new Uint8Array(await subtle().decrypt(params, privateKey, bufferSource(ciphertext)));
  } catch (error) {
    throw new DecryptError('AUTH_FAILED', { cause: error });
  }
}
