/**
 * HTTP schemas of key registration, login and sessions (spec 000 §3, §7; DESIGN.md "Login").
 * Byte arrays travel as arrays of numbers.
 */
import { z } from 'zod';
import { ECDSA_P256_SIGNATURE_BYTES, ML_DSA_65_SIGNATURE_BYTES } from '../../constants.js';
import { isByteValue } from '../../crypto/bytes.js';
import { KeyCapabilitySchema, KeyPermissionLevelSchema } from '../../crypto/key-levels.js';
import { KeyIdSchema } from '../../ids.js';

/**
 * Bytes as an array of numbers, checked in one pass: element-by-element schemas cost ~8× more on a
 * 3,309-byte signature, and a login burst parses hundreds of them on the event loop. The metadata
 * keeps the OpenAPI document exact.
 */
const byteArray = (length: { exactly: number } | { max: number }) => {
  const [min, max] = 'exactly' in length ? [length.exactly, length.exactly] : [0, length.max];
  return z
    .custom<number[]>(
      (value) =>
        Array.isArray(value) &&
        value.length >= min &&
        value.length <= max &&
        value.every(isByteValue),
      min === max
        ? `Expected ${min} integers in 0..255`
        : `Expected at most ${max} integers in 0..255`,
    )
    .meta({
      type: 'array',
      items: { type: 'integer', minimum: 0, maximum: 255 },
      minItems: min,
      maxItems: max,
    });
};

/** `POST /api/auth/challenge` body. */
export const ChallengeRequestSchema = z.strictObject({ keyId: KeyIdSchema });
export type ChallengeRequest = z.infer<typeof ChallengeRequestSchema>;

/** `POST /api/auth/challenge` answer: single use, valid two minutes. */
export const ChallengeResponseSchema = z.object({
  challenge: z.string(),
  nonce: z.string(),
  timestamp: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
});
export type ChallengeResponse = z.infer<typeof ChallengeResponseSchema>;

/**
 * `POST /api/auth/verify` body. The server checks both signatures against the keys it has on
 * record; `publicKey` is accepted for compatibility with the spec's payload and never trusted.
 */
export const VerifyRequestSchema = z.strictObject({
  keyId: KeyIdSchema,
  challenge: z.string().min(1).max(200),
  dilithiumSignature: byteArray({ exactly: ML_DSA_65_SIGNATURE_BYTES }),
  ecdsaSignature: byteArray({ exactly: ECDSA_P256_SIGNATURE_BYTES }),
  publicKey: byteArray({ max: 4096 }).optional(),
});
export type VerifyRequest = z.infer<typeof VerifyRequestSchema>;

/** The user a session belongs to (spec 000 §3 "User"). */
export const SessionUserSchema = z.object({
  keyId: KeyIdSchema,
  username: z.string(),
  secureId: z.string(),
  permissions: z.object({
    level: KeyPermissionLevelSchema,
    capabilities: z.array(KeyCapabilitySchema),
  }),
  expires: z.iso.datetime().nullable(),
});
export type SessionUser = z.infer<typeof SessionUserSchema>;

/** `POST /api/auth/verify` answer. */
export const VerifyResponseSchema = z.object({
  sessionToken: z.string(),
  expiresAt: z.iso.datetime(),
  user: SessionUserSchema,
});
export type VerifyResponse = z.infer<typeof VerifyResponseSchema>;

/** `GET /api/auth/session` answer: a session counts only when `valid` and `user` are both there. */
export const SessionResponseSchema = z.object({
  valid: z.boolean(),
  user: SessionUserSchema.nullable(),
});
export type SessionResponse = z.infer<typeof SessionResponseSchema>;

/** `POST /api/auth/logout` answer. */
export const LogoutResponseSchema = z.object({ success: z.literal(true) });

/** `POST /api/keys/register` answer. */
export const RegisterKeyResponseSchema = z.object({
  success: z.literal(true),
  keyId: KeyIdSchema,
  username: z.string(),
  level: KeyPermissionLevelSchema,
});
export type RegisterKeyResponse = z.infer<typeof RegisterKeyResponseSchema>;

/** One row of `GET /api/admin/keys` (spec 001 §3 "Admin key list item"). */
export const AdminKeySchema = z.object({
  keyId: KeyIdSchema,
  username: z.string(),
  permissions: z.object({ level: KeyPermissionLevelSchema }),
  expires: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  revoked: z.boolean(),
  fingerprint: z.string(),
});
export const AdminKeyListSchema = z.object({ keys: z.array(AdminKeySchema) });
export type AdminKeyList = z.infer<typeof AdminKeyListSchema>;

/** `DELETE /api/admin/keys/{keyId}` params and answer. */
export const KeyIdParamsSchema = z.strictObject({ keyId: KeyIdSchema });
export const RevokeKeyResponseSchema = z.object({
  success: z.literal(true),
  keyId: KeyIdSchema,
  sessionsEnded: z.number().int().nonnegative(),
});

/** One entry of `GET /api/auth/registered-users` (spec 001 §3 "Registered user"). */
export const RegisteredUserSchema = z.object({
  keyId: KeyIdSchema,
  secureId: z.string(),
  normalizedSecureId: z.string(),
  username: z.string(),
});
export const RegisteredUsersSchema = z.array(RegisteredUserSchema);
export type RegisteredUser = z.infer<typeof RegisteredUserSchema>;

/** `POST /api/admin/authenticate` body and answer (spec 001 §7). */
export const AdminAuthenticateRequestSchema = z.strictObject({
  password: z.string().min(1).max(512),
});
export const AdminAuthenticateResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  sessionToken: z.string(),
  expiresAt: z.iso.datetime(),
});
