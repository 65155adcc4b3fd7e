/**
 * One direct message on the wire (spec 001 §5; docs/crypto.md, "Direct messages: messages").
 * AES-256-GCM under SHA-256(thread key) with a 12-byte random IV, as the spec says, plus:
 *
 * ```
 * aad       = encode("securechannel/v1/dm/message-aad", [threadId, senderKeyId, u64be(counter)])
 * signed    = encode("securechannel/v1/dm/message",
 *                    [threadId, u64be(counter), senderKeyId, timestamp, expiresAt,
 *                     SHA-256(iv ‖ ciphertext‖tag)])
 * signature = base64(ML-DSA-65(signed) under the sender's identity key), 3309 bytes
 * ```
 * `encode` is {@link encodeSignedFields}; `timestamp` and `expiresAt` are the sender's ISO strings.
 * The AAD binds the ciphertext to its thread, sender and place in the sender's sequence; the
 * signature says who wrote it, when, and for how long. `counter` starts at 1 and rises by one
 * with each message a sender sends in a thread: readers use it to show replays, reordering and
 * gaps (client/features/dm/message-sequence.ts).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { AES_GCM_IV_BYTES } from '../../constants.js';
import { randomBytes } from '../../ids.js';
import { base64ToBytes, bytesToBase64, concatBytes, utf8Decode, utf8Encode } from '../bytes.js';
import { signMlDsa, verifyMlDsa } from '../ml-dsa.js';
import { aesGcmDecrypt, aesGcmEncrypt } from '../room/aes-gcm.js';
import { DecryptError } from '../room/room-crypto-error.js';
import { encodeSignedFields } from './signed-fields.js';

/** Where a message belongs: the thread, its sender and its place in the sender's sequence. */
export interface MessageHeader {
  threadId: string;
  senderKeyId: string;
  counter: number;
  /** The sender's clock, ISO. */
  timestamp: string;
  /** When the sender wants it gone, ISO. */
  expiresAt: string;
}

/** A sealed message as it travels (base64 fields). */
export interface SealedDirectMessage {
  encrypted: string;
  iv: string;
  counter: number;
  timestamp: string;
  expiresAt: string;
  signature: string;
}

/** The signature did not verify under the sender's identity key (or was missing). */
export class MessageSignatureError extends Error {
  override readonly name = 'MessageSignatureError';
  constructor(options?: { cause?: unknown }) {
    super('Sender signature invalid', options);
  }
}

/** The associated data of a message's AES-GCM. */
export function messageAad(threadId: string, senderKeyId: string, counter: number): Uint8Array {
  return encodeSignedFields('securechannel/v1/dm/message-aad', [threadId, senderKeyId, counter]);
}

/** The bytes the sender's ML-DSA-65 signature covers. */
export function messageSignedBytes(
  header: MessageHeader,
  iv: Uint8Array,
  ciphertext: Uint8Array,
): Uint8Array {
  return encodeSignedFields('securechannel/v1/dm/message', [
    header.threadId,
    header.counter,
    header.senderKeyId,
    header.timestamp,
    header.expiresAt,
    sha256(concatBytes(iv, ciphertext)),
  ]);
}

/** The message key of spec 001 §5: SHA-256 of the thread key. */
function messageKey(threadKey: Uint8Array): Uint8Array {
  return sha256(threadKey);
}

/** Encrypts and signs `text` for the thread. */
export async function sealDirectMessage(
  text: string,
  threadKey: Uint8Array,
  header: MessageHeader,
  dilithiumPrivateKey: Uint8Array,
): Promise<SealedDirectMessage> {
  const iv = randomBytes(AES_GCM_IV_BYTES);
  const aad = messageAad(header.threadId, header.senderKeyId, header.counter);
  const sealed = await aesGcmEncrypt(messageKey(threadKey), iv, utf8Encode(text), aad);
  const signature = signMlDsa(messageSignedBytes(header, iv, sealed), dilithiumPrivateKey);
  return {
    encrypted: bytesToBase64(sealed),
    iv: bytesToBase64(iv),
    counter: header.counter,
    timestamp: header.timestamp,
    expiresAt: header.expiresAt,
    signature: bytesToBase64(signature),
  };
}

/**
 * Checks the sender's signature, then decrypts. Throws {@link MessageSignatureError} for a
 * missing or bad signature, DecryptError for a malformed message, an IV that is not 12 bytes
 * (spec 001 §5) or a tag that does not verify (wrong thread, sender or counter in the AAD).
 */
export async function openDirectMessage(
  message: { encrypted: string; iv: string; signature: string | null },
  header: MessageHeader,
  threadKey: Uint8Array,
  senderDilithiumPublicKey: Uint8Array,
): Promise<string> {
  let iv: Uint8Array;
  let sealed: Uint8Array;
  try {
    iv = base64ToBytes(message.iv);
    sealed = base64ToBytes(message.encrypted);
  } catch (error) {
    throw new DecryptError('MALFORMED', { cause: error });
  }
  if (iv.length !== AES_GCM_IV_BYTES) throw new DecryptError('MALFORMED');
  let signature: Uint8Array;
  try {
    signature = base64ToBytes(message.signature ?? '');
  } catch (error) {
    throw new MessageSignatureError({ cause: error });
  }
  if (!verifyMlDsa(signature, messageSignedBytes(header, iv, sealed), senderDilithiumPublicKey)) {
    throw new MessageSignatureError();
  }
  const aad = messageAad(header.threadId, header.senderKeyId, header.counter);
  return utf8Decode(await aesGcmDecrypt(messageKey(threadKey), iv, sealed, aad));
}
