/**
 * The per-message signature (spec 000 §3 "Message": `signature`): ML-DSA-65 with the sender's
 * session signing key over
 *
 * ```
 * UTF-8( canonical JSON { "ctx": "securechannel/v1/room-message", "room": secureId,
 *                         "from": sender nodeId, "t": encryptionType,
 *                         "ct": hex SHA-256(UTF-8(encryptedContent, or content for PLAINTEXT)) } )
 * signature = base64(3309 bytes)
 * ```
 *
 * The session key is bound to a key holder's identity by their signed bundle, so a good signature
 * from a verified member is a message from that key holder. It is what authenticates authorship:
 * the sender keys are shared by the whole room (docs/crypto-room.md §9).
 */
import { base64ToBytes, bytesToBase64, utf8Encode } from '../../../shared/crypto/bytes.js';
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
}

/** How a message's signature checked out, as each message shows it. */
export type SignatureState = 'verified' | 'unverified' | 'bad';

/** The bytes a message signature covers. */
export function messageSignedBytes(fields: SignedMessageFields): Uint8Array {
  return utf8Encode(
    canonicalJson({
      ctx: MESSAGE_SIGNATURE_CONTEXT,
      room: fields.roomId,
      from: fields.senderNodeId,
      t: fields.encryptionType,
      ct: sha256Hex(utf8Encode(fields.body)),
    }),
  );
}

/** The base64 signature of a message. */
export function signMessage(fields: SignedMessageFields, secretKey: Uint8Array): string {
  return bytesToBase64(signMlDsa(messageSignedBytes(fields), secretKey));
}

/** True when `signature` verifies under one of `publicKeys`. Never throws. */
export function isMessageSignatureValid(
  fields: SignedMessageFields,
  signature: string | null,
  publicKeys: readonly Uint8Array[],
): boolean {
  if (signature === null || publicKeys.length === 0) return false;
  let bytes: Uint8Array;
  try {
    bytes = base64ToBytes(signature);
  } catch {
    return false;
  }
  const message = messageSignedBytes(fields);
  return publicKeys.some((publicKey) => verifyMlDsa(bytes, message, publicKey));
}
