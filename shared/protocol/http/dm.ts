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

/** The creator's two identity signatures over the thread grant (shared/crypto/dm/thread-grant.ts). */
export const DmThreadSignatureSchema = z.strictObject({ mlDsa: b64(4500), ecdsa: b64(100) });

/**
 * A thread as one participant sees it. `encryptionKey` is the thread key wrapped to the caller;
 * `participant1` is the creator, whose `creatorSignature` over the thread grant (id, mode, both
 * identities, `keyCommitment`) the browser checks against the creator's pinned identity.
 * `mode` is always 'e2e' (server-assisted threads were removed, docs/decisions.md).
 */
export const DmThreadSchema = z.object({
  id: z.string(),
  participant1: KeyIdSchema,
  participant2: KeyIdSchema,
  mode: z.string().max(40),
  encryptionKey: z.string(),
  keyCommitment: z.string().max(60),
  creatorSignature: z.object({ mlDsa: z.string().max(4500), ecdsa: z.string().max(100) }),
  expiresAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  lastMessageAt: z.iso.datetime().nullable(),
  otherParticipantKeyId: KeyIdSchema,
  otherParticipantSecureId: z.string(),
  otherParticipantUsername: z.string(),
});
export type DmThread = z.infer<typeof DmThreadSchema>;
export const DmThreadListSchema = z.array(DmThreadSchema);

/**
 * `POST /api/dm/threads`: the creator's browser picks the thread id and key, wraps the key to
 * both participants and signs the thread grant. An existing unexpired thread between the two is
 * returned instead.
 */
export const CreateDmThreadRequestSchema = z.strictObject({
  recipientKeyId: KeyIdSchema,
  threadId: z.uuid(),
  mode: z.literal('e2e'),
  wrappedKeys: z.strictObject({ creator: b64(4000), recipient: b64(4000) }),
  keyCommitment: b64(60),
  signature: DmThreadSignatureSchema,
});
export type CreateDmThreadRequest = z.infer<typeof CreateDmThreadRequestSchema>;
export const CreateDmThreadResponseSchema = z.object({
  id: z.string(),
  encryptionKey: z.string(),
  mode: z.string().max(40),
  thread: DmThreadSchema,
});

export const DmThreadParamsSchema = z.strictObject({ id: z.uuid() });

/**
 * A direct message (spec 001 §3); `content` is filled in by the browser after decryption.
 * `sentAt` and `expiresAt` are the server's record; `counter`, `timestamp`, the sender's chosen
 * expiry and `signature` are what the sender signed (shared/crypto/dm/message-seal.ts). The
 * signature is nullable here so that a stripped one reaches the browser's check and is shown.
 */
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
  counter: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  timestamp: z.string().max(40),
  signature: z.string().max(4500).nullable(),
});
export type DirectMessage = z.infer<typeof DirectMessageSchema>;
export const DirectMessageListSchema = z.array(DirectMessageSchema);

/**
 * `POST /api/dm/threads/{id}/messages`: ciphertext and IV (base64), the expiry the sender chose,
 * the sender's counter (1, 2, 3 … per thread) and clock, and the ML-DSA-65 signature over them.
 */
export const SendDirectMessageRequestSchema = z.strictObject({
  encrypted: b64(20_000),
  iv: b64(24),
  expiresAt: z.iso.datetime(),
  counter: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  timestamp: z.iso.datetime(),
  signature: b64(4500),
});
export type SendDirectMessageRequest = z.infer<typeof SendDirectMessageRequestSchema>;

/** The auto-delete choices of the thread view (spec 001 §9), in seconds. */
export const DmTimerSchema = z.union(DM_TIMER_OPTIONS_SECONDS.map((value) => z.literal(value)));

/**
 * `GET /api/dm/keys/{keyId}`: a key holder's registered identity (ML-DSA-65 and ECDSA P-256
 * public keys, the fingerprint of both) and encryption key. The browser recomputes the
 * fingerprint, pins it on first use and never takes the server's word for a changed one.
 */
export const DmRecipientKeySchema = z.object({
  keyId: KeyIdSchema,
  username: z.string(),
  secureId: z.string(),
  fingerprint: z.string(),
  dilithiumPublicKey: z.array(z.number()),
  ecdsaPublicKey: z.array(z.number()).max(200),
  encryptionPublicKey: EncryptionPublicKeySchema.nullable(),
  encryptionKeySignature: z.array(z.number()).nullable(),
});
export type DmRecipientKey = z.infer<typeof DmRecipientKeySchema>;
export const DmKeyParamsSchema = z.strictObject({ keyId: KeyIdSchema });

export const DeleteDmThreadResponseSchema = z.object({ success: z.literal(true) });
