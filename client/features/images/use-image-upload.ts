/**
 * The upload modal's state (spec 000 §4 "Upload"): no file, a file selected with its preview,
 * uploading (ENCRYPTING...), then done or cancelled. A file that breaks the rules is ignored and
 * nothing changes (spec 000 §5); only an image over 10 MB leaves a notice saying why, since the
 * server would refuse it anyway (docs/decisions.md). The preview's object URL is revoked whenever the file changes,
 * the modal resets or the component goes; cancelling aborts the upload in flight.
 */
import { useEffect, useRef, useState } from 'react';
import { TEXT } from '../../../shared/protocol/errors.js';
import { ImageUploadError } from './image-api.js';
import { imageSizeProblem, isAcceptedImageFile } from './image-file-rules.js';
import { uploadSecureImage, type UploadedImage } from './upload-secure-image.js';

export type ImageUploadState =
  | { phase: 'empty' }
  | { phase: 'selected'; file: File; previewUrl: string; error: string | null }
  | { phase: 'uploading'; file: File; previewUrl: string };

export interface UseImageUploadOptions {
  roomId: string | null;
  /** Sends the message that announces the upload; resolves false when nothing was sent. */
  onUploaded: (uploaded: UploadedImage) => Promise<boolean>;
  /** Called once the message is sent, e.g. to close the modal. */
  onDone: () => void;
}

export interface ImageUpload {
  state: ImageUploadState;
  /** Why the last chosen file was not taken (too large), or null. */
  notice: string | null;
  /** Takes a chosen or dropped file; a file that breaks the rules is silently ignored. */
  choose: (file: File | null | undefined) => void;
  /** Encrypts, uploads and hands the result to `onUploaded`. */
  send: () => Promise<void>;
  /** Aborts any upload and forgets the file (cancel, close). */
  reset: () => void;
}

export function useImageUpload({ roomId, onUploaded, onDone }: UseImageUploadOptions): ImageUpload {
  const [state, setState] = useState<ImageUploadState>({ phase: 'empty' });
  const [notice, setNotice] = useState<string | null>(null);
  const previewUrlRef = useRef<string | null>(null);
  const uploadRef = useRef<AbortController | null>(null);

  const forgetPreview = () => {
    if (previewUrlRef.current) URL.revokeObjectURL(previewUrlRef.current);
    previewUrlRef.current = null;
  };

  useEffect(
    () => () => {
      uploadRef.current?.abort();
      if (previewUrlRef.current) URL.revokeObjectURL(previewUrlRef.current);
    },
    [],
  );

  const reset = () => {
    uploadRef.current?.abort();
    uploadRef.current = null;
    forgetPreview();
    setState({ phase: 'empty' });
    setNotice(null);
  };

  const choose = (file: File | null | undefined) => {
    if (!file || state.phase === 'uploading') return;
    setNotice(imageSizeProblem(file));
    if (!isAcceptedImageFile(file)) return;
    forgetPreview();
    const previewUrl = URL.createObjectURL(file);
    previewUrlRef.current = previewUrl;
    setState({ phase: 'selected', file, previewUrl, error: null });
  };

  const send = async () => {
    if (state.phase !== 'selected' || roomId === null) return;
    const { file, previewUrl } = state;
    const controller = new AbortController();
    uploadRef.current = controller;
    setState({ phase: 'uploading', file, previewUrl });
    const fail = (error: string) => setState({ phase: 'selected', file, previewUrl, error });
    try {
      const uploaded = await uploadSecureImage({ file, roomId, signal: controller.signal });
      controller.signal.throwIfAborted();
      const isSent = await onUploaded(uploaded);
      if (controller.signal.aborted) return;
      if (!isSent) {
        fail(TEXT.imageUploadFailed);
        return;
      }
      reset();
      onDone();
    } catch (error) {
      // A cancel has already reset the modal; anything else is shown and the file kept for a retry.
      if (controller.signal.aborted) return;
      fail(error instanceof ImageUploadError ? error.message : TEXT.imageUploadFailed);
    } finally {
      if (uploadRef.current === controller) uploadRef.current = null;
    }
  };

  return { state, notice, choose, send, reset };
}
