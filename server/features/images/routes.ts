/**
 * `POST /api/secure-upload` and `GET /api/secure-images/{fileId}[/thumbnail]`: encrypted images
 * in, ciphertext out. The server never gets the image key: a field that would carry it is
 * refused. Only members of the room (a room grant or a key session) may upload or fetch.
 */
import { randomBytes } from 'node:crypto';
import type {} from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IMAGE_MAX_BYTES } from '../../../shared/constants.js';
import { base64ToBytes } from '../../../shared/crypto/bytes.js';
import { digestHex, verifyUpload } from '../../../shared/crypto/upload-signature.js';
import { ErrorBodySchema } from '../../../shared/protocol/errors.js';
import {
  FORBIDDEN_UPLOAD_FIELDS,
  ImageParamsSchema,
  SecureUploadFieldsSchema,
  UploadResponseSchema,
} from '../../../shared/protocol/http/images.js';
import { AppError } from '../../errors.js';
import { UNBOUND_IMAGE_TTL_MS, type ImageStore } from './store.js';

export const IMAGE_TEXT = {
  keyRefused: 'Image keys must never be sent to the server',
  missingImage: 'Upload failed',
  tooLarge: 'Image too large',
  badSignature: 'Upload signature invalid',
  stale: 'Upload signature expired',
  full: 'Image storage is full, try again shortly',
  notMember: 'Only members of this channel can share images here',
  destroyed: 'Image destroyed',
} as const;

/** GCM tag and a little framing on top of the 10 MB image limit. */
const MAX_CIPHERTEXT_BYTES = IMAGE_MAX_BYTES + 1024;
const MAX_THUMBNAIL_BYTES = 512 * 1024;
/** A signed upload is accepted this long after its timestamp (and this far in the future). */
const SIGNATURE_WINDOW_MS = 2 * 60_000;

export interface ImageRouteDeps {
  store: ImageStore;
  now: () => number;
  /** True when the caller is a member of the room: a key session or a grant for it. */
  isMember: (request: FastifyRequest, roomId: string) => Promise<boolean>;
  /** Resolves a room id or secure id to the room's id (404 when unknown). */
  roomIdOf: (idOrSecureId: string) => Promise<string>;
  uploadsPerMinute: number;
}

const HeadersSchema = z.looseObject({ 'x-room-access': z.string().min(1).max(200).optional() });

async function readUpload(request: FastifyRequest) {
  const fields: Record<string, string> = {};
  let image: Buffer | null = null;
  let thumbnail: Buffer | null = null;
  const parts = request.parts({
    limits: { fileSize: MAX_CIPHERTEXT_BYTES, files: 2, fields: 12, fieldSize: 4096 },
  });
  for await (const part of parts) {
    if (part.type === 'field') {
      if ((FORBIDDEN_UPLOAD_FIELDS as readonly string[]).includes(part.fieldname)) {
        throw new AppError('IMAGE_KEY_REFUSED', 400, IMAGE_TEXT.keyRefused);
      }
      fields[part.fieldname] = String(part.value);
      continue;
    }
    const buffer = await part.toBuffer();
    if (part.file.truncated) throw new AppError('IMAGE_TOO_LARGE', 413, IMAGE_TEXT.tooLarge);
    if (part.fieldname === 'encryptedImage') image = buffer;
    else if (part.fieldname === 'encryptedThumbnail') {
      if (buffer.byteLength > MAX_THUMBNAIL_BYTES)
        throw new AppError('IMAGE_TOO_LARGE', 413, IMAGE_TEXT.tooLarge);
      thumbnail = buffer;
    }
  }
  if (!image || image.byteLength === 0)
    throw new AppError('IMAGE_MISSING', 400, IMAGE_TEXT.missingImage);
  return { fields, image, thumbnail };
}

export function imageRoutes(deps: ImageRouteDeps): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.post(
      '/api/secure-upload',
      {
        config: { rateLimit: { max: deps.uploadsPerMinute, timeWindow: '1 minute' } },
        schema: {
          tags: ['images'],
          summary:
            'Upload an encrypted image (multipart: encryptedImage, encryptedThumbnail, signed fields)',
          headers: HeadersSchema,
          response: {
            200: UploadResponseSchema,
            400: ErrorBodySchema,
            403: ErrorBodySchema,
            413: ErrorBodySchema,
            507: ErrorBodySchema,
          },
        },
      },
      async (request) => {
        if (!request.isMultipart())
          throw new AppError('IMAGE_MISSING', 400, IMAGE_TEXT.missingImage);
        const { fields, image, thumbnail } = await readUpload(request);
        const parsed = SecureUploadFieldsSchema.safeParse(fields);
        if (!parsed.success) throw new AppError('UPLOAD_FIELDS', 400, IMAGE_TEXT.missingImage);
        const upload = parsed.data;
        const roomId = await deps.roomIdOf(upload.roomId);
        if (!(await deps.isMember(request, roomId)))
          throw new AppError('NOT_MEMBER', 403, IMAGE_TEXT.notMember);
        const now = deps.now();
        if (Math.abs(now - upload.timestamp) > SIGNATURE_WINDOW_MS)
          throw new AppError('UPLOAD_STALE', 400, IMAGE_TEXT.stale);
        const claims = {
          roomId: upload.roomId,
          image: digestHex(image),
          thumbnail: thumbnail ? digestHex(thumbnail) : null,
          timestamp: upload.timestamp,
        };
        if (
          !verifyUpload(claims, base64ToBytes(upload.signature), base64ToBytes(upload.publicKey))
        ) {
          throw new AppError('UPLOAD_SIGNATURE', 400, IMAGE_TEXT.badSignature);
        }
        const fileId = randomBytes(18).toString('base64url');
        const expiresAt = now + UNBOUND_IMAGE_TTL_MS;
        if (!(await deps.store.put(fileId, { roomId, image, thumbnail, expiresAt }))) {
          throw new AppError('IMAGE_STORE_FULL', 507, IMAGE_TEXT.full);
        }
        return {
          success: true as const,
          fileId,
          imageUrl: `/api/secure-images/${fileId}`,
          thumbnailUrl: thumbnail ? `/api/secure-images/${fileId}/thumbnail` : null,
          originalName: upload.originalName ?? '',
          fileSize: image.byteLength,
          expiresAt: new Date(expiresAt).toISOString(),
        };
      },
    );

    const serve =
      (part: 'image' | 'thumbnail') =>
      async (request: FastifyRequest<{ Params: { fileId: string } }>, reply: FastifyReply) => {
        const stored = await deps.store.get(request.params.fileId, deps.now());
        if (!stored) throw new AppError('IMAGE_GONE', 404, IMAGE_TEXT.destroyed);
        if (!(await deps.isMember(request, stored.roomId)))
          throw new AppError('NOT_MEMBER', 403, IMAGE_TEXT.notMember);
        const bytes = part === 'image' ? stored.image : stored.thumbnail;
        if (!bytes) throw new AppError('IMAGE_GONE', 404, IMAGE_TEXT.destroyed);
        return reply
          .header('cache-control', 'no-store')
          .type('application/octet-stream')
          .send(bytes);
      };
    const getSchema = {
      tags: ['images'],
      params: ImageParamsSchema,
      headers: HeadersSchema,
      response: { 403: ErrorBodySchema, 404: ErrorBodySchema },
    };
    app.get(
      '/api/secure-images/:fileId',
      { schema: { ...getSchema, summary: 'Encrypted image bytes; 404 once destroyed' } },
      serve('image'),
    );
    app.get(
      '/api/secure-images/:fileId/thumbnail',
      { schema: { ...getSchema, summary: 'Encrypted thumbnail bytes' } },
      serve('thumbnail'),
    );
  };
}
