/**
 * What an image shows while it is not on screen: decrypting, destroyed (spec 000 §4: at expiry or
 * on a load error) and a failed download with a retry (spec 000 §8 'Download failed').
 */
import { TEXT } from '../../../shared/protocol/errors.js';

/**
 * The fixed frame of an image in a row: loading, thumbnail and destroyed take the same space, so
 * a decrypted thumbnail never shifts the list under the reader.
 */
export const IMAGE_FRAME = 'h-40 w-60 max-w-full sm:h-48 sm:w-72';

const BOX =
  'flex flex-col items-center justify-center gap-1.5 px-3 py-2 text-center text-xs tracking-widest';

export function ImageLoading({ className = IMAGE_FRAME }: { className?: string }) {
  return (
    <div
      role="status"
      data-testid="image-loading"
      className={`${BOX} ${className} animate-pulse border border-dashed border-border text-muted`}
    >
      <span aria-hidden="true">▒▒▒▒▒▒</span>
      DECRYPTING...
    </div>
  );
}

export function ImageDestroyed({ className = IMAGE_FRAME }: { className?: string }) {
  return (
    <div
      role="status"
      data-testid="image-destroyed"
      className={`${BOX} ${className} border border-dashed border-danger/70 bg-danger/10 font-bold text-danger`}
    >
      <span aria-hidden="true" className="text-base">
        ☒
      </span>
      {TEXT.imageDestroyed}
    </div>
  );
}

export function ImageDownloadFailed({
  onRetry,
  className = IMAGE_FRAME,
}: {
  onRetry: () => void;
  className?: string;
}) {
  return (
    <div
      data-testid="image-download-failed"
      className={`${BOX} ${className} border border-dashed border-warning/70 text-warning`}
    >
      <span role="alert">{TEXT.imageDownloadFailed}</span>
      <button
        type="button"
        onClick={onRetry}
        className="sc-btn px-2 py-0.5 text-xs"
        data-testid="image-retry"
      >
        <span aria-hidden="true">[</span>RETRY<span aria-hidden="true">]</span>
      </button>
    </div>
  );
}
