/**
 * AES-256-CBC with HMAC-SHA-256, encrypt-then-MAC, shaped like RFC 7518 §5.2.2 (JWA
 * AES_CBC_HMAC_SHA2) with a 256-bit encryption key, a 256-bit MAC key and the full 32-byte tag:
 *
 * ```
 * keys (64)  = encKey (32) ‖ macKey (32)
 * ciphertext = AES-256-CBC(encKey, iv (16, random), PKCS#7-padded plaintext)   SP 800-38A §6.2
 * AL         = u64be(bit length of aad)                                        RFC 7518 §5.2.2.1
 * tag (32)   = HMAC-SHA-256(macKey, aad ‖ iv ‖ ciphertext ‖ AL)                RFC 2104
 * ```
 *
 * AL makes the MAC input unambiguous: no split of the same bytes into another (aad, iv, ciphertext)
 * gives the same tag. Decryption verifies the tag in constant time before any CBC decryption, so
 * padding errors are never observable (no padding oracle).
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, constantTimeEqual } from '../bytes.js';
import { AES_256_KEY_BYTES } from './aes-gcm.js';
import { uint32BigEndian, wipe } from './kdf.js';
import { DecryptError } from './room-crypto-error.js';
import { bufferSource, subtle, type WebCryptoKey } from './webcrypto.js';

/** CBC IV and block length in bytes. */
export const CBC_IV_BYTES = 16;
/** HMAC-SHA-256 tag length in bytes (untruncated). */
export const CBC_HMAC_TAG_BYTES = 32;
/** Length of the combined key: encryption key ‖ MAC key. */
export const CBC_HMAC_KEY_BYTES = 2 * AES_256_KEY_BYTES;

/** The output of {@link aesCbcHmacEncrypt}. */
export interface CbcHmacSealed {
  /** PKCS#7-padded CBC ciphertext: a positive multiple of 16 bytes. */
  ciphertext: Uint8Array;
  /** HMAC-SHA-256 over aad ‖ iv ‖ ciphertext ‖ AL: 32 bytes. */
  tag: Uint8Array;
}

function splitKeys(keys: Uint8Array): { encKey: Uint8Array; macKey: Uint8Array } {
  if (keys.length !== CBC_HMAC_KEY_BYTES) throw new RangeError('AES-CBC-HMAC keys are 64 bytes');
  return { encKey: keys.subarray(0, 32), macKey: keys.subarray(32) };
}

async function importCbcKey(encKey: Uint8Array, usage: 'encrypt' | 'decrypt') {
  const key: WebCryptoKey = await subtle().importKey(
    'raw',
    bufferSource(encKey),
    { name: 'AES-CBC' },
    false,
    [usage],
  );
  return key;
}

/** The 32-byte tag of RFC 7518 §5.2.2.1 step 5, untruncated. */
function computeTag(macKey: Uint8Array, aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array) {
  // AL is a 64-bit count of AAD bits; our AADs are far below 2³² bits, so the high half is zero.
  const aadBits = concatBytes(new Uint8Array(4), uint32BigEndian(aad.length * 8));
  return hmac(sha256, macKey, concatBytes(aad, iv, ciphertext, aadBits));
}

/**
 * Encrypt-then-MAC with AES-256-CBC and HMAC-SHA-256.
 * @param keys - 64 bytes: encryption key ‖ MAC key; never reuse them for another construction.
 * @param iv - 16 random bytes.
 * @throws RangeError on a wrong key or IV size.
 */
export async function aesCbcHmacEncrypt(
  keys: Uint8Array,
  iv: Uint8Array,
  plaintext: Uint8Array,
  aad: Uint8Array,
): Promise<CbcHmacSealed> {
  const { encKey, macKey } = splitKeys(keys);
  if (iv.length !== CBC_IV_BYTES) throw new RangeError('An AES-CBC IV is 16 bytes');
  const key = await importCbcKey(encKey, 'encrypt');
  const params = { name: 'AES-CBC', iv: bufferSource(iv) };
  const ciphertext = new Uint8Array(await subtle().encrypt(params, key, bufferSource(plaintext)));
  return { ciphertext, tag: computeTag(macKey, aad, iv, ciphertext) };
}

/**
 * Verifies the tag (constant time), then decrypts.
 * @throws DecryptError `MALFORMED` on impossible sizes; `AUTH_FAILED` when the tag does not
 * verify (tampering, wrong key, wrong AAD).
 */
export async function aesCbcHmacDecrypt(
  keys: Uint8Array,
  iv: Uint8Array,
  sealed: CbcHmacSealed,
  aad: Uint8Array,
): Promise<Uint8Array> {
  const { encKey, macKey } = splitKeys(keys);
  const { ciphertext, tag } = sealed;
  const isWellFormed =
    iv.length === CBC_IV_BYTES &&
    tag.length === CBC_HMAC_TAG_BYTES &&
    ciphertext.length >= CBC_IV_BYTES &&
    ciphertext.length % CBC_IV_BYTES === 0;
  if (!isWellFormed) throw new DecryptError('MALFORMED');
  const expected = computeTag(macKey, aad, iv, ciphertext);
  const isAuthentic = constantTimeEqual(expected, tag);
  wipe(expected);
  if (!isAuthentic) throw new DecryptError('AUTH_FAILED');
  const key = await importCbcKey(encKey, 'decrypt');
  try {
    const params = { name: 'AES-CBC', iv: bufferSource(iv) };
    return new Uint8Array(await subtle().decrypt(params, key, bufferSource(ciphertext)));
  } catch (error) {
    // Only a sender holding the MAC key can produce bad padding under a valid tag.
    throw new DecryptError('MALFORMED', { cause: error });
  }
}
