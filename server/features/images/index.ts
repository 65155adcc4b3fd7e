/** The images feature: encrypted, self-destructing images held in memory. */
import type { FastifyRequest } from 'fastify';
import { MemoryUploadQuota, type UploadQuota } from './quota.js';
import { imageRoutes, UPLOAD_HOLD_MS } from './routes.js';
import { MemoryImageStore, type ImageStore } from './store.js';

export {
  MemoryImageStore,
  type ImageStore,
  type StoredImage,
  IMAGE_STORE_CAP_BYTES,
} from './store.js';
export { IMAGE_TEXT, MAX_UPLOAD_BODY_BYTES, UPLOAD_HOLD_MS } from './routes.js';
export {
  DEFAULT_UPLOAD_QUOTAS,
  MemoryUploadQuota,
  scopeKeys,
  type QuotaLimits,
  type QuotaOwner,
  type QuotaScope,
  type UploadQuota,
} from './quota.js';

/** The file id inside an image URL the server handed out. */
export function fileIdOf(imageUrl: string): string | null {
  return /^\/api\/secure-images\/([A-Za-z0-9_-]{16,64})(\/thumbnail)?$/.exec(imageUrl)?.[1] ?? null;
}

export function createImagesFeature(deps: {
  now: () => number;
  isMember: (request: FastifyRequest, roomId: string) => Promise<boolean>;
  roomSessionOf: (grant: string) => Promise<{ roomId: string; nodeId: string } | null>;
  roomIdOf: (idOrSecureId: string) => Promise<string>;
  store?: ImageStore;
  quota?: UploadQuota;
  uploadsPerMinute?: number;
  /** How long an upload may take to arrive before it is cut; default UPLOAD_HOLD_MS. */
  uploadHoldMs?: number;
}) {
  const store = deps.store ?? new MemoryImageStore();
  const quota = deps.quota ?? new MemoryUploadQuota();
  return {
    store,
    quota,
    /**
     * Binds an upload to the message that carries it: only the uploading socket, in the upload's
     * room; the image and its quota then live as long as the message.
     */
    bindImage: async (imageUrl: string, roomId: string, nodeId: string, expiresAt: number) => {
      const fileId = fileIdOf(imageUrl);
      if (fileId === null || !(await store.bind(fileId, roomId, nodeId, expiresAt))) return false;
      await quota.extend(fileId, expiresAt);
      return true;
    },
    routes: imageRoutes({
      store,
      quota,
      now: deps.now,
      isMember: deps.isMember,
      roomSessionOf: deps.roomSessionOf,
      roomIdOf: deps.roomIdOf,
      uploadsPerMinute: deps.uploadsPerMinute ?? 30,
      uploadHoldMs: deps.uploadHoldMs ?? UPLOAD_HOLD_MS,
    }),
  };
}
