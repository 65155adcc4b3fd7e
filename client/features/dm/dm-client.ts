/**
 * The browser's direct-message crypto, end to end against the server (docs/crypto.md, "Direct
 * messages"). The server is a relay that may lie: every identity it names is checked against the
 * pins, every thread against its creator's signature, every message against its sender's
 * signature, AAD and counter. The page and the adversary suite (tests/adversary/dm-*.test.ts)
 * drive this same class. Nothing here logs, and no error carries key material or text.
 */
import { type EncryptionPublicKey } from '../../../shared/crypto/dm/encryption-keys.js';
import {
  MessageSignatureError,
  openDirectMessage,
  sealDirectMessage,
  type MessageHeader,
} from '../../../shared/crypto/dm/message-seal.js';
import {
  DM_THREAD_MODE,
  isCommittedThreadKey,
  signThreadStatement,
  threadKeyCommitment,
  verifyThreadStatement,
  type ThreadStatement,
} from '../../../shared/crypto/dm/thread-grant.js';
import {
  generateThreadKey,
  parseThreadKeyEnvelope,
  unwrapThreadKey,
  wrapThreadKey,
} from '../../../shared/crypto/dm/thread-key.js';
import { numbersToBytes } from '../../../shared/crypto/bytes.js';
import { computeKeyFingerprint } from '../../../shared/crypto/fingerprint.js';
import { type KeyFile } from '../../../shared/crypto/key-file-schema.js';
import { RoomCryptoError } from '../../../shared/crypto/room/room-crypto-error.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import { type DirectMessage, type DmThread } from '../../../shared/protocol/http/dm.js';
import {
  KeyChangedError,
  RecipientKeyUnverifiedError,
  judgeContact,
  type ContactIdentity,
  type OwnIdentity,
} from './contact-identity.js';
import { type DmApi } from './dm-api.js';
import { type CounterStore, type VerifiedContactStore } from './dm-local-stores.js';
import { messageExpiry } from './dm-time.js';
import { MessageSequenceLedger, type SequenceFlag } from './message-sequence.js';
import { type IdentityPinStore } from '../e2ee/index.js';

/** Why a thread's key was refused; `message` is shown to the user. */
export class ThreadRejectedError extends Error {
  override readonly name = 'ThreadRejectedError';
}

/** The key holder has no encryption key registered: no conversation can be opened with them. */
export class NoEncryptionKeyError extends Error {
  override readonly name = 'NoEncryptionKeyError';
  constructor() {
    super('This key holder has no encryption key: direct messages need a key file made with one');
  }
}

export const THREAD_REJECTION = {
  mode: 'THREAD REJECTED: the server presents it as not end-to-end',
  notMine: 'THREAD REJECTED: this browser is not a participant',
  keyChanged: 'THREAD LOCKED: KEY CHANGED',
  signature: "THREAD REJECTED: the creator's signature does not verify",
  commitment: 'THREAD REJECTED: the key is not the one the creator signed',
  unwrap: 'THREAD KEY UNAVAILABLE: it could not be opened with this key file',
} as const;

/** How a message is shown. Anything but `ok` is flagged on screen. */
export type MessageStatus =
  SequenceFlag | 'signature-invalid' | 'undecryptable' | 'sender-key-changed' | 'no-thread-key';

/** A direct message as the screen shows it: `content` is the text or a marker. */
export interface ReadableDirectMessage extends DirectMessage {
  content: string;
  isDecrypted: boolean;
  status: MessageStatus;
  /** Counters skipped before this one from the same sender (expired or withheld). */
  missingBefore: number;
}

/** One read of a thread: the other side's identity, the key's fate, the messages. */
export interface ThreadReading {
  contact: ContactIdentity;
  /** Null when the thread key opened and was the creator's. */
  threadError: string | null;
  messages: ReadableDirectMessage[];
}

export interface DmClientDeps {
  api: DmApi;
  keyFile: KeyFile;
  pins: IdentityPinStore;
  verified: VerifiedContactStore;
  counters: CounterStore;
  now: () => number;
  /** A fresh thread id (UUID v4). */
  newThreadId?: () => string;
}

/** The marker of one message that does not decrypt: '[ENCRYPTED: reason]' (spec 001 §8). */
export function encryptedMarker(error: unknown): string {
  const reason = error instanceof RoomCryptoError ? error.message : 'Malformed encrypted message';
  return `[ENCRYPTED: ${reason}]`;
}

export const MESSAGE_MARKERS = {
  signatureInvalid: '[SIGNATURE INVALID: not shown]',
  senderKeyChanged: '[KEY CHANGED: sender cannot be verified, not shown]',
} as const;

export class DmClient {
  readonly me: OwnIdentity & { dilithiumPublicKey: Uint8Array; ecdsaPublicKey: Uint8Array };
  private readonly threadKeys = new Map<string, Promise<Uint8Array>>();
  private readonly ledgers = new Map<string, MessageSequenceLedger>();
  private readonly encryption: {
    publicKey: EncryptionPublicKey;
    privateKey: NonNullable<KeyFile['encryptionPrivateKey']>;
  } | null;

  constructor(private readonly deps: DmClientDeps) {
    const { keyFile } = deps;
    const dilithiumPublicKey = numbersToBytes(keyFile.dilithiumPublicKey);
    const ecdsaPublicKey = numbersToBytes(keyFile.ecdsaPublicKey);
    this.me = {
      keyId: keyFile.keyId,
      fingerprint: computeKeyFingerprint(dilithiumPublicKey, ecdsaPublicKey),
      dilithiumPublicKey,
      ecdsaPublicKey,
    };
    this.encryption =
      keyFile.encryptionPublicKey && keyFile.encryptionPrivateKey
        ? { publicKey: keyFile.encryptionPublicKey, privateKey: keyFile.encryptionPrivateKey }
        : null;
  }

  /** Whether this key file can take part in direct messages at all. */
  get hasEncryptionKey(): boolean {
    return this.encryption !== null && this.deps.keyFile.dilithiumPrivateKey !== undefined;
  }

  /** The registry's answer for `keyId`, checked and pinned (see contact-identity.ts). */
  async contact(keyId: string): Promise<ContactIdentity> {
    const answer = await this.deps.api.fetchRecipientKey(keyId);
    if (answer.keyId !== keyId) throw new RecipientKeyUnverifiedError();
    return judgeContact(answer, this.me, this.deps.pins, this.deps.verified);
  }

  /** Marks the contact verified for the key shown now (after comparing the safety number). */
  markVerified(contact: ContactIdentity): void {
    if (contact.trust === 'changed') throw new KeyChangedError(contact.keyId);
    this.deps.verified.set(contact.keyId, contact.fingerprint);
  }

  clearVerified(keyId: string): void {
    this.deps.verified.remove(keyId);
  }

  private privateKeys() {
    const { dilithiumPrivateKey, ecdsaPrivateKey } = this.deps.keyFile;
    if (!this.encryption || !dilithiumPrivateKey || !ecdsaPrivateKey) {
      throw new NoEncryptionKeyError();
    }
    return {
      encryption: this.encryption,
      dilithiumPrivateKey: numbersToBytes(dilithiumPrivateKey),
      ecdsaPrivateKey: numbersToBytes(ecdsaPrivateKey),
    };
  }

  /**
   * Opens a conversation with `recipientKeyId`: its identity checked and pinned, a fresh thread
   * key wrapped to both, the grant signed. A KEY CHANGED contact is refused.
   */
  async startConversation(recipientKeyId: string): Promise<DmThread> {
    const keys = this.privateKeys();
    const contact = await this.contact(recipientKeyId);
    if (contact.trust === 'changed') throw new KeyChangedError(contact.keyId);
    if (!contact.encryptionPublicKey) throw new NoEncryptionKeyError();
    const threadId = this.deps.newThreadId?.() ?? globalThis.crypto.randomUUID();
    const threadKey = generateThreadKey();
    try {
      const [creator, recipient] = await Promise.all([
        wrapThreadKey(
          threadKey,
          { keyId: this.me.keyId, publicKey: keys.encryption.publicKey },
          this.me.keyId,
        ),
        wrapThreadKey(
          threadKey,
          { keyId: contact.keyId, publicKey: contact.encryptionPublicKey },
          this.me.keyId,
        ),
      ]);
      const statement: ThreadStatement = {
        threadId,
        mode: DM_THREAD_MODE,
        creatorKeyId: this.me.keyId,
        creatorFingerprint: this.me.fingerprint,
        recipientKeyId: contact.keyId,
        recipientFingerprint: contact.fingerprint,
        keyCommitment: threadKeyCommitment(threadKey, threadId),
      };
      const signature = await signThreadStatement(statement, keys);
      const created = await this.deps.api.createThread({
        recipientKeyId: contact.keyId,
        threadId,
        mode: DM_THREAD_MODE,
        wrappedKeys: { creator, recipient },
        keyCommitment: statement.keyCommitment,
        signature,
      });
      return created.thread;
    } finally {
      // The thread comes back wrapped to us and is opened (and checked) like any other.
      threadKey.fill(0);
    }
  }

  /**
   * The thread key, once the grant checks out: mode e2e, the creator's signature under the
   * pinned identity, our own fingerprint as the one the creator wrapped to, and the key the
   * commitment names. Throws {@link ThreadRejectedError}.
   */
  async openThread(thread: DmThread, contact: ContactIdentity | null = null): Promise<Uint8Array> {
    const slot = `${thread.id}:${thread.encryptionKey}:${thread.keyCommitment}:${thread.creatorSignature.mlDsa}`;
    const cached = this.threadKeys.get(slot);
    if (cached) return cached;
    const opening = this.checkAndOpen(thread, contact);
    this.threadKeys.set(slot, opening);
    opening.catch(() => this.threadKeys.delete(slot));
    return opening;
  }

  private async checkAndOpen(thread: DmThread, known: ContactIdentity | null): Promise<Uint8Array> {
    if (thread.mode !== DM_THREAD_MODE) throw new ThreadRejectedError(THREAD_REJECTION.mode);
    const otherKeyId = this.otherOf(thread);
    const contact = known ?? (await this.contact(otherKeyId));
    if (contact.keyId !== otherKeyId) throw new ThreadRejectedError(THREAD_REJECTION.notMine);
    if (contact.trust === 'changed') throw new ThreadRejectedError(THREAD_REJECTION.keyChanged);
    const isMine = thread.participant1 === this.me.keyId;
    const creator = isMine ? this.me : contact;
    const statement: ThreadStatement = {
      threadId: thread.id,
      mode: thread.mode,
      creatorKeyId: thread.participant1,
      creatorFingerprint: creator.fingerprint,
      recipientKeyId: thread.participant2,
      recipientFingerprint: isMine ? contact.fingerprint : this.me.fingerprint,
      keyCommitment: thread.keyCommitment,
    };
    if (!(await verifyThreadStatement(statement, thread.creatorSignature, creator))) {
      throw new ThreadRejectedError(THREAD_REJECTION.signature);
    }
    const { encryption } = this.privateKeys();
    let threadKey: Uint8Array;
    try {
      if (parseThreadKeyEnvelope(thread.encryptionKey).from !== thread.participant1) {
        throw new RangeError('Envelope from another creator');
      }
      threadKey = await unwrapThreadKey(thread.encryptionKey, this.me.keyId, encryption.privateKey);
    } catch (error) {
      throw new ThreadRejectedError(THREAD_REJECTION.unwrap, { cause: error });
    }
    if (!isCommittedThreadKey(threadKey, statement)) {
      threadKey.fill(0);
      throw new ThreadRejectedError(THREAD_REJECTION.commitment);
    }
    return threadKey;
  }

  private otherOf(thread: DmThread): string {
    if (thread.participant1 === this.me.keyId) return thread.participant2;
    if (thread.participant2 === this.me.keyId) return thread.participant1;
    throw new ThreadRejectedError(THREAD_REJECTION.notMine);
  }

  private ledgerOf(threadId: string): MessageSequenceLedger {
    let ledger = this.ledgers.get(threadId);
    if (!ledger) {
      ledger = new MessageSequenceLedger();
      this.ledgers.set(threadId, ledger);
    }
    return ledger;
  }

  /**
   * Encrypts, signs and posts `text`, after checking the other side's identity again: a KEY
   * CHANGED contact blocks sending. Returns the stored message.
   */
  async send(thread: DmThread, text: string, timerSeconds: number): Promise<DirectMessage> {
    const keys = this.privateKeys();
    const contact = await this.contact(this.otherOf(thread));
    if (contact.trust === 'changed') throw new KeyChangedError(contact.keyId);
    const threadKey = await this.openThread(thread, contact);
    // Reserved before any await below, so two sends never share a counter.
    const counter =
      Math.max(this.deps.counters.get(thread.id), this.ledgerOf(thread.id).highest(this.me.keyId)) +
      1;
    this.deps.counters.set(thread.id, counter);
    const now = this.deps.now();
    const header: MessageHeader = {
      threadId: thread.id,
      senderKeyId: this.me.keyId,
      counter,
      timestamp: new Date(now).toISOString(),
      expiresAt: messageExpiry(now, timerSeconds),
    };
    const sealed = await sealDirectMessage(text, threadKey, header, keys.dilithiumPrivateKey);
    return this.deps.api.postMessage(thread.id, sealed);
  }

  /** Fetches and checks a thread's messages, in the relay's order, each with its status. */
  async readThread(thread: DmThread): Promise<ThreadReading> {
    const [messages, contact] = await Promise.all([
      this.deps.api.fetchMessages(thread.id),
      this.contact(this.otherOf(thread)),
    ]);
    let threadKey: Uint8Array | null = null;
    let threadError: string | null = null;
    try {
      threadKey = await this.openThread(thread, contact);
    } catch (error) {
      threadError = error instanceof ThreadRejectedError ? error.message : THREAD_REJECTION.unwrap;
    }
    const opened = await Promise.all(
      messages.map((message) => this.openOne(thread, message, contact, threadKey)),
    );
    const verified = opened.filter((entry) => entry.status === 'ok');
    const verdicts = this.ledgerOf(thread.id).judge(
      verified.map((entry) => ({
        id: entry.id,
        senderKeyId: entry.senderKeyId,
        counter: entry.counter,
        digest: entry.signature ?? '',
        expiresAt: Date.parse(entry.expiresAt),
      })),
      this.deps.now(),
    );
    verified.forEach((entry, index) => {
      const verdict = verdicts[index]!;
      entry.status = verdict.flag;
      entry.missingBefore = verdict.missingBefore;
    });
    return { contact, threadError, messages: opened };
  }

  private async openOne(
    thread: DmThread,
    message: DirectMessage,
    contact: ContactIdentity,
    threadKey: Uint8Array | null,
  ): Promise<ReadableDirectMessage> {
    const shown = (content: string, status: MessageStatus, isDecrypted = false) => ({
      ...message,
      content,
      status,
      isDecrypted,
      missingBefore: 0,
    });
    if (!threadKey) return shown(TEXT.dmDecryptionError, 'no-thread-key');
    const isOwn = message.senderKeyId === this.me.keyId;
    if (!isOwn && message.senderKeyId !== contact.keyId) {
      return shown(MESSAGE_MARKERS.signatureInvalid, 'signature-invalid');
    }
    if (!isOwn && contact.trust === 'changed') {
      return shown(MESSAGE_MARKERS.senderKeyChanged, 'sender-key-changed');
    }
    const header: MessageHeader = {
      threadId: thread.id,
      senderKeyId: message.senderKeyId,
      counter: message.counter,
      timestamp: message.timestamp,
      expiresAt: message.expiresAt,
    };
    try {
      const senderKey = isOwn ? this.me.dilithiumPublicKey : contact.dilithiumPublicKey;
      const content = await openDirectMessage(
        { encrypted: message.encryptedContent, iv: message.iv, signature: message.signature },
        header,
        threadKey,
        senderKey,
      );
      return shown(content, 'ok', true);
    } catch (error) {
      if (error instanceof MessageSignatureError) {
        return shown(MESSAGE_MARKERS.signatureInvalid, 'signature-invalid');
      }
      return shown(encryptedMarker(error), 'undecryptable');
    }
  }
}
