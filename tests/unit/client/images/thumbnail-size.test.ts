import { describe, expect, it } from 'vitest';
import {
  THUMBNAIL_MAX_PX,
  thumbnailSize,
} from '../../../../client/features/images/thumbnail-size.js';

describe('thumbnailSize', () => {
  it('fits a landscape image into 320 px wide, keeping its aspect ratio', () => {
    expect(THUMBNAIL_MAX_PX).toBe(320);
    expect(thumbnailSize(1920, 1080)).toEqual({ width: 320, height: 180 });
  });

  it('fits a portrait image into 320 px high', () => {
    expect(thumbnailSize(1000, 4000)).toEqual({ width: 80, height: 320 });
  });

  it('fits a square image exactly', () => {
    expect(thumbnailSize(640, 640)).toEqual({ width: 320, height: 320 });
  });

  it('never enlarges a small image', () => {
    expect(thumbnailSize(2, 2)).toEqual({ width: 2, height: 2 });
    expect(thumbnailSize(320, 100)).toEqual({ width: 320, height: 100 });
  });

  it('keeps at least one pixel on a very thin side', () => {
    expect(thumbnailSize(10_000, 3)).toEqual({ width: 320, height: 1 });
  });

  it('gives no thumbnail for an image without area or with a nonsense size', () => {
    expect(thumbnailSize(0, 100)).toBeNull();
    expect(thumbnailSize(100, -1)).toBeNull();
    expect(thumbnailSize(Number.NaN, 100)).toBeNull();
    expect(thumbnailSize(Number.POSITIVE_INFINITY, 100)).toBeNull();
  });

  it('honours another maximum', () => {
    expect(thumbnailSize(1000, 500, 100)).toEqual({ width: 100, height: 50 });
  });
});
