/**
 * Field schemas shared by the room envelopes (pairwise wrap and message): identifiers that go
 * into AAD and HKDF `info`, and base64 byte fields.
 *
 * Identifiers are printable ASCII without spaces (0x21–0x7e): in particular never 0x00, which
 * separates them inside HKDF `info`, so that encoding is injective.
 */
import { z } from 'zod';
import { base64ToBytes } from '../bytes.js';
import { SENDER_KEY_ID_PATTERN } from './ratchet.js';
import { DecryptError } from './room-crypto-error.js';

/**
 * A member's node id (the server's `nodeId`, e.g. `node_` + 16 hex digits): 1–64 characters.
 * `__proto__` is refused: node ids are keys of the RSA-OAEP recipient map.
 */
export const NodeIdSchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,64}$/, 'Invalid node id')
  .refine((value) => value !== '__proto__', 'Invalid node id');

/** A room id or secure id as bound into AAD: 1–128 printable ASCII characters. */
export const RoomIdSchema = z.string().regex(/^[\x21-\x7e]{1,128}$/, 'Invalid room id');

/** A sender key id (see `SENDER_KEY_ID_PATTERN` in ratchet.ts). */
export const SenderKeyIdSchema = z.string().regex(SENDER_KEY_ID_PATTERN, 'Invalid sender key id');

/** A ratchet iteration: a 32-bit unsigned integer. */
export const IterationSchema = z.number().int().min(0).max(0xffff_ffff);

/** Standard padded base64 of at most `maxBytes` bytes (the exact decoding is checked on use). */
export function base64Field(maxBytes: number) {
  const maxChars = Math.ceil(maxBytes / 3) * 4;
  return z
    .string()
    .max(maxChars)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Invalid base64');
}

/**
 * The bytes of a base64 field, with an optional exact length.
 * @throws DecryptError `MALFORMED` on bad base64 or a wrong length.
 */
export function decodeBase64Field(text: string, exactBytes: number | null = null): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = base64ToBytes(text);
  } catch (error) {
    throw new DecryptError('MALFORMED', { cause: error });
  }
  if (exactBytes !== null && bytes.length !== exactBytes) throw new DecryptError('MALFORMED');
  return bytes;
}

/**
 * Checks an identifier that an encryption binds into AAD or `info`.
 * @throws RangeError when it does not match `schema`.
 */
export function assertIdentifier(schema: z.ZodString, value: string, what: string): void {
  if (!schema.safeParse(value).success) throw new RangeError(`Invalid ${what}`);
}
