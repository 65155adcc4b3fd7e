/**
 * Which files the secure image upload takes (spec 000 §5): the type must start with `image/` and
 * the size must be at most 10 MB; anything else is silently rejected and the upload stays as it
 * was. The hint lists JPEG, PNG, GIF and WebP.
 */
import { IMAGE_MAX_BYTES } from '../../../shared/constants.js';

/** The file input's `accept` attribute. */
export const IMAGE_ACCEPT = 'image/*';

/** The hint under the file choice (spec 000 §5). */
export const IMAGE_HINT = 'JPEG, PNG, GIF, WebP, up to 10 MB';

/**
 * The MIME types an encrypted message may announce (ImageRefSchema's `mime`): a type outside this
 * shape could not travel in the payload, so it is refused here rather than after encryption.
 */
const IMAGE_MIME = /^image\/[a-z0-9.+-]{1,40}$/;

/** What the rules look at: a File, or anything shaped like one. */
export interface CandidateFile {
  type: string;
  size: number;
}

/**
 * True when the file may be uploaded. An empty file is refused as well: it cannot be an image,
 * and refusing it here keeps the "silently rejected" behaviour for it too.
 */
export function isAcceptedImageFile(file: CandidateFile): boolean {
  return IMAGE_MIME.test(file.type) && file.size > 0 && file.size <= IMAGE_MAX_BYTES;
}

/**
 * Why an image was not taken because of its size, or null: the server refuses anything larger
 * before reading it (413), so the modal says so before anything is sent (docs/decisions.md).
 */
export function imageSizeProblem(file: CandidateFile): string | null {
  if (!IMAGE_MIME.test(file.type) || file.size <= IMAGE_MAX_BYTES) return null;
  return `${TOO_LARGE_PREFIX} ${formatFileSize(file.size)} (maximum 10 MB)`;
}

/** Start of the size notice; the server's own 413 text is 'Image too large'. */
export const TOO_LARGE_PREFIX = 'Image too large:';

/** `12 B`, `3.4 KB`, `9.8 MB`: the size as the modal and the message row show it. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The name that travels in the encrypted payload (ImageRefSchema allows 200 characters). */
export function payloadFileName(name: string): string {
  const trimmed = name.trim();
  return (trimmed === '' ? 'image' : trimmed).slice(0, 200);
}
