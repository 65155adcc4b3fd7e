/**
 * The thumbnail the browser makes before an upload: the image drawn on a canvas at most
 * THUMBNAIL_MAX_PX on its longest side, saved as WebP (JPEG where WebP cannot be written). For an
 * animated GIF, createImageBitmap decodes the default (first) frame only, so the thumbnail is
 * still. Anything that cannot be decoded gets no thumbnail; the full image is then shown scaled.
 */
import { thumbnailSize } from './thumbnail-size.js';

/** The server refuses larger thumbnails (server/features/images/routes.ts). */
const THUMBNAIL_MAX_BYTES = 512 * 1024;
const THUMBNAIL_QUALITY = 0.8;

function canvasBlob(canvas: HTMLCanvasElement, type: string): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, type, THUMBNAIL_QUALITY));
}

/** The thumbnail's bytes, or null when the image cannot be decoded or drawn. */
export async function makeThumbnail(file: Blob): Promise<Uint8Array | null> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return null;
  }
  const canvas = document.createElement('canvas');
  try {
    const size = thumbnailSize(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d');
    if (!size || !context) return null;
    canvas.width = size.width;
    canvas.height = size.height;
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, size.width, size.height);
    let blob = await canvasBlob(canvas, 'image/webp');
    if (!blob || blob.type !== 'image/webp') {
      // JPEG has no transparency: paint a black backdrop behind what is already drawn.
      context.globalCompositeOperation = 'destination-over';
      context.fillStyle = '#000';
      context.fillRect(0, 0, size.width, size.height);
      blob = await canvasBlob(canvas, 'image/jpeg');
    }
    if (!blob || blob.size > THUMBNAIL_MAX_BYTES) return null;
    return new Uint8Array(await blob.arrayBuffer());
  } catch {
    return null;
  } finally {
    bitmap.close();
    // Drop the canvas's pixels now rather than whenever it is collected.
    canvas.width = 0;
    canvas.height = 0;
  }
}
