import { describe, expect, it } from 'vitest';
import {
  imageRefFor,
  openImagePart,
  partOf,
  sealImage,
} from '../../../../client/features/images/image-crypto.js';
import { DecryptError } from '../../../../shared/crypto/room/room-crypto-error.js';
import { ImageRefSchema } from '../../../../shared/protocol/message-payload.js';

const IMAGE = new Uint8Array(Array.from({ length: 600 }, (_, index) => index % 251));
const THUMBNAIL = new Uint8Array([9, 8, 7, 6, 5, 4, 3, 2, 1]);
const UPLOAD = {
  imageUrl: '/api/secure-images/AbCdEfGhIjKlMnOpQrStUvWx',
  thumbnailUrl: '/api/secure-images/AbCdEfGhIjKlMnOpQrStUvWx/thumbnail',
};
const FILE = { name: 'safehouse.png', size: IMAGE.length, mime: 'image/png' };

function containsBytes(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let start = 0; start + needle.length <= haystack.length; start++) {
    for (let index = 0; index < needle.length; index++) {
      if (haystack[start + index] !== needle[index]) continue outer;
    }
    return true;
  }
  return false;
}

describe('sealing an image for upload', () => {
  it('opens image and thumbnail with the one key in the ref, each under its own IV', async () => {
    const sealed = await sealImage(IMAGE, THUMBNAIL);
    const ref = imageRefFor(sealed, UPLOAD, FILE);
    expect(ImageRefSchema.parse(ref)).toEqual(ref);
    expect(ref.hasThumbnail).toBe(true);
    expect(ref.thumbnailIv).not.toBe(ref.iv);

    const image = partOf(ref, 'image')!;
    const thumbnail = partOf(ref, 'thumbnail')!;
    expect(image.url).toBe(UPLOAD.imageUrl);
    expect(thumbnail.url).toBe(UPLOAD.thumbnailUrl);
    expect(await openImagePart({ key: ref.key, iv: image.iv }, sealed.encryptedImage)).toEqual(
      IMAGE,
    );
    expect(
      await openImagePart({ key: ref.key, iv: thumbnail.iv }, sealed.encryptedThumbnail!),
    ).toEqual(THUMBNAIL);
  });

  it('uploads ciphertext only: 16-byte tag added, no run of the plaintext inside', async () => {
    const sealed = await sealImage(IMAGE, THUMBNAIL);
    expect(sealed.encryptedImage).toHaveLength(IMAGE.length + 16);
    expect(containsBytes(sealed.encryptedImage, IMAGE.subarray(100, 132))).toBe(false);
  });

  it('draws a fresh key for every image', async () => {
    const first = imageRefFor(await sealImage(IMAGE, null), UPLOAD, FILE);
    const second = imageRefFor(await sealImage(IMAGE, null), UPLOAD, FILE);
    expect(first.key).not.toBe(second.key);
  });

  it('announces no thumbnail when none was made', async () => {
    const sealed = await sealImage(IMAGE, null);
    const ref = imageRefFor(sealed, { ...UPLOAD, thumbnailUrl: null }, FILE);
    expect(sealed.encryptedThumbnail).toBeNull();
    expect(ref).toMatchObject({ hasThumbnail: false, thumbnailIv: null });
    expect(partOf(ref, 'thumbnail')).toBeNull();
  });

  it('refuses a flipped ciphertext bit with a DecryptError', async () => {
    const sealed = await sealImage(IMAGE, null);
    const ref = imageRefFor(sealed, UPLOAD, FILE);
    const tampered = sealed.encryptedImage.slice();
    tampered[10]! ^= 1;
    await expect(openImagePart({ key: ref.key, iv: ref.iv }, tampered)).rejects.toBeInstanceOf(
      DecryptError,
    );
  });

  it('refuses an image URL the server should never have answered', async () => {
    const sealed = await sealImage(IMAGE, null);
    expect(() =>
      imageRefFor(sealed, { imageUrl: 'https://evil.example/x', thumbnailUrl: null }, FILE),
    ).toThrow();
  });
});
