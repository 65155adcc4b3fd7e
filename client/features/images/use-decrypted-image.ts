/**
 * Fetches one part of an encrypted image with the room's grant, decrypts it with the key from the
 * message payload and exposes it as an object URL. The decrypted bytes are wiped as soon as they
 * are in a Blob; the URL is revoked when the image, the part or the attempt changes, or when the
 * component goes. Passing `image: null` (expired, closed) releases everything.
 */
import { useEffect, useEffectEvent, useState } from 'react';
import { toArrayBufferBytes } from '../../../shared/crypto/bytes.js';
import { type ImageRef } from '../../../shared/protocol/message-payload.js';
import { fetchEncryptedImage, ImageDownloadError } from './image-api.js';
import { openImagePart, partOf, type ImagePart } from './image-crypto.js';

export type DecryptedImage =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; src: string }
  /** The server no longer has it (404). */
  | { status: 'destroyed' }
  /** The download or the decryption failed: 'Download failed', with a retry. */
  | { status: 'failed' };

export interface UseDecryptedImageOptions {
  image: ImageRef | null;
  part: ImagePart;
  roomId: string;
  /** Raise it to try again after a failure. */
  attempt: number;
  /** Called once when the server says the image is gone. */
  onDestroyed?: () => void;
}

export function useDecryptedImage({
  image,
  part,
  roomId,
  attempt,
  onDestroyed,
}: UseDecryptedImageOptions): DecryptedImage {
  const [result, setResult] = useState<{ request: string; state: DecryptedImage } | null>(null);
  const notifyDestroyed = useEffectEvent(() => onDestroyed?.());
  // The effect follows the ref's values, not its identity: a re-render that rebuilds an equal
  // ref must not fetch again.
  const location = image ? partOf(image, part) : null;
  const url = location?.url ?? null;
  const iv = location?.iv ?? null;
  const key = image?.key ?? null;
  const type = part === 'image' ? (image?.mime ?? '') : '';
  const request = url === null ? null : `${part}:${url}#${attempt}`;

  useEffect(() => {
    if (request === null || url === null || iv === null || key === null) return;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    const load = async () => {
      try {
        const ciphertext = await fetchEncryptedImage(url, roomId, controller.signal);
        const plaintext = await openImagePart({ key, iv }, ciphertext);
        const copy = toArrayBufferBytes(plaintext);
        plaintext.fill(0);
        // The Blob keeps its own copy, so the decrypted bytes can be wiped at once.
        const blob = new Blob([copy], { type });
        copy.fill(0);
        if (controller.signal.aborted) return;
        objectUrl = URL.createObjectURL(blob);
        setResult({ request, state: { status: 'ready', src: objectUrl } });
      } catch (error) {
        if (controller.signal.aborted) return;
        const isGone = error instanceof ImageDownloadError && error.reason === 'destroyed';
        setResult({ request, state: { status: isGone ? 'destroyed' : 'failed' } });
        if (isGone) notifyDestroyed();
      }
    };
    void load();
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [request, url, iv, key, type, roomId]);

  if (request === null) return { status: 'idle' };
  return result?.request === request ? result.state : { status: 'loading' };
}
