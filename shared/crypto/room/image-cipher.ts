/**
 * Image encryption (spec 000 §9: "Image encryption AES-GCM with a 128-bit tag"): every image
 * gets its own random AES-256-GCM key, so one key encrypts exactly one plaintext:
 *
 * ```
 * key (32, random) ; iv (12, random)
 * ciphertext = AES-256-GCM(key, iv, image bytes, no AAD) = ct (|image|) ‖ tag (16)
 * ```
 *
 * The ciphertext is what is uploaded; the key and IV travel only inside the end-to-end encrypted
 * message that announces the image, never to the server on their own (DESIGN.md principle 1).
 */
import { IMAGE_MAX_BYTES } from '../../constants.js';
import { randomBytes } from '../../ids.js';
import { type RandomBytesSource } from '../bytes.js';
import { AES_256_KEY_BYTES, aesGcmDecrypt, aesGcmEncrypt, GCM_IV_BYTES } from './aes-gcm.js';
import { DecryptError, EncryptError } from './room-crypto-error.js';

/** An encrypted image and what opens it. */
export interface EncryptedImage {
  /** ct ‖ 16-byte tag: the upload. */
  ciphertext: Uint8Array;
  /** The image's raw 32-byte key: goes only into the encrypted message. */
  key: Uint8Array;
  /** The 12-byte IV: goes into the encrypted message with the key. */
  iv: Uint8Array;
}

/**
 * Encrypts an image under a fresh key.
 * @throws EncryptError `TOO_LARGE` above 10 MB (spec 000 §5, §9).
 */
export async function encryptImage(
  image: Uint8Array,
  random: RandomBytesSource = randomBytes,
): Promise<EncryptedImage> {
  if (image.length > IMAGE_MAX_BYTES) throw new EncryptError('TOO_LARGE');
  const key = random(AES_256_KEY_BYTES);
  const iv = random(GCM_IV_BYTES);
  const ciphertext = await aesGcmEncrypt(key, iv, image, null);
  return { ciphertext, key, iv };
}

/**
 * Decrypts an image.
 * @throws DecryptError `MALFORMED` for a key that is not 32 bytes, an IV that is not 12 bytes or
 * a ciphertext shorter than a tag; `AUTH_FAILED` for a wrong key or any tampering.
 */
export async function decryptImage(image: EncryptedImage): Promise<Uint8Array> {
  if (image.key.length !== AES_256_KEY_BYTES) throw new DecryptError('MALFORMED');
  return aesGcmDecrypt(image.key, image.iv, image.ciphertext, null);
}
