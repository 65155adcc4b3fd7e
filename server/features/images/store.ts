/**
 * Encrypted images in memory only (never on disk): ciphertext, with the room they belong to and
 * their expiry. An upload not yet referenced by a message lives one minute; a message binds it to
 * its own expiry. A total cap keeps memory bounded.
 */
export interface StoredImage {
  roomId: string;
  /** The nodeId of the socket whose room session uploaded it; only its messages may bind it. */
  uploader: string;
  image: Buffer;
  thumbnail: Buffer | null;
  expiresAt: number;
}

/** Total ciphertext held at most, in bytes. */
export const IMAGE_STORE_CAP_BYTES = 256 * 1024 * 1024;
/** How long an upload waits for its message. */
export const UNBOUND_IMAGE_TTL_MS = 60_000;

export interface ImageStore {
  /** False when the store is full. */
  put(fileId: string, image: StoredImage): Promise<boolean>;
  get(fileId: string, now: number): Promise<StoredImage | null>;
  /**
   * Sets the expiry of an upload to its message's, if the upload belongs to `roomId` and was
   * uploaded by the socket `nodeId` that sends the message.
   */
  bind(fileId: string, roomId: string, nodeId: string, expiresAt: number): Promise<boolean>;
  expire(now: number): Promise<number>;
  purgeRoom(roomId: string): Promise<void>;
  /** Ciphertext bytes held in all. */
  bytes(): Promise<number>;
}

export class MemoryImageStore implements ImageStore {
  private readonly images = new Map<string, StoredImage>();
  private total = 0;

  constructor(private readonly capBytes = IMAGE_STORE_CAP_BYTES) {}

  private sizeOf(image: StoredImage): number {
    return image.image.byteLength + (image.thumbnail?.byteLength ?? 0);
  }

  async put(fileId: string, image: StoredImage): Promise<boolean> {
    const size = this.sizeOf(image);
    if (this.total + size > this.capBytes) return false;
    this.images.set(fileId, image);
    this.total += size;
    return true;
  }

  async get(fileId: string, now: number): Promise<StoredImage | null> {
    const image = this.images.get(fileId);
    return image && image.expiresAt > now ? image : null;
  }

  async bind(fileId: string, roomId: string, nodeId: string, expiresAt: number): Promise<boolean> {
    const image = this.images.get(fileId);
    if (!image || image.roomId !== roomId || image.uploader !== nodeId) return false;
    image.expiresAt = expiresAt;
    return true;
  }

  async expire(now: number): Promise<number> {
    let removed = 0;
    for (const [fileId, image] of this.images) {
      if (image.expiresAt > now) continue;
      this.delete(fileId, image);
      removed += 1;
    }
    return removed;
  }

  async purgeRoom(roomId: string): Promise<void> {
    for (const [fileId, image] of this.images)
      if (image.roomId === roomId) this.delete(fileId, image);
  }

  async bytes(): Promise<number> {
    return this.total;
  }

  private delete(fileId: string, image: StoredImage): void {
    // Overwrite before dropping, so the ciphertext does not linger in freed memory.
    image.image.fill(0);
    image.thumbnail?.fill(0);
    this.images.delete(fileId);
    this.total -= this.sizeOf(image);
  }
}
