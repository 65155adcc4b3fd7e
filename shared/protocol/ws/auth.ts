/**
 * Key login over the chat socket (docs/protocol.md "Key login on the socket"): the same
 * challenge–response as `POST /api/auth/challenge` and `POST /api/auth/verify` (DESIGN.md
 * "Login"), as two frames on the `/chat-ws` socket the chat then goes on using. The signatures
 * travel as base64 instead of arrays of numbers. The answer is a session token like the verify
 * route's; the socket itself takes no identity from it (it joins with the token, as any socket).
 * A refusal is the hub's `error` frame with the route's text, and `retryAfterSeconds` when the
 * login queue is full (the route's 503 with Retry-After).
 */
import { z } from 'zod';
import { ECDSA_P256_SIGNATURE_BYTES, ML_DSA_65_SIGNATURE_BYTES } from '../../constants.js';
import { base64ToBytes } from '../../crypto/bytes.js';
import { KeyIdSchema } from '../../ids.js';
import { ChallengeResponseSchema, VerifyResponseSchema } from '../http/auth.js';

/** Exactly `bytes` bytes as standard padded base64, parsed to bytes. */
const base64Bytes = (bytes: number) =>
  z
    .string()
    .length(4 * Math.ceil(bytes / 3))
    .transform((text, context): Uint8Array<ArrayBuffer> => {
      try {
        const value = base64ToBytes(text);
        if (value.length === bytes) return value;
      } catch {
        // Reported below, as for a wrong length.
      }
      context.addIssue({ code: 'custom', message: `Expected ${bytes} bytes as base64` });
      return z.NEVER;
    });

/** `login_challenge`: asks for a single-use challenge for a registered key. */
export const LoginChallengeFrameSchema = z.strictObject({
  type: z.literal('login_challenge'),
  keyId: KeyIdSchema,
});

/** `login_verify`: the challenge signed with both of the key's signing keys. */
export const LoginVerifyFrameSchema = z.strictObject({
  type: z.literal('login_verify'),
  keyId: KeyIdSchema,
  challenge: z.string().min(1).max(200),
  dilithiumSignature: base64Bytes(ML_DSA_65_SIGNATURE_BYTES),
  ecdsaSignature: base64Bytes(ECDSA_P256_SIGNATURE_BYTES),
});

/** Server → client: the challenge, as `POST /api/auth/challenge` answers it. */
export const LoginChallengeIssuedFrameSchema = ChallengeResponseSchema.extend({
  type: z.literal('login_challenge_issued'),
});
export type LoginChallengeIssuedFrame = z.infer<typeof LoginChallengeIssuedFrameSchema>;

/** Server → client: the session opened, as `POST /api/auth/verify` answers it. */
export const LoginSessionFrameSchema = VerifyResponseSchema.extend({
  type: z.literal('login_session'),
});
export type LoginSessionFrame = z.infer<typeof LoginSessionFrameSchema>;
