import { describe, expect, it } from 'vitest';
import {
  formatFileSize,
  IMAGE_ACCEPT,
  IMAGE_HINT,
  isAcceptedImageFile,
  payloadFileName,
} from '../../../../client/features/images/image-file-rules.js';
import { IMAGE_MAX_BYTES } from '../../../../shared/constants.js';

describe('isAcceptedImageFile (spec 000 §5 "Image upload")', () => {
  it('accepts JPEG, PNG, GIF and WebP files up to exactly 10 MB', () => {
    for (const type of ['image/jpeg', 'image/png', 'image/gif', 'image/webp']) {
      expect(isAcceptedImageFile({ type, size: 1 })).toBe(true);
      expect(isAcceptedImageFile({ type, size: IMAGE_MAX_BYTES })).toBe(true);
    }
  });

  it('accepts any other image/ type the payload can announce', () => {
    expect(isAcceptedImageFile({ type: 'image/avif', size: 2048 })).toBe(true);
    expect(isAcceptedImageFile({ type: 'image/svg+xml', size: 2048 })).toBe(true);
  });

  it('rejects a file one byte over 10 MB', () => {
    expect(isAcceptedImageFile({ type: 'image/png', size: IMAGE_MAX_BYTES + 1 })).toBe(false);
  });

  it('rejects files whose type does not start with image/', () => {
    for (const type of ['text/plain', 'application/pdf', 'video/mp4', '', 'IMAGE/PNG', 'image/']) {
      expect(isAcceptedImageFile({ type, size: 100 })).toBe(false);
    }
  });

  it('rejects an empty file, which cannot be an image', () => {
    expect(isAcceptedImageFile({ type: 'image/png', size: 0 })).toBe(false);
  });

  it('offers image/* to the picker and lists the four formats in the hint', () => {
    expect(IMAGE_ACCEPT).toBe('image/*');
    expect(IMAGE_HINT).toBe('JPEG, PNG, GIF, WebP, up to 10 MB');
  });
});

describe('formatFileSize', () => {
  it('shows bytes, kilobytes and megabytes', () => {
    expect(formatFileSize(12)).toBe('12 B');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(IMAGE_MAX_BYTES)).toBe('10.0 MB');
  });
});

describe('payloadFileName', () => {
  it('keeps a name, trims it, names a blank one and cuts it at 200 characters', () => {
    expect(payloadFileName(' photo.png ')).toBe('photo.png');
    expect(payloadFileName('   ')).toBe('image');
    expect(payloadFileName(`${'a'.repeat(250)}.png`)).toHaveLength(200);
  });
});
