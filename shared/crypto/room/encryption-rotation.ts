/**
 * The seven message encryption types and the order a sender rotates through them (spec 000 §9:
 * "chosen in a rotating sequence of 7").
 */
import type { EncryptionType } from '../../protocol/ws/chat.js';

/**
 * The seven types in rotation order, as spec 000 §9 lists them. Every entry is one of the
 * `encryptionType` values of spec 000 §3 (checked by `satisfies`).
 */
export const ENCRYPTION_TYPE_SEQUENCE = [
  'PFS-ECDH',
  'AES-256-GCM',
  'AES-256-CBC',
  'RSA-OAEP',
  'ZK-AES-256',
  'E2EE-AES',
  'quantum',
] as const satisfies readonly EncryptionType[];

/** One of the seven real encryption types (not `none`, not `PLAINTEXT`). */
export type MessageEncryptionType = (typeof ENCRYPTION_TYPE_SEQUENCE)[number];

/**
 * Above this many members a room skips `RSA-OAEP`: its envelope carries one 256-byte wrapped key
 * (344 base64 characters plus the node id) per member, and with 60 members of 21-character node
 * ids that is about 30,000 of the 48,000 characters `encryptedContent` allows, leaving roughly
 * 10 KB for the text; a few dozen more members would leave none.
 */
export const RSA_OAEP_MAX_MEMBERS = 60;

/** What decides which types a room can use. */
export interface RotationConditions {
  /**
   * True when the room has an access code that the sender and every reader know (entered in the
   * access terminal). Key holders who bypassed the code do not know it and cannot read
   * `ZK-AES-256`: count them as not knowing it.
   */
  hasAccessCode: boolean;
  /** Members who will read the message, the sender included. */
  memberCount: number;
}

/** True when `value` is one of the seven real encryption types. */
export function isMessageEncryptionType(value: string): value is MessageEncryptionType {
  // Widening to string[] only lets `includes` accept any string; nothing is narrowed unchecked.
  return (ENCRYPTION_TYPE_SEQUENCE as readonly string[]).includes(value);
}

/**
 * The types usable under `conditions`, in rotation order: `ZK-AES-256` only with an access code,
 * `RSA-OAEP` only up to {@link RSA_OAEP_MAX_MEMBERS} members.
 */
export function availableEncryptionTypes(conditions: RotationConditions): MessageEncryptionType[] {
  return ENCRYPTION_TYPE_SEQUENCE.filter((type) => {
    if (type === 'ZK-AES-256') return conditions.hasAccessCode;
    if (type === 'RSA-OAEP') return conditions.memberCount <= RSA_OAEP_MAX_MEMBERS;
    return true;
  });
}

/**
 * The type of the sender's `sequenceNumber`-th message: a cycle through the usable types, so each
 * one is used equally often (a skipped type is left out, not replaced by its neighbour).
 * @throws RangeError when `sequenceNumber` is not a non-negative safe integer.
 */
export function pickEncryptionType(
  sequenceNumber: number,
  conditions: RotationConditions,
): MessageEncryptionType {
  if (!Number.isSafeInteger(sequenceNumber) || sequenceNumber < 0) {
    throw new RangeError('The sequence number is a non-negative integer');
  }
  const types = availableEncryptionTypes(conditions);
  return types[sequenceNumber % types.length]!;
}
