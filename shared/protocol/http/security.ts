/** HTTP schemas of the key-exchange helpers and certificate info (spec 000 §3, §7). */
import { z } from 'zod';

/** `POST /api/key-exchange/entropy` body: how many bytes the browser asks for (default 32). */
export const EntropyRequestSchema = z.strictObject({
  requestEntropy: z.union([z.boolean(), z.number().int().min(16).max(64)]).optional(),
});
/**
 * Server entropy the browser mixes into its own randomness (never relies on): hex strings, plus
 * the PBKDF2 parameters of the key-derivation fallback.
 */
export const EntropyResponseSchema = z.object({
  serverEntropy: z.string().regex(/^[0-9a-f]+$/),
  salt: z.string().regex(/^[0-9a-f]{32}$/),
  iterations: z.number().int().positive(),
});
export type EntropyResponse = z.infer<typeof EntropyResponseSchema>;

/** `POST /api/pfs/exchange` body: the browser's ephemeral P-256 public point (base64, 65 bytes). */
export const PfsExchangeRequestSchema = z.strictObject({
  clientPublicKey: z
    .string()
    .max(120)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/),
  clientKeyId: z.string().min(1).max(100),
});
/**
 * Answer: the server's current P-256 public key (rotated every 30 minutes, kept 10 minutes more)
 * and a key confirmation: HMAC-SHA-256 over `clientKeyId` under HKDF(shared secret), so the
 * browser can check both sides derived the same secret.
 */
export const PfsExchangeResponseSchema = z.object({
  serverPublicKey: z.string(),
  serverKeyId: z.string(),
  expiresAt: z.iso.datetime(),
  confirmation: z.string(),
});
export type PfsExchangeResponse = z.infer<typeof PfsExchangeResponseSchema>;
