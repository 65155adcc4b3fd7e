/**
 * AES-256-GCM (NIST SP 800-38D) through WebCrypto, the AEAD under every room construction but
 * AES-256-CBC. A 12-byte IV (SP 800-38D §8.2.2, random construction) and a 128-bit tag:
 *
 * ```
 * sealed = ciphertext (|plaintext| bytes) ‖ tag (16 bytes)        WebCrypto's AES-GCM output
 * ```
 *
 * Keys are 32 bytes. Raw keys are imported non-extractable for one operation; callers that reuse
 * a key pass a `CryptoKey` from {@link importAesGcmKey}.
 */
import { AES_GCM_IV_BYTES } from '../../constants.js';
import { DecryptError } from './room-crypto-error.js';
import { bufferSource, isWebCryptoKey, subtle, type WebCryptoKey } from './webcrypto.js';

/** AES-256 key length in bytes. */
export const AES_256_KEY_BYTES = 32;
/** GCM IV length in bytes (spec 000 §9: "IV 12 bytes"). */
export const GCM_IV_BYTES = AES_GCM_IV_BYTES;
/** GCM tag length in bytes (spec 000 §9: "a 128-bit tag"). */
export const GCM_TAG_BYTES = 16;

const GCM_TAG_BITS = GCM_TAG_BYTES * 8;

/**
 * A non-extractable AES-256-GCM key for encrypt and decrypt.
 * @throws RangeError when `raw` is not 32 bytes.
 */
export async function importAesGcmKey(raw: Uint8Array): Promise<WebCryptoKey> {
  if (raw.length !== AES_256_KEY_BYTES) throw new RangeError('An AES-256 key is 32 bytes');
  return subtle().importKey('raw', bufferSource(raw), { name: 'AES-GCM' }, false, [
    'encrypt',
    'decrypt',
  ]);
}

async function toKey(key: Uint8Array | WebCryptoKey): Promise<WebCryptoKey> {
  return isWebCryptoKey(key) ? key : importAesGcmKey(key);
}

function gcmParams(iv: Uint8Array, aad: Uint8Array | null) {
  if (iv.length !== GCM_IV_BYTES) throw new RangeError('An AES-GCM IV is 12 bytes');
  return aad === null
    ? { name: 'AES-GCM', iv: bufferSource(iv), tagLength: GCM_TAG_BITS }
    : {
        name: 'AES-GCM',
        iv: bufferSource(iv),
        additionalData: bufferSource(aad),
        tagLength: GCM_TAG_BITS,
      };
}

/**
 * AES-256-GCM encryption: ciphertext ‖ 16-byte tag. An IV must never repeat under one key;
 * every caller here draws it at random (collision odds 2⁻⁹⁶ per pair) or uses a one-time key.
 * @param aad - additional authenticated data, or `null` for none.
 * @throws RangeError on a wrong key or IV size.
 */
export async function aesGcmEncrypt(
  key: Uint8Array | WebCryptoKey,
  iv: Uint8Array,
  plaintext: Uint8Array,
  aad: Uint8Array | null,
): Promise<Uint8Array> {
  const params = gcmParams(iv, aad);
  const sealed = await subtle().encrypt(params, await toKey(key), bufferSource(plaintext));
  return new Uint8Array(sealed);
}

/**
 * AES-256-GCM decryption of ciphertext ‖ tag.
 * @throws DecryptError `MALFORMED` when `sealed` is shorter than a tag or the IV is not 12 bytes;
 * `AUTH_FAILED` when the tag does not verify (tampering, wrong key, wrong AAD).
 */
export async function aesGcmDecrypt(
  key: Uint8Array | WebCryptoKey,
  iv: Uint8Array,
  sealed: Uint8Array,
  aad: Uint8Array | null,
): Promise<Uint8Array> {
  if (iv.length !== GCM_IV_BYTES || sealed.length < GCM_TAG_BYTES) {
    throw new DecryptError('MALFORMED');
  }
  const cryptoKey = await toKey(key);
  try {
    const plaintext = await subtle().decrypt(gcmParams(iv, aad), cryptoKey, bufferSource(sealed));
    return new Uint8Array(plaintext);
  } catch (error) {
    throw new DecryptError('AUTH_FAILED', { cause: error });
  }
}
