/**
 * The secure image upload modal (spec 000 §2, §4 "Upload", §5): choose or drop an image, see its
 * preview, then ENCRYPTING... while it is sealed and uploaded; cancel aborts at any point. A file
 * that is not an image is silently ignored; an image over 10 MB is ignored with a notice, before
 * anything is sent. Failures show the server's text or
 * 'Upload failed' and keep the file for another try.
 */
import { useId, useState, type DragEvent } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import {
  Bracketed,
  DIALOG_BUTTON,
  DIALOG_BUTTON_SECONDARY,
  TerminalDialog,
} from '../../ui/TerminalDialog.js';
import { formatFileSize, IMAGE_ACCEPT, IMAGE_HINT } from './image-file-rules.js';
import { type UploadedImage } from './upload-secure-image.js';
import { useImageUpload, type ImageUploadState } from './use-image-upload.js';

export interface SecureImageUploadModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  roomId: string | null;
  /** Sends the message announcing the image; resolves false when nothing was sent. */
  onUploaded: (uploaded: UploadedImage) => Promise<boolean>;
}

const STATUS: Record<ImageUploadState['phase'], string> = {
  empty: 'NO FILE',
  selected: 'READY',
  uploading: TEXT.imageEncrypting,
};

export function SecureImageUploadModal({
  open,
  onOpenChange,
  roomId,
  onUploaded,
}: SecureImageUploadModalProps) {
  const ids = useId();
  const [isDragging, setDragging] = useState(false);
  const upload = useImageUpload({ roomId, onUploaded, onDone: () => onOpenChange(false) });
  const { state } = upload;
  const isUploading = state.phase === 'uploading';

  const close = () => {
    upload.reset();
    onOpenChange(false);
  };

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    upload.choose(event.dataTransfer.files.item(0));
  };

  const chooser = (
    <input
      id={`${ids}-file`}
      type="file"
      accept={IMAGE_ACCEPT}
      data-testid="image-file-input"
      aria-describedby={`${ids}-hint`}
      disabled={isUploading}
      className="peer sr-only"
      onChange={(event) => {
        upload.choose(event.currentTarget.files?.item(0));
        // Cleared, so choosing the same file again still reports a change.
        event.currentTarget.value = '';
      }}
    />
  );

  return (
    <TerminalDialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title="SECURE IMAGE UPLOAD"
      description="Encrypted in this browser under a one-time AES-256-GCM key. The server stores only ciphertext; the key travels inside your encrypted message."
      windowLabel="root@securechannel:~/uploads"
      status={
        <span
          data-testid="image-upload-status"
          className={isUploading ? 'animate-pulse text-warning' : 'text-primary'}
        >
          {STATUS[state.phase]}
        </span>
      }
      testId="image-upload-modal"
    >
      <div className="space-y-3">
        <div
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          className={`relative flex min-h-48 flex-col items-center justify-center gap-2 border border-dashed p-3 text-center ${
            isDragging ? 'border-primary bg-primary/10' : 'border-border bg-background'
          }`}
        >
          {state.phase === 'empty' ? (
            <>
              <span aria-hidden="true" className="text-3xl leading-none text-primary/70">
                ▣
              </span>
              {chooser}
              <label
                htmlFor={`${ids}-file`}
                className="sc-btn cursor-pointer px-3 py-1.5 text-xs peer-focus-visible:outline-2 peer-focus-visible:outline-primary"
              >
                <Bracketed>SELECT IMAGE</Bracketed>
              </label>
              <span className="text-xs tracking-wider text-muted">or drop it here</span>
            </>
          ) : (
            <>
              <img
                src={state.previewUrl}
                alt={`Preview of ${state.file.name}`}
                data-testid="image-preview"
                className={`max-h-64 max-w-full object-contain ${isUploading ? 'opacity-40' : ''}`}
              />
              {isUploading ? (
                <span
                  role="status"
                  className="absolute inset-0 flex items-center justify-center text-sm font-bold tracking-[0.3em] text-warning"
                >
                  <span className="animate-pulse bg-background/80 px-2 py-1">
                    {TEXT.imageEncrypting}
                  </span>
                </span>
              ) : null}
            </>
          )}
        </div>

        {state.phase === 'empty' ? null : (
          <div className="flex min-w-0 items-center gap-2 text-xs tracking-wider">
            <span className="min-w-0 truncate text-fg" data-testid="image-file-name">
              {state.file.name}
            </span>
            <span className="shrink-0 text-muted">{formatFileSize(state.file.size)}</span>
            {chooser}
            <label
              htmlFor={`${ids}-file`}
              aria-disabled={isUploading}
              className="ml-auto shrink-0 cursor-pointer px-1 text-primary peer-focus-visible:outline-2 peer-focus-visible:outline-primary hover:underline aria-disabled:pointer-events-none aria-disabled:opacity-50"
            >
              <Bracketed>CHANGE</Bracketed>
            </label>
          </div>
        )}

        <p id={`${ids}-hint`} className="text-xs tracking-wider text-muted">
          {IMAGE_HINT}
        </p>

        {upload.notice ? (
          <p
            role="alert"
            data-testid="image-size-error"
            className="border-l-2 border-danger pl-2 text-xs text-danger"
          >
            {upload.notice}
          </p>
        ) : null}

        {state.phase === 'selected' && state.error ? (
          <p
            role="alert"
            data-testid="image-upload-error"
            className="border-l-2 border-danger pl-2 text-xs text-danger"
          >
            {state.error}
          </p>
        ) : null}

        <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
          <button
            type="button"
            className={DIALOG_BUTTON_SECONDARY}
            data-testid="image-upload-cancel"
            onClick={close}
          >
            <Bracketed>CANCEL</Bracketed>
          </button>
          <button
            type="button"
            className={DIALOG_BUTTON}
            data-testid="image-upload-send"
            disabled={state.phase !== 'selected' || roomId === null}
            aria-busy={isUploading}
            onClick={() => void upload.send()}
          >
            <Bracketed>{isUploading ? TEXT.imageEncrypting : 'ENCRYPT & SEND'}</Bracketed>
          </button>
        </div>
      </div>
    </TerminalDialog>
  );
}
