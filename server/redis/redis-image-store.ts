/**
 * Encrypted image ciphertext in Redis, so any process can serve an image another one received.
 * Each upload is one hash with a TTL: expiry holds even if every process dies.
 *
 *   {p}img:{fileId}   HASH roomId, uploader, image (bytes), thumbnail (bytes), expiresAt;
 *                     PX = time left
 * The total is capped by the upload quotas (server/features/images/quota.ts), not here.
 */
import type { ImageStore, StoredImage } from '../features/images/index.js';
import type { RedisHandles } from './connect.js';

export class RedisImageStore implements ImageStore {
  constructor(private readonly redis: RedisHandles) {}

  private key(fileId: string) {
    return `${this.redis.prefix}img:${fileId}`;
  }

  async put(fileId: string, image: StoredImage): Promise<boolean> {
    const fields: Record<string, string | Buffer> = {
      roomId: image.roomId,
      uploader: image.uploader,
      image: image.image,
      expiresAt: String(image.expiresAt),
    };
    if (image.thumbnail) fields.thumbnail = image.thumbnail;
    await this.redis.client
      .multi()
      .hset(this.key(fileId), fields)
      .pexpireat(this.key(fileId), image.expiresAt)
      .exec();
    return true;
  }

  async get(fileId: string, now: number): Promise<StoredImage | null> {
    const [roomId, uploader, image, thumbnail, expiresAt] = await this.redis.client.hmgetBuffer(
      this.key(fileId),
      'roomId',
      'uploader',
      'image',
      'thumbnail',
      'expiresAt',
    );
    if (!roomId || !uploader || !image || !expiresAt) return null;
    const expiry = Number(expiresAt.toString());
    if (!(expiry > now)) return null;
    return {
      roomId: roomId.toString(),
      uploader: uploader.toString(),
      image,
      thumbnail: thumbnail ?? null,
      expiresAt: expiry,
    };
  }

  async bind(fileId: string, roomId: string, nodeId: string, expiresAt: number): Promise<boolean> {
    const [storedRoom, uploader] = await this.redis.client.hmget(
      this.key(fileId),
      'roomId',
      'uploader',
    );
    if (storedRoom !== roomId || uploader !== nodeId) return false;
    await this.redis.client
      .multi()
      .hset(this.key(fileId), 'expiresAt', String(expiresAt))
      .pexpireat(this.key(fileId), expiresAt)
      .exec();
    return true;
  }

  /** Redis removes expired uploads by itself; nothing to sweep. */
  async expire(): Promise<number> {
    return 0;
  }

  async purgeRoom(roomId: string): Promise<void> {
    for await (const keys of this.scan()) {
      for (const key of keys) {
        if ((await this.redis.client.hget(key, 'roomId')) === roomId)
          await this.redis.client.del(key);
      }
    }
  }

  async bytes(): Promise<number> {
    let total = 0;
    for await (const keys of this.scan()) {
      for (const key of keys) {
        total +=
          (await this.redis.client.hstrlen(key, 'image')) +
          (await this.redis.client.hstrlen(key, 'thumbnail'));
      }
    }
    return total;
  }

  private async *scan(): AsyncGenerator<string[]> {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.client.scan(
        cursor,
        'MATCH',
        `${this.redis.prefix}img:*`,
        'COUNT',
        200,
      );
      cursor = next;
      yield keys;
    } while (cursor !== '0');
  }
}
