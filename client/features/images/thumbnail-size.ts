/**
 * The size of the thumbnail the browser makes before an upload: the image scaled to fit in a
 * THUMBNAIL_MAX_PX square, keeping its aspect ratio and never enlarged.
 */

/** The thumbnail's longest side, in pixels. */
export const THUMBNAIL_MAX_PX = 320;

export interface PixelSize {
  width: number;
  height: number;
}

/**
 * The thumbnail's size for an image of `width` × `height`; null when the image has no area (it
 * cannot be drawn, so the upload goes without a thumbnail). Each side is at least 1 px.
 */
export function thumbnailSize(
  width: number,
  height: number,
  maxSide: number = THUMBNAIL_MAX_PX,
): PixelSize | null {
  if (!(width > 0 && height > 0) || !Number.isFinite(width) || !Number.isFinite(height))
    return null;
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}
