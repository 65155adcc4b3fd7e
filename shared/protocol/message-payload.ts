/**
 * What an encrypted room message carries once decrypted (docs/crypto-room.md). The server only
 * ever sees its ciphertext in `encryptedContent`; an image's key travels nowhere else.
 */
import { z } from 'zod';

const b64 = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Expected base64');

/** An encrypted image's details: where its ciphertext is and the key that opens it. */
export const ImageRefSchema = z.strictObject({
  /** `/api/secure-images/{fileId}`; the thumbnail is at `{url}/thumbnail` when present. */
  url: z.string().regex(/^\/api\/secure-images\/[A-Za-z0-9_-]{16,64}$/),
  hasThumbnail: z.boolean(),
  /** AES-256-GCM key of image and thumbnail (32 bytes, base64). */
  key: b64(64),
  iv: b64(24),
  thumbnailIv: b64(24).nullable(),
  name: z.string().max(200),
  size: z.number().int().nonnegative(),
  mime: z.string().regex(/^image\/[a-z0-9.+-]{1,40}$/),
});
export type ImageRef = z.infer<typeof ImageRefSchema>;

/** The plaintext of an encrypted message: its text and, optionally, an image. */
export const MessagePayloadSchema = z.strictObject({
  v: z.literal(1),
  text: z.string().max(20_000),
  image: ImageRefSchema.optional(),
  /** The author's ML-DSA-65 signature is carried beside, in `signature`; see docs/crypto-room.md. */
});
export type MessagePayload = z.infer<typeof MessagePayloadSchema>;
