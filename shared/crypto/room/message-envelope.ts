/**
 * The envelope of every message type but `ZK-AES-256` (whose format is the spec's `iv:ct`):
 *
 * ```
 * encryptedContent = base64( UTF-8( canonical JSON of
 *   { "v": 1, "t": type, "k": senderKeyId, "i": iteration,
 *     "iv": base64(IV), "ct": base64(ciphertext ‖ tag),
 *     …type-specific fields } ) )                              at most 48,000 characters
 *
 * type          iv   ct                         extra fields
 * PFS-ECDH      12   GCM ct ‖ tag(16)           –
 * E2EE-AES      12   GCM ct ‖ tag(16)           –
 * quantum       12   GCM ct ‖ tag(16)           –
 * AES-256-GCM   12   GCM ct ‖ tag(16)           "wiv": 12-byte IV, "wk": wrapped content key (48)
 * AES-256-CBC   16   CBC ct (n × 16)            "tag": HMAC-SHA-256 (32)
 * RSA-OAEP      12   GCM ct ‖ tag(16)           "rk": { nodeId: RSA-OAEP(content key) (256) }
 *
 * AAD = UTF-8( canonical JSON of {"from": senderNodeId, "i": iteration, "k": senderKeyId,
 *                                 "room": roomId, "t": type, "v": 1} )
 * ```
 *
 * The AAD ties every ciphertext to its room, its sender, its type, its sender key and its
 * iteration: moved to another room, attributed to another sender or relabelled, it fails to
 * authenticate. The room and sender come from the reader's context, never from the envelope.
 */
import { z } from 'zod';
import { bytesToBase64, base64ToBytes, utf8Decode, utf8Encode } from '../bytes.js';
import { canonicalJson } from '../canonical-json.js';
import type { MessageEncryptionType } from './encryption-rotation.js';
import { DecryptError } from './room-crypto-error.js';
import { RSA_OAEP_CIPHERTEXT_BYTES } from './rsa-oaep.js';
import {
  assertIdentifier,
  base64Field,
  IterationSchema,
  NodeIdSchema,
  RoomIdSchema,
  SenderKeyIdSchema,
} from './room-wire.js';

/** Version of the message envelope and AAD format. */
export const MESSAGE_ENVELOPE_VERSION = 1;
/** Largest `encryptedContent`, in characters (the `send_message` schema's limit). */
export const MAX_ENCRYPTED_CONTENT_CHARS = 48_000;
/** Largest ciphertext that can fit an envelope at all, in bytes. */
export const MAX_ENVELOPE_CIPHERTEXT_BYTES = 36_000;

/** The types that use this envelope. */
export type EnvelopeEncryptionType = Exclude<MessageEncryptionType, 'ZK-AES-256'>;

const common = {
  v: z.literal(MESSAGE_ENVELOPE_VERSION),
  k: SenderKeyIdSchema,
  i: IterationSchema,
  iv: base64Field(16),
  ct: base64Field(MAX_ENVELOPE_CIPHERTEXT_BYTES),
};

/** Schema of a decoded envelope; exact (unknown fields are refused). */
export const MessageEnvelopeSchema = z.discriminatedUnion('t', [
  z.strictObject({ ...common, t: z.literal('PFS-ECDH') }),
  z.strictObject({ ...common, t: z.literal('E2EE-AES') }),
  z.strictObject({ ...common, t: z.literal('quantum') }),
  z.strictObject({
    ...common,
    t: z.literal('AES-256-GCM'),
    wiv: base64Field(12),
    wk: base64Field(48),
  }),
  z.strictObject({ ...common, t: z.literal('AES-256-CBC'), tag: base64Field(32) }),
  z.strictObject({
    ...common,
    t: z.literal('RSA-OAEP'),
    rk: z.record(NodeIdSchema, base64Field(RSA_OAEP_CIPHERTEXT_BYTES)),
  }),
]);

/** A decoded message envelope. */
export type MessageEnvelope = z.infer<typeof MessageEnvelopeSchema>;

/** What the AAD binds. */
export interface MessageAadFields {
  roomId: string;
  senderNodeId: string;
  type: EnvelopeEncryptionType;
  senderKeyId: string;
  iteration: number;
}

/** The header a reader may look at before choosing keys. */
export interface MessageHeader {
  type: EnvelopeEncryptionType;
  senderKeyId: string;
  iteration: number;
}

/**
 * The AAD of a message (see the diagram above).
 * @throws RangeError when an identifier is malformed.
 */
export function buildMessageAad(fields: MessageAadFields): Uint8Array {
  const { roomId, senderNodeId, type, senderKeyId, iteration } = fields;
  assertIdentifier(RoomIdSchema, roomId, 'room id');
  assertIdentifier(NodeIdSchema, senderNodeId, 'sender node id');
  return utf8Encode(
    canonicalJson({
      v: MESSAGE_ENVELOPE_VERSION,
      room: roomId,
      from: senderNodeId,
      t: type,
      k: senderKeyId,
      i: iteration,
    }),
  );
}

/** The `encryptedContent` text of an envelope: base64 of its canonical JSON. */
export function encodeMessageEnvelope(envelope: MessageEnvelope): string {
  return bytesToBase64(utf8Encode(canonicalJson(envelope)));
}

/**
 * The envelope in an `encryptedContent` text, checked against {@link MessageEnvelopeSchema}.
 * Oversized text is refused before it is decoded.
 * @throws DecryptError `MALFORMED` on anything that is not a valid envelope.
 */
export function decodeMessageEnvelope(text: string): MessageEnvelope {
  if (text.length > MAX_ENCRYPTED_CONTENT_CHARS) throw new DecryptError('MALFORMED');
  let value: unknown;
  try {
    value = JSON.parse(utf8Decode(base64ToBytes(text)));
  } catch (error) {
    throw new DecryptError('MALFORMED', { cause: error });
  }
  const parsed = MessageEnvelopeSchema.safeParse(value);
  if (!parsed.success) throw new DecryptError('MALFORMED', { cause: parsed.error });
  return parsed.data;
}

/**
 * The type, sender key id and iteration of an `encryptedContent` text, so that a reader can pick
 * the sender's keys for that epoch before decrypting. Not authenticated until decryption.
 * @throws DecryptError `MALFORMED` as {@link decodeMessageEnvelope}.
 */
export function readMessageHeader(text: string): MessageHeader {
  const { t: type, k: senderKeyId, i: iteration } = decodeMessageEnvelope(text);
  return { type, senderKeyId, iteration };
}
