/** The images feature: encrypted, self-destructing images held in memory. */
import type { FastifyRequest } from 'fastify';
import { imageRoutes } from './routes.js';
import { MemoryImageStore, type ImageStore } from './store.js';

export {
  MemoryImageStore,
  type ImageStore,
  type StoredImage,
  IMAGE_STORE_CAP_BYTES,
} from './store.js';
export { IMAGE_TEXT } from './routes.js';

/** The file id inside an image URL the server handed out. */
export function fileIdOf(imageUrl: string): string | null {
  return /^\/api\/secure-images\/([A-Za-z0-9_-]{16,64})(\/thumbnail)?$/.exec(imageUrl)?.[1] ?? null;
}

export function createImagesFeature(deps: {
  now: () => number;
  isMember: (request: FastifyRequest, roomId: string) => Promise<boolean>;
  roomIdOf: (idOrSecureId: string) => Promise<string>;
  store?: ImageStore;
  uploadsPerMinute?: number;
}) {
  const store = deps.store ?? new MemoryImageStore();
  return {
    store,
    routes: imageRoutes({
      store,
      now: deps.now,
      isMember: deps.isMember,
      roomIdOf: deps.roomIdOf,
      uploadsPerMinute: deps.uploadsPerMinute ?? 30,
    }),
  };
}
