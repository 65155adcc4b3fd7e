/**
 * One secure image upload (spec 000 §2 "Secure image upload modal", §7): read the file, make the
 * thumbnail, seal both under a fresh key, post them with the room's grant (the server binds the
 * upload to this tab's room session), and hand back the ImageRef for the encrypted payload, whose
 * signed message is what authenticates the image to readers (docs/decisions.md).
 * Plaintext buffers are wiped as soon as they are sealed, the raw key once it is in the ref.
 */
import { type ImageRef } from '../../../shared/protocol/message-payload.js';
import { postSecureUpload } from './image-api.js';
import { imageRefFor, sealImage, type SealedImage } from './image-crypto.js';
import { payloadFileName } from './image-file-rules.js';
import { makeThumbnail } from './make-thumbnail.js';

/** What an upload gives the sender: the payload's ref and the URLs for the message frame. */
export interface UploadedImage {
  image: ImageRef;
  imageUrl: string;
  thumbnailUrl: string | null;
}

/**
 * Uploads `file` to `roomId`. Rejects with ImageUploadError (the text to show), or with an
 * AbortError when `signal` fires.
 */
export async function uploadSecureImage(options: {
  file: File;
  roomId: string;
  signal: AbortSignal;
}): Promise<UploadedImage> {
  const { file, roomId, signal } = options;
  const bytes = new Uint8Array(await file.arrayBuffer());
  const thumbnail = await makeThumbnail(file);
  let sealed: SealedImage;
  try {
    sealed = await sealImage(bytes, thumbnail);
  } finally {
    bytes.fill(0);
    thumbnail?.fill(0);
  }
  try {
    signal.throwIfAborted();
    const uploaded = await postSecureUpload({
      fields: { roomId },
      encryptedImage: sealed.encryptedImage,
      encryptedThumbnail: sealed.encryptedThumbnail,
      signal,
    });
    return {
      image: imageRefFor(sealed, uploaded, {
        name: payloadFileName(file.name),
        size: file.size,
        mime: file.type,
      }),
      imageUrl: uploaded.imageUrl,
      thumbnailUrl: uploaded.thumbnailUrl,
    };
  } finally {
    sealed.key.fill(0);
  }
}
