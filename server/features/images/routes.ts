/**
 * `POST /api/secure-upload` and `GET /api/secure-images/{fileId}[/thumbnail]`: encrypted images
 * in, ciphertext out. The server never gets the image key: a field that would carry it is
 * refused. Only members of the room (a room grant or a key session) may fetch.
 *
 * An upload is admitted from its headers alone, before one byte of its body is read: the grant
 * in `x-room-access` must be the room grant of a socket that is in the room now (the upload is
 * bound to that room session), `Content-Length` must be declared and within the limit, and the
 * declared size is reserved against the member's, the room's, the address's and the global
 * quota in one step. A refused upload's body is drained up to a bound, so the client reads the
 * answer instead of a broken pipe; past the bound the connection is closed.
 *
 * The reservation is a hold for the upload's time in flight: an upload whose body has not all
 * arrived when its hold ends is cut (408, connection closed), what it had buffered is dropped and
 * the hold given back at once. So the bytes an address has in flight never exceed its quota: a
 * slow upload can no longer keep its buffers after its hold expired and others were admitted
 * against the freed quota (issue 31).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type {} from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IMAGE_MAX_BYTES } from '../../../shared/constants.js';
import { ErrorBodySchema } from '../../../shared/protocol/http/error-body.js';
import {
  FORBIDDEN_UPLOAD_FIELDS,
  ImageParamsSchema,
  SecureUploadFieldsSchema,
  UploadResponseSchema,
} from '../../../shared/protocol/http/images.js';
import { AppError } from '../../errors.js';
import { visitorOfRequest } from '../../lib/visitor.js';
import type { QuotaScope, UploadQuota } from './quota.js';
import { UNBOUND_IMAGE_TTL_MS, type ImageStore } from './store.js';

export const IMAGE_TEXT = {
  keyRefused: 'Image keys must never be sent to the server',
  missingImage: 'Upload failed',
  tooLarge: 'Image too large',
  tooSlow: 'Upload took too long, try again on a faster connection',
  full: 'Image storage is full, try again shortly',
  quota: 'Upload limit reached, try again once your images have expired',
  roomQuota: 'This channel holds too many images, try again shortly',
  lengthRequired: 'Upload size must be declared',
  notMember: 'Only members of this channel can share images here',
  destroyed: 'Image destroyed',
} as const;

/** GCM tag and a little framing on top of the 10 MB image limit. */
const MAX_CIPHERTEXT_BYTES = IMAGE_MAX_BYTES + 1024;
const MAX_THUMBNAIL_BYTES = 512 * 1024;
/** Multipart boundaries, part headers and the text fields around the two files. */
const MULTIPART_OVERHEAD_BYTES = 16 * 1024;
/** The largest `Content-Length` an upload may declare. */
export const MAX_UPLOAD_BODY_BYTES =
  MAX_CIPHERTEXT_BYTES + MAX_THUMBNAIL_BYTES + MULTIPART_OVERHEAD_BYTES;
/**
 * A refused upload's body is read and dropped up to this much (a client sending a too-large
 * image then reads the 413 instead of a reset); beyond it, or after DRAIN_TIME_MS, the
 * connection is closed.
 */
const DRAIN_LIMIT_BYTES = 2 * MAX_UPLOAD_BODY_BYTES;
const DRAIN_TIME_MS = 15_000;

/**
 * How long an upload's body may take to arrive, from its admission: 180 s carries the largest
 * upload (about 10.5 MiB) at about 0.5 Mbit/s, a slow mobile or Tor uplink. Its quota hold lasts
 * that long, plus UPLOAD_HOLD_GRACE_MS; the server's request deadline is longer still
 * (server/plugins/http-timeouts.ts), so this cut, which gives the hold back, is the one that acts.
 */
export const UPLOAD_HOLD_MS = 180_000;
/**
 * The hold outlives the cut by this much: a timer may fire late on a busy event loop, and until
 * it has, the bytes are still buffered here and must still count.
 */
const UPLOAD_HOLD_GRACE_MS = 5_000;

export interface ImageRouteDeps {
  store: ImageStore;
  now: () => number;
  quota: UploadQuota;
  /** True when the caller is a member of the room: a key session or a grant for it. */
  isMember: (request: FastifyRequest, roomId: string) => Promise<boolean>;
  /**
   * The room session behind a room grant: the room and the socket (nodeId) it was issued to,
   * when that socket is in the room now; null otherwise.
   */
  roomSessionOf: (grant: string) => Promise<{ roomId: string; nodeId: string } | null>;
  /** Resolves a room id or secure id to the room's id (404 when unknown). */
  roomIdOf: (idOrSecureId: string) => Promise<string>;
  uploadsPerMinute: number;
  /** How long an upload may take to arrive before it is cut (default UPLOAD_HOLD_MS). */
  uploadHoldMs: number;
}

const QUOTA_REFUSAL: Record<QuotaScope, AppError> = {
  member: new AppError('UPLOAD_QUOTA', 429, IMAGE_TEXT.quota),
  address: new AppError('UPLOAD_QUOTA', 429, IMAGE_TEXT.quota),
  room: new AppError('ROOM_UPLOAD_QUOTA', 429, IMAGE_TEXT.roomQuota),
  global: new AppError('IMAGE_STORE_FULL', 507, IMAGE_TEXT.full),
};

/**
 * Reads and drops what is left of a refused request's body, so the client, still sending,
 * reads the answer; closes the connection once more than the bound arrives or time runs out.
 */
function drainBounded(raw: IncomingMessage): void {
  if (raw.readableEnded) return;
  let drained = 0;
  const timer = setTimeout(() => raw.socket.destroy(), DRAIN_TIME_MS);
  timer.unref();
  raw.on('data', (chunk: Buffer) => {
    drained += chunk.byteLength;
    if (drained > DRAIN_LIMIT_BYTES) raw.socket.destroy();
  });
  raw.once('end', () => clearTimeout(timer));
  raw.once('close', () => clearTimeout(timer));
  raw.resume();
}

/**
 * The end of an upload's hold: unless cancelled first (its body has all arrived), after `holdMs`
 * the body stops being read (nothing more is buffered), `onEnd` runs (the hold is given back) and
 * `expired` rejects with a 408; the connection is closed once that answer has gone out, and with
 * it the request stream, so the multipart reader drops what it held.
 */
function holdDeadline(
  request: FastifyRequest,
  reply: FastifyReply,
  holdMs: number,
  onEnd: () => Promise<void>,
): { expired: Promise<never>; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const raw = request.raw;
      raw.unpipe();
      raw.pause();
      reply.header('connection', 'close');
      reply.raw.once('finish', () => raw.destroy());
      reply.raw.once('close', () => raw.destroy());
      void onEnd()
        .catch((error: unknown) => request.log.warn({ err: error }, 'upload hold release failed'))
        .finally(() => reject(new AppError('UPLOAD_TOO_SLOW', 408, IMAGE_TEXT.tooSlow)));
    }, holdMs);
    timer.unref();
  });
  return {
    expired,
    cancel: () => {
      if (timer) clearTimeout(timer);
    },
  };
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
  /**
   * Admission from the headers alone (nothing of the body has been read): the room session,
   * the declared size, and a quota reservation for it under `fileId`. Throws the refusal.
   */
  const admitUpload = async (request: FastifyRequest, fileId: string) => {
    if (!request.isMultipart()) throw new AppError('IMAGE_MISSING', 400, IMAGE_TEXT.missingImage);
    const grant = request.headers['x-room-access'];
    const session = typeof grant === 'string' ? await deps.roomSessionOf(grant) : null;
    if (!session) throw new AppError('NOT_MEMBER', 403, IMAGE_TEXT.notMember);
    const declared = Number(request.headers['content-length'] ?? Number.NaN);
    if (!Number.isSafeInteger(declared) || declared <= 0)
      throw new AppError('LENGTH_REQUIRED', 411, IMAGE_TEXT.lengthRequired);
    if (declared > MAX_UPLOAD_BODY_BYTES)
      throw new AppError('IMAGE_TOO_LARGE', 413, IMAGE_TEXT.tooLarge);
    const now = deps.now();
    const refused = await deps.quota.reserve(
      fileId,
      { member: session.nodeId, roomId: session.roomId, address: visitorOfRequest(request) },
      declared,
      now + deps.uploadHoldMs + UPLOAD_HOLD_GRACE_MS,
      now,
    );
    if (refused) throw QUOTA_REFUSAL[refused];
    return session;
  };

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
            411: ErrorBodySchema,
            413: ErrorBodySchema,
            429: ErrorBodySchema,
            507: ErrorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const fileId = randomBytes(18).toString('base64url');
        const admitted = await admitUpload(request, fileId).catch((error: unknown) => {
          drainBounded(request.raw);
          throw error;
        });
        const deadline = holdDeadline(request, reply, deps.uploadHoldMs, () =>
          deps.quota.release(fileId),
        );
        try {
          const reading = readUpload(request);
          // After a cut the reader fails on its destroyed stream, and no one is left to hear it.
          reading.catch(() => undefined);
          const { fields, image, thumbnail } = await Promise.race([reading, deadline.expired]);
          deadline.cancel();
          const parsed = SecureUploadFieldsSchema.safeParse(fields);
          if (!parsed.success) throw new AppError('UPLOAD_FIELDS', 400, IMAGE_TEXT.missingImage);
          const upload = parsed.data;
          // The body names the room too; it must be the room of the session that was admitted.
          if ((await deps.roomIdOf(upload.roomId)) !== admitted.roomId)
            throw new AppError('NOT_MEMBER', 403, IMAGE_TEXT.notMember);
          const now = deps.now();
          const expiresAt = now + UNBOUND_IMAGE_TTL_MS;
          const size = image.byteLength + (thumbnail?.byteLength ?? 0);
          await deps.quota.settle(fileId, size, expiresAt);
          const stored = { roomId: admitted.roomId, uploader: admitted.nodeId, image, thumbnail };
          if (!(await deps.store.put(fileId, { ...stored, expiresAt }))) {
            throw QUOTA_REFUSAL.global;
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
        } catch (error) {
          deadline.cancel();
          await deps.quota.release(fileId);
          if (!request.raw.readableEnded && !request.raw.destroyed) drainBounded(request.raw);
          throw error;
        }
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
