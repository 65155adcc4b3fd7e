/**
 * Sealing an image for upload and opening what comes back (spec 000 §9 "Image encryption AES-GCM
 * with a 128-bit tag"). One fresh key per image; the thumbnail is sealed under the same key with
 * its own random IV, so one ImageRef opens both:
 *
 * ```
 * key (32, random) ; iv (12, random) ; thumbnailIv (12, random)
 * encryptedImage     = AES-256-GCM(key, iv,          image bytes)     = ct ‖ tag (16)
 * encryptedThumbnail = AES-256-GCM(key, thumbnailIv, thumbnail bytes) = ct ‖ tag (16)
 * ```
 *
 * The key and IVs go only into the ImageRef, which travels inside the end-to-end encrypted
 * message payload; the server gets the two ciphertexts and nothing that opens them.
 */
import { base64ToBytes, bytesToBase64 } from '../../../shared/crypto/bytes.js';
import { aesGcmEncrypt, GCM_IV_BYTES } from '../../../shared/crypto/room/aes-gcm.js';
import { decryptImage, encryptImage } from '../../../shared/crypto/room/image-cipher.js';
import { randomBytes } from '../../../shared/ids.js';
import { ImageRefSchema, type ImageRef } from '../../../shared/protocol/message-payload.js';

/** What is uploaded, and the secrets that stay in the browser until they go into the payload. */
export interface SealedImage {
  encryptedImage: Uint8Array;
  encryptedThumbnail: Uint8Array | null;
  key: Uint8Array;
  iv: Uint8Array;
  thumbnailIv: Uint8Array | null;
}

/**
 * Encrypts an image and its thumbnail. The caller's plaintext buffers are left as they are: the
 * caller wipes them once this resolves.
 */
export async function sealImage(
  image: Uint8Array,
  thumbnail: Uint8Array | null,
): Promise<SealedImage> {
  const sealed = await encryptImage(image);
  if (!thumbnail) {
    return {
      ...sealed,
      encryptedImage: sealed.ciphertext,
      encryptedThumbnail: null,
      thumbnailIv: null,
    };
  }
  const thumbnailIv = randomBytes(GCM_IV_BYTES);
  const encryptedThumbnail = await aesGcmEncrypt(sealed.key, thumbnailIv, thumbnail, null);
  return {
    encryptedImage: sealed.ciphertext,
    encryptedThumbnail,
    key: sealed.key,
    iv: sealed.iv,
    thumbnailIv,
  };
}

/** The reference a message payload carries, built from what the server answered. */
export function imageRefFor(
  sealed: SealedImage,
  upload: { imageUrl: string; thumbnailUrl: string | null },
  file: { name: string; size: number; mime: string },
): ImageRef {
  // Parsed, so an unexpected URL from the server fails here and not in every reader's browser.
  return ImageRefSchema.parse({
    url: upload.imageUrl,
    hasThumbnail: upload.thumbnailUrl !== null && sealed.thumbnailIv !== null,
    key: bytesToBase64(sealed.key),
    iv: bytesToBase64(sealed.iv),
    thumbnailIv: sealed.thumbnailIv ? bytesToBase64(sealed.thumbnailIv) : null,
    name: file.name,
    size: file.size,
    mime: file.mime,
  });
}

/** Which of an image's two ciphertexts. */
export type ImagePart = 'image' | 'thumbnail';

/** Where a part's ciphertext is and the IV that opens it; null when the image has no thumbnail. */
export function partOf(image: ImageRef, part: ImagePart): { url: string; iv: string } | null {
  if (part === 'image') return { url: image.url, iv: image.iv };
  // The thumbnail sits at `{url}/thumbnail` (ImageRefSchema).
  if (!image.hasThumbnail || image.thumbnailIv === null) return null;
  return { url: `${image.url}/thumbnail`, iv: image.thumbnailIv };
}

/**
 * Decrypts one part with the payload's base64 key and IV. The decoded key is wiped before this
 * returns.
 * @throws DecryptError for a wrong key or any tampering; RangeError for malformed base64.
 */
export async function openImagePart(
  secrets: { key: string; iv: string },
  ciphertext: Uint8Array,
): Promise<Uint8Array> {
  const key = base64ToBytes(secrets.key);
  try {
    return await decryptImage({ key, iv: base64ToBytes(secrets.iv), ciphertext });
  } finally {
    key.fill(0);
  }
}
