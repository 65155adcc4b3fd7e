/**
 * The image upload button of the message input's footer (spec 000 §2) and the modal it opens.
 * Without a way to send an end-to-end encrypted payload (`onSendImage` null) it stays disabled
 * and says why: an image key must never travel in a plaintext message.
 */
import { Suspense, useState } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import { lazyComponent } from '../../lib/lazy-component.js';
import { Tooltip } from '../../ui/Tooltip.js';
import type { UploadedImage } from './upload-secure-image.js';

// The modal, the upload and the image encryption load right after the room paints.
const SecureImageUploadModal = lazyComponent(
  () => import('./SecureImageUploadModal.js'),
  'SecureImageUploadModal',
);

export interface ImageUploadButtonProps {
  /** The room the image goes to (its grant authorises the upload); null until one is loaded. */
  roomId: string | null;
  isDisabled: boolean;
  /** Sends the payload announcing the image end to end; null while messages are not encrypted. */
  onSendImage: ((uploaded: UploadedImage) => Promise<boolean>) | null;
}

const BUTTON = 'sc-btn px-2 py-1 text-xs text-muted';

export function ImageUploadButton({ roomId, isDisabled, onSendImage }: ImageUploadButtonProps) {
  const [isOpen, setOpen] = useState(false);

  if (onSendImage === null) {
    return (
      <Tooltip content={TEXT.imagesNeedEndToEnd}>
        {/* A disabled button gets no pointer events: the focusable wrapper carries the tooltip. */}
        <span tabIndex={0} className="inline-flex" data-testid="image-upload-unavailable">
          <button
            type="button"
            disabled
            data-testid="image-upload-button"
            aria-label={`Image: ${TEXT.imagesNeedEndToEnd}`}
            className={BUTTON}
          >
            <span aria-hidden="true">▣</span>
            IMAGE
          </button>
        </span>
      </Tooltip>
    );
  }

  return (
    <>
      <button
        type="button"
        disabled={isDisabled || roomId === null}
        data-testid="image-upload-button"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        className={BUTTON}
      >
        <span aria-hidden="true">▣</span>
        IMAGE
      </button>
      <Suspense fallback={null}>
        <SecureImageUploadModal
          open={isOpen}
          onOpenChange={setOpen}
          roomId={roomId}
          onUploaded={onSendImage}
        />
      </Suspense>
    </>
  );
}
