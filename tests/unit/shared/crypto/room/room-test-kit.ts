/**
 * Shared set-up of the room-crypto tests: one room's keys, sender and reader contexts, scripted
 * randomness and envelope tampering. Key pairs that WebCrypto makes slowly (RSA) or that cost
 * 100,000 PBKDF2 iterations (ZK) are made once per test file.
 */
import { expect } from 'vitest';
import {
  base64ToBytes,
  bytesToBase64,
  hexToBytes,
  utf8Decode,
  utf8Encode,
  type RandomBytesSource,
} from '../../../../../shared/crypto/bytes.js';
import { canonicalJson } from '../../../../../shared/crypto/canonical-json.js';
import {
  createReceiverChain,
  createSenderChain,
  deriveZkKey,
  DecryptError,
  generateRsaOaepKeyPair,
  type DecryptContext,
  type DecryptErrorCode,
  type EncryptContext,
  type RsaOaepKeyPair,
  type WebCryptoKey,
} from '../../../../../shared/crypto/room/index.js';
import { seededRandom } from '../../../../../scripts/crypto-fixtures.js';
import { flipBit } from '../../../../support/bytes.js';

export const ROOM_ID = 'c'.repeat(64);
export const OTHER_ROOM_ID = 'd'.repeat(64);
export const SENDER = 'node_aaaaaaaaaaaaaaaa';
export const READER = 'node_bbbbbbbbbbbbbbbb';
export const OTHER_MEMBER = 'node_cccccccccccccccc';
export const SENDER_KEY_ID = 'epoch0001';
export const ACCESS_CODE = 'tango-foxtrot-42';

/** Everything one room's members hold. */
export interface RoomKeys {
  classicKey: Uint8Array;
  quantumKey: Uint8Array;
  readerRsa: RsaOaepKeyPair;
  otherRsa: RsaOaepKeyPair;
  zkKey: WebCryptoKey;
  otherRoomZkKey: WebCryptoKey;
}

/**
 * Makes the keys of the test room (slow: RSA key generation and two PBKDF2 runs). Another
 * `label` gives other sender keys, another `accessCode` another ZK key.
 */
export async function makeRoomKeys(
  label = 'room test keys',
  accessCode = ACCESS_CODE,
): Promise<RoomKeys> {
  const random = seededRandom(label);
  const [readerRsa, otherRsa, zkKey, otherRoomZkKey] = await Promise.all([
    generateRsaOaepKeyPair(),
    generateRsaOaepKeyPair(),
    deriveZkKey(accessCode, ROOM_ID),
    deriveZkKey(accessCode, OTHER_ROOM_ID),
  ]);
  return {
    classicKey: random(32),
    quantumKey: random(32),
    readerRsa,
    otherRsa,
    zkKey,
    otherRoomZkKey,
  };
}

/** The sender's context: a fresh chain at iteration 0. */
export function senderContext(
  keys: RoomKeys,
  overrides: Partial<EncryptContext> = {},
): EncryptContext {
  return {
    roomId: ROOM_ID,
    senderNodeId: SENDER,
    chain: createSenderChain(SENDER_KEY_ID, keys.classicKey),
    classicKey: keys.classicKey,
    quantumKey: keys.quantumKey,
    rsaRecipients: new Map([
      [READER, keys.readerRsa.publicKey],
      [OTHER_MEMBER, keys.otherRsa.publicKey],
    ]),
    zkKey: keys.zkKey,
    ...overrides,
  };
}

/** The reader's context: a fresh copy of the sender's chain at iteration 0. */
export function readerContext(
  keys: RoomKeys,
  overrides: Partial<DecryptContext> = {},
): DecryptContext {
  return {
    roomId: ROOM_ID,
    senderNodeId: SENDER,
    senderKeyId: SENDER_KEY_ID,
    chain: createReceiverChain(SENDER_KEY_ID, keys.classicKey),
    classicKey: keys.classicKey,
    quantumKey: keys.quantumKey,
    rsa: { nodeId: READER, privateKey: keys.readerRsa.privateKey },
    zkKey: keys.zkKey,
    ...overrides,
  };
}

/** A source that hands out exactly the bytes of `hex`, in order, and fails past their end. */
export function replayRandom(hex: string): RandomBytesSource & { remaining: () => number } {
  const bytes = hexToBytes(hex);
  let offset = 0;
  const source = (count: number) => {
    if (offset + count > bytes.length) throw new Error('replayRandom ran out of bytes');
    offset += count;
    return bytes.slice(offset - count, offset);
  };
  return Object.assign(source, { remaining: () => bytes.length - offset });
}

/** The decoded JSON object of an envelope text. */
export function openEnvelope(text: string): Record<string, unknown> {
  // The test reads an envelope it made itself; its shape is the library's.
  return JSON.parse(utf8Decode(base64ToBytes(text))) as Record<string, unknown>;
}

/** Re-encodes an edited envelope object as the library does. */
export function sealEnvelope(value: Record<string, unknown>): string {
  return bytesToBase64(utf8Encode(canonicalJson(value)));
}

/** The envelope with one bit flipped in the bytes of base64 field `field` (at byte `index`). */
export function flipEnvelopeField(text: string, field: string, index = 0): string {
  const envelope = openEnvelope(text);
  const value = envelope[field];
  if (typeof value !== 'string') throw new Error(`no field ${field}`);
  envelope[field] = bytesToBase64(flipBit(base64ToBytes(value), index));
  return sealEnvelope(envelope);
}

/** The envelope with one bit flipped in the reader's RSA-OAEP entry. */
export function flipRecipientEntry(text: string, nodeId: string): string {
  const envelope = openEnvelope(text);
  // The test made this RSA-OAEP envelope; `rk` is a map of base64 strings.
  const entries = { ...(envelope.rk as Record<string, string>) };
  entries[nodeId] = bytesToBase64(flipBit(base64ToBytes(entries[nodeId]!), 100));
  return sealEnvelope({ ...envelope, rk: entries });
}

/** A ZK text with one bit flipped in its IV (part 0) or ciphertext (part 1) at `index`. */
export function flipZkPart(text: string, part: 0 | 1, index: number): string {
  const parts = text.split(':');
  parts[part] = bytesToBase64(flipBit(base64ToBytes(parts[part]!), index));
  return parts.join(':');
}

/** Asserts that `promise` rejects with a {@link DecryptError} of `code`. */
export async function expectDecryptError(promise: Promise<unknown>, code: DecryptErrorCode) {
  const error: unknown = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(DecryptError);
  // Safe: the assertion above fails the test unless `error` is a DecryptError.
  const decryptError = error as DecryptError;
  expect(decryptError.code).toBe(code);
  return decryptError;
}
