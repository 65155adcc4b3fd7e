/**
 * Page object: the secure image upload modal and image messages in the chat (spec 000 §2, §4),
 * and a small PNG made without a canvas for the tests to upload.
 */
import { crc32, deflateSync } from 'node:zlib';
import type { Locator, Page } from 'playwright-core';

/** A file for `setInputFiles`. */
export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * An 8-bit RGB PNG of `width` × `height`, each pixel from `colour` (PNG spec §11: IHDR, one IDAT
 * of filter-0 scanlines, IEND).
 */
export function makePng(
  width: number,
  height: number,
  colour: (x: number, y: number) => [number, number, number],
): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0);
    for (let x = 0; x < width; x++) rows.push(...colour(x, y));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.from(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A terminal-green test card: a grid with a bright diagonal, easy to recognise on screen. */
export function testCardPng(width = 96, height = 64): Buffer {
  return makePng(width, height, (x, y) => {
    if (Math.abs(x * height - y * width) < width) return [0, 255, 120];
    if (x % 16 === 0 || y % 16 === 0) return [0, 120, 60];
    return [8, 24 + ((x + y) % 32), 16];
  });
}

export class ImagesPageObject {
  constructor(private readonly page: Page) {}

  uploadButton(): Locator {
    return this.page.getByTestId('image-upload-button');
  }

  modal(): Locator {
    return this.page.getByTestId('image-upload-modal');
  }

  async openUpload(): Promise<void> {
    await this.uploadButton().click();
    await this.modal().waitFor();
  }

  async choose(file: UploadFile): Promise<void> {
    await this.page.getByTestId('image-file-input').setInputFiles(file);
  }

  /**
   * Chooses an image of `bytes` zero bytes made inside the page (a large file would take long to
   * send through the browser protocol).
   */
  async chooseGenerated(name: string, mimeType: string, bytes: number): Promise<void> {
    await this.page.getByTestId('image-file-input').evaluate(
      (input, file) => {
        if (!(input instanceof HTMLInputElement)) throw new Error('not a file input');
        const transfer = new DataTransfer();
        transfer.items.add(
          new File([new Uint8Array(file.bytes)], file.name, { type: file.mimeType }),
        );
        input.files = transfer.files;
        input.dispatchEvent(new Event('change', { bubbles: true }));
      },
      { name, mimeType, bytes },
    );
  }

  preview(): Locator {
    return this.page.getByTestId('image-preview');
  }

  status(): Locator {
    return this.page.getByTestId('image-upload-status');
  }

  sendButton(): Locator {
    return this.page.getByTestId('image-upload-send');
  }

  async send(): Promise<void> {
    await this.sendButton().click();
  }

  async cancel(): Promise<void> {
    await this.page.getByTestId('image-upload-cancel').click();
  }

  /** Image messages in the chat, newest last. */
  messages(): Locator {
    return this.page.getByTestId('image-message');
  }

  thumbnail(): Locator {
    return this.page.getByTestId('image-thumbnail');
  }

  /** True once the image element has decoded pixels to show. */
  async isDecoded(image: Locator): Promise<boolean> {
    return image.evaluate(
      (element) => element instanceof HTMLImageElement && element.naturalWidth > 0,
    );
  }

  async openFullView(): Promise<void> {
    await this.page.getByTestId('image-open').last().click();
    await this.fullView().waitFor();
  }

  fullView(): Locator {
    return this.page.getByTestId('image-full-view');
  }

  fullImage(): Locator {
    return this.page.getByTestId('image-full');
  }

  destroyed(): Locator {
    return this.page.getByTestId('image-destroyed');
  }
}
