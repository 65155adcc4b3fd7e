/**
 * An image in a message row (spec 000 §4 "Image"): the decrypted thumbnail, a click opens the full
 * view, and a mm:ss countdown runs to the message's expiry. At expiry, or when the image cannot
 * be loaded, it shows IMAGE DESTROYED, and 30 s later it leaves the row. The key comes from the
 * decrypted message payload; the server only ever hands over ciphertext.
 */
import { useState } from 'react';
import { MESSAGE_WARNING_SECONDS } from '../../../shared/constants.js';
import { type ImageRef } from '../../../shared/protocol/message-payload.js';
import { formatFileSize } from './image-file-rules.js';
import { formatImageCountdown, imagePhase } from './image-lifetime.js';
import { ImageFullView } from './ImageFullView.js';
import { IMAGE_FRAME, ImageDestroyed, ImageDownloadFailed, ImageLoading } from './ImageStates.js';
import { useDecryptedImage } from './use-decrypted-image.js';

export interface ImageMessageProps {
  image: ImageRef;
  /** The room the message belongs to: its grant opens the download. */
  roomId: string;
  /** When the message, and so the image, expires, on this browser's clock. */
  expiresAtMs: number;
  /** This browser's clock at the last tick. */
  now: number;
}

export function ImageMessage({ image, roomId, expiresAtMs, now }: ImageMessageProps) {
  const [failedAtMs, setFailedAtMs] = useState<number | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [isFullViewOpen, setFullViewOpen] = useState(false);
  const phase = imagePhase({ now, expiresAtMs, failedAtMs });
  const markDestroyed = () => setFailedAtMs((at) => at ?? Date.now());
  // A load error destroys the image at once; the phase only times its removal from the row.
  const isGone = phase !== 'live' || failedAtMs !== null;
  const thumbnail = useDecryptedImage({
    image: isGone ? null : image,
    part: image.hasThumbnail && image.thumbnailIv !== null ? 'thumbnail' : 'image',
    roomId,
    attempt,
    onDestroyed: markDestroyed,
  });

  if (phase === 'removed') return null;
  const isDestroyed = isGone || thumbnail.status === 'destroyed';
  const msLeft = expiresAtMs - now;
  const countdown = formatImageCountdown(msLeft);
  const isWarning = msLeft <= MESSAGE_WARNING_SECONDS * 1000;

  return (
    <figure data-testid="image-message" className="mt-1 inline-flex max-w-full flex-col gap-1">
      {isDestroyed ? (
        <ImageDestroyed />
      ) : thumbnail.status === 'ready' ? (
        <button
          type="button"
          data-testid="image-open"
          onClick={() => setFullViewOpen(true)}
          className={`group/image relative block ${IMAGE_FRAME} cursor-zoom-in border border-border bg-background p-0.5 hover:border-primary focus-visible:border-primary focus-visible:outline-none`}
        >
          <img
            src={thumbnail.src}
            alt={image.name}
            data-testid="image-thumbnail"
            onError={markDestroyed}
            className="block h-full w-full object-contain"
          />
          <span className="sr-only">Open the full image</span>
          <span
            aria-hidden="true"
            className="absolute right-1 bottom-1 hidden bg-background/85 px-1 text-xs tracking-widest text-primary group-hover/image:block"
          >
            [ VIEW ]
          </span>
        </button>
      ) : thumbnail.status === 'failed' ? (
        <ImageDownloadFailed onRetry={() => setAttempt((count) => count + 1)} />
      ) : (
        <ImageLoading />
      )}
      <figcaption className="flex w-60 max-w-full min-w-0 sm:w-72 items-center gap-2 text-xs tracking-wider text-muted">
        <span className="min-w-0 truncate" title={image.name}>
          <span aria-hidden="true">▣ </span>
          {image.name}
        </span>
        <span className="shrink-0">{formatFileSize(image.size)}</span>
        {isDestroyed ? null : (
          <span
            data-testid="image-countdown"
            className={`ml-auto shrink-0 tabular-nums ${isWarning ? 'font-bold text-danger' : 'text-primary'}`}
          >
            <span className="sr-only">Image destroyed in </span>
            {countdown}
          </span>
        )}
      </figcaption>
      <ImageFullView
        open={isFullViewOpen && !isDestroyed}
        onOpenChange={setFullViewOpen}
        image={image}
        roomId={roomId}
        countdown={countdown}
        isCountdownWarning={isWarning}
        onDestroyed={markDestroyed}
      />
    </figure>
  );
}
