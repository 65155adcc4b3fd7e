export { ImageLoading } from './ImageStates.js';
export { ImageUploadButton } from './ImageUploadButton.js';
export { type UploadedImage } from './upload-secure-image.js';

/** Loads ImageMessage.tsx on demand: it keeps a chunk of its own. */
export function loadImageMessage() {
  return import('./ImageMessage.js');
}
