/** Direct-message calls (spec 001 §3, §7 "Direct messages"). All need a key holder's bearer token. */
import { z } from 'zod';
import { DM_TIMER_OPTIONS_SECONDS } from '../../constants.js';
import { EncryptionPublicKeySchema } from '../../crypto/dm/encryption-keys.js';
import { KeyIdSchema } from '../../ids.js';

const b64 = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Expected base64');

/** A thread as one participant sees it. `encryptionKey` is the thread key wrapped to the caller
 * (mode e2e) or the thread key itself in base64 (mode server-assisted). */
export const DmThreadSchema = z.object({
  id: z.string(),
  participant1: KeyIdSchema,
  participant2: KeyIdSchema,
  mode: z.enum(['e2e', 'server-assisted']),
  encryptionKey: z.string(),
  expiresAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  lastMessageAt: z.iso.datetime().nullable(),
  otherParticipantKeyId: KeyIdSchema,
  otherParticipantSecureId: z.string(),
  otherParticipantUsername: z.string(),
});
export type DmThread = z.infer<typeof DmThreadSchema>;
export const DmThreadListSchema = z.array(DmThreadSchema);

/** `POST /api/dm/threads`. `wrappedKeys` is required when both sides have encryption keys. */
export const CreateDmThreadRequestSchema = z.strictObject({
  recipientKeyId: KeyIdSchema,
  wrappedKeys: z.strictObject({ creator: b64(4000), recipient: b64(4000) }).optional(),
});
export const CreateDmThreadResponseSchema = z.object({
  id: z.string(),
  encryptionKey: z.string(),
  mode: z.enum(['e2e', 'server-assisted']),
  thread: DmThreadSchema,
});

export const DmThreadParamsSchema = z.strictObject({ id: z.uuid() });

/** A direct message (spec 001 §3); `content` is filled in by the browser after decryption. */
export const DirectMessageSchema = z.object({
  id: z.string(),
  threadId: z.string(),
  senderKeyId: KeyIdSchema,
  senderSecureId: z.string(),
  senderUsername: z.string(),
  sentAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  encryptedContent: z.string(),
  iv: z.string(),
});
export type DirectMessage = z.infer<typeof DirectMessageSchema>;
export const DirectMessageListSchema = z.array(DirectMessageSchema);

/** `POST /api/dm/threads/{id}/messages`: ciphertext and IV (base64) and the expiry the sender chose. */
export const SendDirectMessageRequestSchema = z.strictObject({
  encrypted: b64(20_000),
  iv: b64(24),
  expiresAt: z.iso.datetime(),
});

/** The auto-delete choices of the thread view (spec 001 §9), in seconds. */
export const DmTimerSchema = z.union(DM_TIMER_OPTIONS_SECONDS.map((value) => z.literal(value)));

/** `GET /api/dm/keys/{keyId}`: what a browser needs to wrap a thread key for a key holder. */
export const DmRecipientKeySchema = z.object({
  keyId: KeyIdSchema,
  username: z.string(),
  secureId: z.string(),
  fingerprint: z.string(),
  dilithiumPublicKey: z.array(z.number()),
  encryptionPublicKey: EncryptionPublicKeySchema.nullable(),
  encryptionKeySignature: z.array(z.number()).nullable(),
});
export type DmRecipientKey = z.infer<typeof DmRecipientKeySchema>;
export const DmKeyParamsSchema = z.strictObject({ keyId: KeyIdSchema });

export const DeleteDmThreadResponseSchema = z.object({ success: z.literal(true) });
