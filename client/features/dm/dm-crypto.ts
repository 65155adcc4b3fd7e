/**
 * The browser's half of direct-message encryption (spec 001 §5; docs/crypto.md "Direct
 * messages"). Thread keys are made and wrapped here and opened here; messages are encrypted
 * before they leave and decrypted after they arrive. Nothing in this file sends anything, and no
 * error it throws carries key material or text.
 */
import { base64ToBytes, numbersToBytes } from '../../../shared/crypto/bytes.js';
import {
  verifyEncryptionKey,
  type EncryptionPublicKey,
} from '../../../shared/crypto/dm/encryption-keys.js';
import {
  THREAD_KEY_BYTES,
  decryptDirectMessage,
  generateThreadKey,
  unwrapThreadKey,
  wrapThreadKey,
} from '../../../shared/crypto/dm/thread-key.js';
import { type KeyFile } from '../../../shared/crypto/key-file-schema.js';
import { RoomCryptoError } from '../../../shared/crypto/room/room-crypto-error.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import {
  type DirectMessage,
  type DmRecipientKey,
  type DmThread,
} from '../../../shared/protocol/http/dm.js';

/** The recipient's encryption key did not verify against its identity key. */
export class RecipientKeyUnverifiedError extends Error {
  override readonly name = 'RecipientKeyUnverifiedError';
  constructor() {
    super(TEXT.dmRecipientKeyUnverified);
  }
}

/** An end-to-end thread cannot be opened without the key file's private encryption key. */
export class ThreadKeyUnavailableError extends Error {
  override readonly name = 'ThreadKeyUnavailableError';
  constructor(options?: { cause?: unknown }) {
    super('The thread key could not be opened', options);
  }
}

/** The key file's encryption key pair, when it has one (key files made before have none). */
export function encryptionKeysOf(keyFile: KeyFile | null) {
  if (!keyFile?.encryptionPublicKey || !keyFile.encryptionPrivateKey) return null;
  return { publicKey: keyFile.encryptionPublicKey, privateKey: keyFile.encryptionPrivateKey };
}

/**
 * The recipient's encryption key once its ML-DSA-65 signature checks out against the identity
 * key; null when the recipient has none (a server-assisted thread). Throws
 * {@link RecipientKeyUnverifiedError} rather than wrap a thread key to an unbound key.
 */
export function verifiedRecipientKey(recipient: DmRecipientKey): EncryptionPublicKey | null {
  if (recipient.encryptionPublicKey === null || recipient.encryptionKeySignature === null) {
    return null;
  }
  let isValid = false;
  try {
    isValid = verifyEncryptionKey(
      recipient.keyId,
      recipient.encryptionPublicKey,
      numbersToBytes(recipient.encryptionKeySignature),
      numbersToBytes(recipient.dilithiumPublicKey),
    );
  } catch {
    isValid = false;
  }
  if (!isValid) throw new RecipientKeyUnverifiedError();
  return recipient.encryptionPublicKey;
}

/**
 * The body of `POST /api/dm/threads`. When both sides have encryption keys a fresh thread key is
 * wrapped to each; otherwise the thread is server-assisted and no wrapped keys are sent.
 */
export async function threadRequest(
  recipient: DmRecipientKey,
  me: KeyFile | null,
): Promise<{ recipientKeyId: string; wrappedKeys?: { creator: string; recipient: string } }> {
  const recipientKey = verifiedRecipientKey(recipient);
  const mine = encryptionKeysOf(me);
  if (!recipientKey || !mine || !me) return { recipientKeyId: recipient.keyId };
  const threadKey = generateThreadKey();
  try {
    const [creator, wrappedForRecipient] = await Promise.all([
      wrapThreadKey(threadKey, { keyId: me.keyId, publicKey: mine.publicKey }, me.keyId),
      wrapThreadKey(threadKey, { keyId: recipient.keyId, publicKey: recipientKey }, me.keyId),
    ]);
    return {
      recipientKeyId: recipient.keyId,
      wrappedKeys: { creator, recipient: wrappedForRecipient },
    };
  } finally {
    // The server's answer carries the key back wrapped to us; this copy is not needed again.
    threadKey.fill(0);
  }
}

/**
 * The thread key of `thread` as the server gave it to `myKeyId`: unwrapped with the key file
 * (mode e2e) or decoded (mode server-assisted). Throws {@link ThreadKeyUnavailableError}.
 */
export async function openThreadKey(
  thread: Pick<DmThread, 'mode' | 'encryptionKey'>,
  myKeyId: string,
  keyFile: KeyFile | null,
): Promise<Uint8Array> {
  try {
    if (thread.mode === 'server-assisted') {
      const key = base64ToBytes(thread.encryptionKey);
      if (key.length !== THREAD_KEY_BYTES) throw new RangeError('Unexpected thread key length');
      return key;
    }
    const mine = encryptionKeysOf(keyFile);
    if (!mine) throw new RangeError('No encryption key in memory');
    return await unwrapThreadKey(thread.encryptionKey, myKeyId, mine.privateKey);
  } catch (error) {
    throw new ThreadKeyUnavailableError({ cause: error });
  }
}

/** A direct message as the screen shows it: `content` is the text or an error marker. */
export interface ReadableDirectMessage extends DirectMessage {
  content: string;
  isDecrypted: boolean;
}

/** The marker of one message that does not decrypt: '[ENCRYPTED: reason]'. */
export function encryptedMarker(error: unknown): string {
  const reason = error instanceof RoomCryptoError ? error.message : 'Malformed encrypted message';
  return `[ENCRYPTED: ${reason}]`;
}

/**
 * Decrypts every message with the thread key. Without a key (it could not be opened) every
 * message shows '[DM-DECRYPTION-ERROR]'; one bad message shows '[ENCRYPTED: ...]' and never
 * hides the others (spec 001 §8).
 */
export async function decryptMessages(
  messages: readonly DirectMessage[],
  threadKey: Uint8Array | null,
): Promise<ReadableDirectMessage[]> {
  const sorted = [...messages].sort((a, b) => Date.parse(a.sentAt) - Date.parse(b.sentAt));
  return Promise.all(
    sorted.map(async (message) => {
      if (!threadKey) return { ...message, content: TEXT.dmDecryptionError, isDecrypted: false };
      try {
        const content = await decryptDirectMessage(
          { encrypted: message.encryptedContent, iv: message.iv },
          threadKey,
        );
        return { ...message, content, isDecrypted: true };
      } catch (error) {
        return { ...message, content: encryptedMarker(error), isDecrypted: false };
      }
    }),
  );
}
