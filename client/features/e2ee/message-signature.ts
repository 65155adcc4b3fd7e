/**
 * The per-message signature (spec 000 §3 "Message": `signature`): ML-DSA-65 with the sender's
 * session signing key over the message's room, sender, type, body, and a message id and time the
 * sender chose, so that a signature cannot be replayed under another id or at another time:
 *
 * ```
 * signed bytes = UTF-8( canonical JSON {
 *     "ctx": "securechannel/v2/room-message", "room": secureId, "from": sender nodeId,
 *     "t": encryptionType, "id": 32 hex digits (random, per message), "ts": sender's ms time,
 *     "ct": hex SHA-256(UTF-8(encryptedContent, or content for PLAINTEXT)) } )
 * signature (the frame's `signature` string) = "2." id "." ts "." base64(3309-byte ML-DSA-65)
 * ```
 *
 * The session key is bound to a key holder's identity by their signed bundle, so a good signature
 * from a verified member is a message from that key holder. It is what authenticates authorship:
 * the sender keys are shared by the whole room (docs/crypto-room.md §9). Readers refuse a
 * message id they have seen before and a signed time outside the message's lifetime
 * (message-authenticity.ts).
 */
import {
  base64ToBytes,
  bytesToBase64,
  utf8Encode,
  type RandomBytesSource,
} from '../../../shared/crypto/bytes.js';
import { canonicalJson } from '../../../shared/crypto/canonical-json.js';
import { sha256Hex } from '../../../shared/crypto/fingerprint.js';
import { signMlDsa, verifyMlDsa } from '../../../shared/crypto/ml-dsa.js';
import { MESSAGE_SIGNATURE_CONTEXT } from './e2ee-constants.js';

/** What a message signature covers. */
export interface SignedMessageFields {
  roomId: string;
  senderNodeId: string;
  encryptionType: string;
  /** `encryptedContent`, or `content` for a PLAINTEXT message. */
  body: string;
  /** The sender's message id: 32 lowercase hex digits, fresh for every message. */
  messageId: string;
  /** When the sender signed it, in ms since the epoch (the sender's clock). */
  sentAt: number;
}

/** How a message's signature checked out, as each message shows it. */
export type SignatureState = 'verified' | 'unverified' | 'bad' | 'replayed' | 'forged';

/** The id and time a signature string names, with the raw signature. */
export interface ParsedSignature {
  messageId: string;
  sentAt: number;
  bytes: Uint8Array;
}

const SIGNATURE_PATTERN = /^2\.([0-9a-f]{32})\.(\d{1,15})\.([A-Za-z0-9+/]+={0,2})$/;

/** A fresh message id (16 random bytes as hex). */
export function newMessageId(random: RandomBytesSource): string {
  return Array.from(random(16), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The bytes a message signature covers. */
export function messageSignedBytes(fields: SignedMessageFields): Uint8Array {
  return utf8Encode(
    canonicalJson({
      ctx: MESSAGE_SIGNATURE_CONTEXT,
      room: fields.roomId,
      from: fields.senderNodeId,
      t: fields.encryptionType,
      id: fields.messageId,
      ts: fields.sentAt,
      ct: sha256Hex(utf8Encode(fields.body)),
    }),
  );
}

/** The digest of a message body this tab sent: what the own-message check compares. */
export function bodyDigest(body: string): string {
  return sha256Hex(utf8Encode(body));
}

/** The frame's `signature` string of a message. */
export function signMessage(fields: SignedMessageFields, secretKey: Uint8Array): string {
  const signature = bytesToBase64(signMlDsa(messageSignedBytes(fields), secretKey));
  return `2.${fields.messageId}.${fields.sentAt}.${signature}`;
}

/** The parts of a signature string, or null when it is missing or not of this format. */
export function parseSignature(signature: string | null): ParsedSignature | null {
  const match = signature === null ? null : SIGNATURE_PATTERN.exec(signature);
  if (!match) return null;
  try {
    return { messageId: match[1]!, sentAt: Number(match[2]), bytes: base64ToBytes(match[3]!) };
  } catch {
    return null;
  }
}

/** True when `signature` verifies under one of `publicKeys`. Never throws. */
export function isMessageSignatureValid(
  fields: Omit<SignedMessageFields, 'messageId' | 'sentAt'>,
  signature: ParsedSignature | null,
  publicKeys: readonly Uint8Array[],
): boolean {
  if (signature === null || publicKeys.length === 0) return false;
  const message = messageSignedBytes({
    ...fields,
    messageId: signature.messageId,
    sentAt: signature.sentAt,
  });
  return publicKeys.some((publicKey) => verifyMlDsa(signature.bytes, message, publicKey));
}
