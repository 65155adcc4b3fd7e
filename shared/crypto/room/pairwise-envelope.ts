/**
 * The serializable form of a pairwise-wrapped secret (see pairwise-wrap.ts). It travels as JSON;
 * byte fields are standard base64:
 *
 * ```
 * { "v": 1, "kind": "classic" | "hybrid",
 *   "from": <sender node id>, "to": <recipient node id>, "roomId": <room id>,
 *   "iv":  base64(12-byte GCM IV),
 *   "ct":  base64(AES-256-GCM(KEK, iv, payload, AAD) = ciphertext ‖ 16-byte tag),
 *   "kem": base64(1088-byte ML-KEM-768 ciphertext)            hybrid only }
 *
 * AAD = UTF-8(canonical JSON of {v, from, to, roomId, kind})   e.g.
 *       {"from":"node_a","kind":"hybrid","roomId":"r1","to":"node_b","v":1}
 * ```
 *
 * The header (v, kind, from, to, roomId) is readable by the relay, which needs `to` for routing;
 * it is authenticated, never secret.
 */
import { z } from 'zod';
import { utf8Encode } from '../bytes.js';
import { canonicalJson } from '../canonical-json.js';
import { GCM_IV_BYTES, GCM_TAG_BYTES } from './aes-gcm.js';
import { ML_KEM_768_CIPHERTEXT_BYTES } from './ml-kem.js';
import { DecryptError } from './room-crypto-error.js';
import { base64Field, NodeIdSchema, RoomIdSchema } from './room-wire.js';

/** Version of the pairwise envelope format. */
export const PAIRWISE_ENVELOPE_VERSION = 1;
/** Largest secret that can be wrapped: 1 KiB (a sender key is 32 bytes). */
export const MAX_PAIRWISE_PAYLOAD_BYTES = 1024;

const headerFields = {
  v: z.literal(PAIRWISE_ENVELOPE_VERSION),
  from: NodeIdSchema,
  to: NodeIdSchema,
  roomId: RoomIdSchema,
  iv: base64Field(GCM_IV_BYTES),
  ct: base64Field(MAX_PAIRWISE_PAYLOAD_BYTES + GCM_TAG_BYTES),
};

/** Schema of a pairwise envelope; exact (unknown fields are refused). */
export const PairwiseEnvelopeSchema = z.discriminatedUnion('kind', [
  z.strictObject({ ...headerFields, kind: z.literal('classic') }),
  z.strictObject({
    ...headerFields,
    kind: z.literal('hybrid'),
    kem: base64Field(ML_KEM_768_CIPHERTEXT_BYTES),
  }),
]);

/** A pairwise-wrapped secret, classic (ECDH) or hybrid (ECDH + ML-KEM-768). */
export type PairwiseEnvelope = z.infer<typeof PairwiseEnvelopeSchema>;

/** Which key agreement a pairwise envelope uses. */
export type PairwiseKind = PairwiseEnvelope['kind'];

/** The authenticated header of a pairwise envelope. */
export interface PairwiseHeader {
  kind: PairwiseKind;
  from: string;
  to: string;
  roomId: string;
}

/** The AAD of a pairwise envelope: UTF-8 of the canonical JSON of its header. */
export function pairwiseHeaderAad(header: PairwiseHeader): Uint8Array {
  const { kind, from, to, roomId } = header;
  return utf8Encode(canonicalJson({ v: PAIRWISE_ENVELOPE_VERSION, from, to, roomId, kind }));
}

/**
 * A pairwise envelope from untrusted input (a parsed JSON value).
 * @throws DecryptError `MALFORMED` when it does not match {@link PairwiseEnvelopeSchema}.
 */
export function parsePairwiseEnvelope(value: unknown): PairwiseEnvelope {
  const parsed = PairwiseEnvelopeSchema.safeParse(value);
  if (!parsed.success) throw new DecryptError('MALFORMED', { cause: parsed.error });
  return parsed.data;
}
