/**
 * The images feature's front door: all that other features may import from it (docs/architecture.md,
 * "Client layers"). Anything else in this folder is private to it.
 */
export { DESTROYED_IMAGE_DISPLAY_MS } from './image-lifetime.js';
export { ImageLoading } from './ImageStates.js';
export { ImageUploadButton } from './ImageUploadButton.js';
export { type UploadedImage } from './upload-secure-image.js';

/** Loads ImageMessage.tsx on demand: it keeps a chunk of its own. */
export function loadImageMessage() {
  return import('./ImageMessage.js');
}
