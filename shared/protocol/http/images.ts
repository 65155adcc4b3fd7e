/** Encrypted image upload (spec 000 §3 "Upload response", §7 `POST /api/secure-upload`). */
import { z } from 'zod';

/**
 * Text fields of the multipart upload; the files are `encryptedImage` and `encryptedThumbnail`.
 * The upload carries no signature: who uploaded is the room session behind `x-room-access`, and
 * what readers get is authenticated by AES-GCM under the key inside the author's signed message
 * (docs/decisions.md, "Image uploads are not signed").
 */
export const SecureUploadFieldsSchema = z.strictObject({
  /** The room (id or secureId); it must be the room of the session in `x-room-access`. */
  roomId: z.string().min(1).max(80),
  mimeType: z
    .string()
    .regex(/^image\/[a-z0-9.+-]{1,40}$/, 'Only images can be uploaded')
    .optional(),
  originalName: z.string().max(200).optional(),
  originalSize: z.coerce.number().int().nonnegative().optional(),
});
export type SecureUploadFields = z.infer<typeof SecureUploadFieldsSchema>;

/** Field names that would carry the image key: refused, never stored. */
export const FORBIDDEN_UPLOAD_FIELDS = ['clientKey', 'clientIV', 'clientAuthTag', 'key'] as const;

export const UploadResponseSchema = z.object({
  success: z.literal(true),
  fileId: z.string(),
  imageUrl: z.string(),
  thumbnailUrl: z.string().nullable(),
  originalName: z.string(),
  fileSize: z.number().int(),
  expiresAt: z.iso.datetime(),
});
export type UploadResponse = z.infer<typeof UploadResponseSchema>;

export const ImageParamsSchema = z.strictObject({
  fileId: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/),
});
