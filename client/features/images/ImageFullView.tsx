/**
 * The full view of an image message (spec 000 §4 "Image": click for full view): a Radix dialog
 * that fetches and decrypts the full image only while open, and releases it when closed.
 */
import { useState } from 'react';
import { type ImageRef } from '../../../shared/protocol/message-payload.js';
import { TerminalDialog } from '../../ui/TerminalDialog.js';
import { formatFileSize } from './image-file-rules.js';
import { ImageDestroyed, ImageDownloadFailed, ImageLoading } from './ImageStates.js';
import { useDecryptedImage } from './use-decrypted-image.js';

export interface ImageFullViewProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  image: ImageRef;
  roomId: string;
  /** The countdown as mm:ss. */
  countdown: string;
  isCountdownWarning: boolean;
  onDestroyed: () => void;
}

export function ImageFullView({
  open,
  onOpenChange,
  image,
  roomId,
  countdown,
  isCountdownWarning,
  onDestroyed,
}: ImageFullViewProps) {
  const [attempt, setAttempt] = useState(0);
  const full = useDecryptedImage({
    image: open ? image : null,
    part: 'image',
    roomId,
    attempt,
    onDestroyed,
  });

  return (
    <TerminalDialog
      open={open}
      onOpenChange={onOpenChange}
      title="SECURE IMAGE"
      description={`${image.name} · ${formatFileSize(image.size)} · decrypted in this browser only`}
      windowLabel="root@securechannel:~/images"
      status={
        <span
          data-testid="image-full-countdown"
          className={`tabular-nums ${isCountdownWarning ? 'font-bold text-danger' : 'text-primary'}`}
        >
          <span className="sr-only">Destroyed in </span>
          {countdown}
        </span>
      }
      widthClass="max-w-4xl"
      testId="image-full-view"
    >
      <div className="flex min-h-48 items-center justify-center border border-border bg-background p-2">
        {full.status === 'ready' ? (
          <img
            src={full.src}
            alt={image.name}
            data-testid="image-full"
            onError={onDestroyed}
            className="max-h-[70dvh] max-w-full object-contain"
          />
        ) : full.status === 'failed' ? (
          <ImageDownloadFailed onRetry={() => setAttempt((count) => count + 1)} />
        ) : full.status === 'destroyed' ? (
          <ImageDestroyed />
        ) : (
          <ImageLoading />
        )}
      </div>
    </TerminalDialog>
  );
}
