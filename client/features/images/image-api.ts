/**
 * The image routes (spec 000 §7): `POST /api/secure-upload` takes the signed multipart upload,
 * `GET {imageUrl}` and `GET {imageUrl}/thumbnail` give the ciphertext back. Both need the room's
 * grant in `x-room-access` (or a key holder's session); a destroyed image answers 404.
 */
import { toArrayBufferBytes } from '../../../shared/crypto/bytes.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import { ErrorBodySchema } from '../../../shared/protocol/http/error-body.js';
import { UploadResponseSchema, type UploadResponse } from '../../../shared/protocol/http/images.js';
import { readStorage, STORAGE_KEYS } from '../../lib/storage-keys.js';
import { getRoomAccessToken } from '../../lib/rooms/room-access.js';

/** An upload the server refused or that never arrived; `message` is what the modal shows. */
export class ImageUploadError extends Error {
  override readonly name = 'ImageUploadError';
}

/**
 * A download that failed: `destroyed` when the server no longer has the image (404), `failed`
 * for anything else (network, refusal, a server error).
 */
export class ImageDownloadError extends Error {
  override readonly name = 'ImageDownloadError';
  constructor(
    readonly reason: 'destroyed' | 'failed',
    options?: { cause?: unknown },
  ) {
    super(reason === 'destroyed' ? TEXT.imageDestroyed : TEXT.imageDownloadFailed, options);
  }
}

/** The grant of the room, and the key holder's session when there is one. */
function accessHeaders(roomId: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const grant = getRoomAccessToken(roomId);
  if (grant) headers['x-room-access'] = grant;
  const session = readStorage(STORAGE_KEYS.session);
  if (session) headers.authorization = `Bearer ${session}`;
  return headers;
}

/** The text fields of the upload; never a key, an IV, a name or a size (shared/protocol/http/images.ts). */
export interface UploadFields {
  roomId: string;
}

/** The server's own text for a refusal, or the spec's 'Upload failed' (spec 000 §8). */
async function uploadErrorText(response: Response): Promise<string> {
  try {
    const parsed = ErrorBodySchema.safeParse(await response.json());
    if (parsed.success && parsed.data.error.trim() !== '') return parsed.data.error;
  } catch {
    // Not JSON: fall back to the generic text.
  }
  return TEXT.imageUploadFailed;
}

/**
 * Posts an encrypted image. Rejects with ImageUploadError (the text to show), or with the
 * AbortError of `signal` when the user cancelled.
 */
export async function postSecureUpload(options: {
  fields: UploadFields;
  encryptedImage: Uint8Array;
  encryptedThumbnail: Uint8Array | null;
  signal: AbortSignal;
}): Promise<UploadResponse> {
  const { fields } = options;
  const form = new FormData();
  form.append('roomId', fields.roomId);
  form.append(
    'encryptedImage',
    new Blob([toArrayBufferBytes(options.encryptedImage)]),
    'image.bin',
  );
  if (options.encryptedThumbnail) {
    form.append(
      'encryptedThumbnail',
      new Blob([toArrayBufferBytes(options.encryptedThumbnail)]),
      'thumbnail.bin',
    );
  }
  let response: Response;
  try {
    response = await fetch('/api/secure-upload', {
      method: 'POST',
      body: form,
      headers: { ...accessHeaders(fields.roomId), accept: 'application/json' },
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal.aborted) throw error;
    throw new ImageUploadError(TEXT.imageUploadFailed, { cause: error });
  }
  if (!response.ok) throw new ImageUploadError(await uploadErrorText(response));
  const parsed = UploadResponseSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new ImageUploadError(TEXT.imageUploadFailed);
  return parsed.data;
}

/**
 * Fetches one part's ciphertext. Rejects with ImageDownloadError, or with the AbortError of
 * `signal`.
 */
export async function fetchEncryptedImage(
  url: string,
  roomId: string,
  signal: AbortSignal,
): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: accessHeaders(roomId),
      credentials: 'same-origin',
      cache: 'no-store',
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new ImageDownloadError('failed', { cause: error });
  }
  if (response.status === 404) throw new ImageDownloadError('destroyed');
  if (!response.ok) throw new ImageDownloadError('failed');
  try {
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    if (signal.aborted) throw error;
    throw new ImageDownloadError('failed', { cause: error });
  }
}
