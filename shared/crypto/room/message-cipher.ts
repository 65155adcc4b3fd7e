/**
 * Room message encryption: the seven types of spec 000 §3/§9 behind one pair of functions,
 * {@link encryptMessage} and {@link decryptMessage}, and per type in {@link MESSAGE_CIPHERS}.
 * The constructions are in message-codecs.ts and zk-aes.ts, the envelope and AAD in
 * message-envelope.ts, the keys each type needs in message-context.ts; docs/crypto-room.md
 * describes all of them with their security properties.
 *
 * Both functions are pure apart from the ratchet state in the context: the sender's chain moves
 * one step per message (every type but `ZK-AES-256`), and a reader's chain consumes the message's
 * iteration once the message has authenticated.
 */
import { randomBytes } from '../../ids.js';
import { utf8Decode, utf8Encode } from '../bytes.js';
import type { MessageEncryptionType } from './encryption-rotation.js';
import { wipe } from './kdf.js';
import { MESSAGE_CODECS } from './message-codecs.js';
import {
  requireDecryptKey,
  requireEncryptKey,
  type DecryptContext,
  type EncryptContext,
} from './message-context.js';
import {
  buildMessageAad,
  decodeMessageEnvelope,
  encodeMessageEnvelope,
  MAX_ENCRYPTED_CONTENT_CHARS,
  MAX_ENVELOPE_CIPHERTEXT_BYTES,
  MESSAGE_ENVELOPE_VERSION,
  type EnvelopeEncryptionType,
} from './message-envelope.js';
import { SENDER_KEY_BYTES } from './ratchet.js';
import { DecryptError, EncryptError } from './room-crypto-error.js';
import { assertIdentifier, NodeIdSchema, RoomIdSchema } from './room-wire.js';
import { decryptZk, encryptZk } from './zk-aes.js';

/** One encryption type: text in, `encryptedContent` out, and back. */
export interface MessageCipher {
  /** The `encryptionType` this cipher produces and reads. */
  readonly type: MessageEncryptionType;
  /**
   * Encrypts `plaintext` for the room.
   * @throws EncryptError `KEYS_NOT_INITIALIZED`, `TOO_LARGE` (over 48,000 characters),
   * `INVALID_KEY`, `CHAIN_EXHAUSTED`; RangeError on malformed ids or keys.
   */
  encrypt(plaintext: string, context: EncryptContext): Promise<string>;
  /**
   * Decrypts an `encryptedContent` text.
   * @throws DecryptError (see `DecryptErrorCode`); RangeError on malformed ids or keys.
   */
  decrypt(encryptedContent: string, context: DecryptContext): Promise<string>;
}

function checkBinding(context: { roomId: string; senderNodeId: string }): void {
  assertIdentifier(RoomIdSchema, context.roomId, 'room id');
  assertIdentifier(NodeIdSchema, context.senderNodeId, 'sender node id');
}

function checkSenderKeys(context: {
  classicKey: Uint8Array | null;
  quantumKey: Uint8Array | null;
}) {
  for (const key of [context.classicKey, context.quantumKey]) {
    if (key !== null && key.length !== SENDER_KEY_BYTES)
      throw new RangeError('A sender key is 32 bytes');
  }
}

function checkSize(text: string): string {
  if (text.length > MAX_ENCRYPTED_CONTENT_CHARS) throw new EncryptError('TOO_LARGE');
  return text;
}

function decodeText(bytes: Uint8Array): string {
  try {
    return utf8Decode(bytes);
  } catch (error) {
    throw new DecryptError('MALFORMED', { cause: error });
  }
}

async function encryptEnvelope(
  type: EnvelopeEncryptionType,
  plaintext: string,
  context: EncryptContext,
): Promise<string> {
  checkBinding(context);
  checkSenderKeys(context);
  const codec = MESSAGE_CODECS[type];
  const chain = requireEncryptKey(context.chain);
  codec.checkEncryptKeys(context);
  const plaintextBytes = utf8Encode(plaintext);
  if (plaintextBytes.length > MAX_ENVELOPE_CIPHERTEXT_BYTES) throw new EncryptError('TOO_LARGE');
  const { iteration, messageKey } = chain.advance();
  try {
    const { roomId, senderNodeId } = context;
    const senderKeyId = chain.senderKeyId;
    const aad = buildMessageAad({ roomId, senderNodeId, type, senderKeyId, iteration });
    const envelope = await codec.seal({
      plaintext: plaintextBytes,
      aad,
      messageKey,
      header: { v: MESSAGE_ENVELOPE_VERSION, k: senderKeyId, i: iteration },
      context,
      random: context.random ?? randomBytes,
    });
    return checkSize(encodeMessageEnvelope(envelope));
  } finally {
    wipe(messageKey);
  }
}

async function decryptEnvelope(
  type: EnvelopeEncryptionType,
  encryptedContent: string,
  context: DecryptContext,
): Promise<string> {
  const envelope = decodeMessageEnvelope(encryptedContent);
  if (envelope.t !== type) throw new DecryptError('MALFORMED');
  checkBinding(context);
  checkSenderKeys(context);
  const codec = MESSAGE_CODECS[type];
  // RSA-OAEP needs no sender key; every other type needs the keys of the envelope's epoch.
  if (type !== 'RSA-OAEP' && requireDecryptKey(context.senderKeyId) !== envelope.k) {
    throw new DecryptError('KEY_ROTATED');
  }
  const chain = context.chain?.senderKeyId === envelope.k ? context.chain : null;
  if (codec.usesMessageKey && chain === null) {
    throw new DecryptError(context.chain === null ? 'KEYS_NOT_INITIALIZED' : 'KEY_ROTATED');
  }
  codec.checkDecryptKeys(context);
  const { roomId, senderNodeId } = context;
  const aad = buildMessageAad({
    roomId,
    senderNodeId,
    type,
    senderKeyId: envelope.k,
    iteration: envelope.i,
  });
  const open = (messageKey: Uint8Array | null) =>
    codec.open(envelope, { aad, messageKey, context });
  // With a chain, the iteration is consumed whatever the type, so each message is read once.
  const plaintext =
    chain === null
      ? await open(null)
      : await chain.useMessageKey(envelope.i, (messageKey) =>
          open(codec.usesMessageKey ? messageKey : null),
        );
  return decodeText(plaintext);
}

function envelopeCipher(type: EnvelopeEncryptionType): MessageCipher {
  return {
    type,
    encrypt: (plaintext, context) => encryptEnvelope(type, plaintext, context),
    decrypt: (encryptedContent, context) => decryptEnvelope(type, encryptedContent, context),
  };
}

const zkCipher: MessageCipher = {
  type: 'ZK-AES-256',
  async encrypt(plaintext, context) {
    const key = requireEncryptKey(context.zkKey);
    return checkSize(await encryptZk(plaintext, key, context.random ?? randomBytes));
  },
  async decrypt(encryptedContent, context) {
    const key = requireDecryptKey(context.zkKey);
    if (encryptedContent.length > MAX_ENCRYPTED_CONTENT_CHARS) throw new DecryptError('MALFORMED');
    return decryptZk(encryptedContent, key);
  },
};

/** Each type's cipher, e.g. for a benchmark that times encrypt + decrypt per type. */
export const MESSAGE_CIPHERS: Readonly<Record<MessageEncryptionType, MessageCipher>> = {
  'PFS-ECDH': envelopeCipher('PFS-ECDH'),
  'AES-256-GCM': envelopeCipher('AES-256-GCM'),
  'AES-256-CBC': envelopeCipher('AES-256-CBC'),
  'RSA-OAEP': envelopeCipher('RSA-OAEP'),
  'ZK-AES-256': zkCipher,
  'E2EE-AES': envelopeCipher('E2EE-AES'),
  quantum: envelopeCipher('quantum'),
};

/**
 * Encrypts `plaintext` with `type`: the `encryptedContent` of a `send_message` frame.
 * @throws as {@link MessageCipher.encrypt}.
 */
export function encryptMessage(
  type: MessageEncryptionType,
  plaintext: string,
  context: EncryptContext,
): Promise<string> {
  return MESSAGE_CIPHERS[type].encrypt(plaintext, context);
}

/**
 * Decrypts a message's `encryptedContent`, given its `encryptionType`. Decrypt each message once
 * and keep its text by message id: with a reader chain, a second decryption is refused as a
 * replay (`Forward secrecy: message key expired`).
 * @throws as {@link MessageCipher.decrypt}.
 */
export function decryptMessage(
  type: MessageEncryptionType,
  encryptedContent: string,
  context: DecryptContext,
): Promise<string> {
  return MESSAGE_CIPHERS[type].decrypt(encryptedContent, context);
}
