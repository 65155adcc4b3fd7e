/**
 * Direct messages between key holders (spec 001 §4–§7). The server stores ciphertext, thread
 * keys wrapped to each participant in the creator's browser, and the creator's signed thread
 * grant; it never makes or holds a thread key (server-assisted threads were removed,
 * docs/decisions.md). Only the two participants may read or touch a thread, and everything is
 * deleted at its expiry. The signatures are checked by the browsers against pinned identities,
 * not here: the server is not trusted to vouch for them.
 */
import { randomUUID } from 'node:crypto';
import { bytesToNumbers } from '../../../shared/crypto/bytes.js';
import { verifyEncryptionKey } from '../../../shared/crypto/dm/encryption-keys.js';
import { secureIdForKey } from '../../../shared/ids.js';
import { DM_DEFAULT_TIMER_SECONDS } from '../../../shared/constants.js';
import type {
  CreateDmThreadRequest,
  DirectMessage,
  DmRecipientKey,
  DmThread,
  SendDirectMessageRequest,
} from '../../../shared/protocol/http/dm.js';
import { AppError } from '../../errors.js';
import { DueSweep } from '../../lib/due-sweep.js';
import type { DmStore, KeyRow, MessageRow, ThreadRow } from './store.js';

export const DM_TEXT = {
  notFound: 'Conversation not found',
  noRecipient: 'Secure ID not found or invalid',
  self: 'You cannot start a conversation with yourself',
  noEncryptionKey:
    'This key holder has no encryption key: direct messages need a key file made with one',
  threadIdTaken: 'This conversation id is already in use',
  badExpiry: 'Message expiry must be between 5 seconds and 24 hours from now',
} as const;

/** Longest a direct message may live: the longest timer option, plus a minute of clock slack. */
const MAX_MESSAGE_LIFETIME_MS = (DM_DEFAULT_TIMER_SECONDS + 60) * 1000;
const MIN_MESSAGE_LIFETIME_MS = 5_000;

export interface DmNotifier {
  /** Tells a key holder, on whichever process their sockets are. */
  notify(keyId: string, frame: { type: string } & Record<string, unknown>): Promise<void>;
}

export class DmService {
  /** Deletes what expired, querying only once a known expiry has passed. */
  private readonly due: DueSweep;

  constructor(
    private readonly store: DmStore,
    private readonly notifier: DmNotifier,
    private readonly now: () => number,
  ) {
    this.due = new DueSweep({
      now,
      sweep: async () => {
        await this.sweep();
        return (await store.earliestExpiry())?.getTime() ?? null;
      },
    });
  }

  private static hasEncryptionKey(key: KeyRow): boolean {
    return (
      key.kemPublicKey !== null &&
      key.x25519PublicKey !== null &&
      key.encryptionKeySignature !== null
    );
  }

  private usable(key: KeyRow | null): key is KeyRow {
    return (
      key !== null &&
      key.revokedAt === null &&
      (key.expiresAt === null || key.expiresAt.getTime() > this.now())
    );
  }

  /** The public keys a browser needs to wrap a thread key for `keyId`. */
  async recipientKey(keyId: string): Promise<DmRecipientKey> {
    const key = await this.store.findKey(keyId);
    if (!this.usable(key)) throw new AppError('NO_RECIPIENT', 404, DM_TEXT.noRecipient);
    const hasKey = DmService.hasEncryptionKey(key);
    return {
      keyId: key.keyId,
      username: key.username,
      secureId: secureIdForKey(key.keyId),
      fingerprint: key.fingerprint,
      dilithiumPublicKey: bytesToNumbers(key.dilithiumPublicKey),
      ecdsaPublicKey: bytesToNumbers(key.ecdsaPublicKey),
      encryptionPublicKey: hasKey
        ? { kem: bytesToNumbers(key.kemPublicKey!), x25519: bytesToNumbers(key.x25519PublicKey!) }
        : null,
      encryptionKeySignature: hasKey ? bytesToNumbers(key.encryptionKeySignature!) : null,
    };
  }

  async listThreads(caller: string): Promise<DmThread[]> {
    const now = this.now();
    const rows = (await this.store.threadsOf(caller)).filter(
      (row) => row.expiresAt.getTime() > now,
    );
    return Promise.all(rows.map((row) => this.view(row, caller)));
  }

  /**
   * Opens the conversation the caller's browser signed, or returns the existing unexpired one
   * between the two. Both participants need a registered encryption key.
   */
  async createThread(caller: string, request: CreateDmThreadRequest) {
    const { recipientKeyId } = request;
    if (recipientKeyId === caller) throw new AppError('SELF', 400, DM_TEXT.self);
    const [me, recipient] = await Promise.all([
      this.store.findKey(caller),
      this.store.findKey(recipientKeyId),
    ]);
    if (!this.usable(recipient) || !me)
      throw new AppError('NO_RECIPIENT', 404, DM_TEXT.noRecipient);
    const existing = await this.store.findThreadBetween(caller, recipientKeyId);
    if (existing && existing.expiresAt.getTime() > this.now()) return this.view(existing, caller);
    if (existing) await this.store.deleteThread(existing.id);

    const endToEnd =
      DmService.hasEncryptionKey(me) &&
      DmService.hasEncryptionKey(recipient) &&
      this.keysVerify(me) &&
      this.keysVerify(recipient);
    if (!endToEnd) throw new AppError('NO_ENCRYPTION_KEY', 400, DM_TEXT.noEncryptionKey);
    if (await this.store.findThread(request.threadId)) {
      throw new AppError('THREAD_ID_TAKEN', 409, DM_TEXT.threadIdTaken);
    }
    const createdAt = new Date(this.now());
    const row: ThreadRow = {
      id: request.threadId,
      participant1: caller,
      participant2: recipientKeyId,
      mode: 'e2e',
      wrappedKey1: request.wrappedKeys.creator,
      wrappedKey2: request.wrappedKeys.recipient,
      keyCommitment: request.keyCommitment,
      signatureMlDsa: request.signature.mlDsa,
      signatureEcdsa: request.signature.ecdsa,
      createdAt,
      lastMessageAt: null,
      expiresAt: new Date(createdAt.getTime() + DM_DEFAULT_TIMER_SECONDS * 1000),
    };
    await this.store.insertThread(row);
    this.due.note(row.expiresAt.getTime());
    await this.notifier.notify(recipientKeyId, {
      type: 'dm_thread_updated',
      threadId: row.id,
      fromKeyId: caller,
    });
    return this.view(row, caller);
  }

  async messages(caller: string, threadId: string): Promise<DirectMessage[]> {
    const thread = await this.threadFor(caller, threadId);
    const rows = await this.store.messagesOf(thread.id, new Date(this.now()));
    const names = await this.namesOf(thread);
    return rows.map((row) => this.messageView(row, names));
  }

  async send(
    caller: string,
    threadId: string,
    body: SendDirectMessageRequest,
  ): Promise<DirectMessage> {
    const thread = await this.threadFor(caller, threadId);
    const now = this.now();
    const expiresAt = Date.parse(body.expiresAt);
    if (!(
      expiresAt - now >= MIN_MESSAGE_LIFETIME_MS && expiresAt - now <= MAX_MESSAGE_LIFETIME_MS
    )) {
      throw new AppError('BAD_EXPIRY', 400, DM_TEXT.badExpiry);
    }
    const row: MessageRow = {
      id: randomUUID(),
      threadId: thread.id,
      senderKeyId: caller,
      encrypted: body.encrypted,
      iv: body.iv,
      counter: body.counter,
      signedAt: body.timestamp,
      signature: body.signature,
      sentAt: new Date(now),
      expiresAt: new Date(expiresAt),
    };
    await this.store.insertMessage(row);
    this.due.note(expiresAt);
    // A thread lives at least as long as its newest message.
    const threadExpiry = new Date(Math.max(thread.expiresAt.getTime(), expiresAt));
    await this.store.touchThread(thread.id, row.sentAt, threadExpiry);
    return this.messageView(row, await this.namesOf(thread));
  }

  /** Tells the other participant that a message arrived (the `dm_send_message` frame). */
  async announceMessage(caller: string, threadId: string, recipientKeyId: string): Promise<void> {
    const thread = await this.threadFor(caller, threadId);
    if (this.otherOf(thread, caller) !== recipientKeyId)
      throw new AppError('NOT_FOUND', 404, DM_TEXT.notFound);
    await this.notifier.notify(recipientKeyId, {
      type: 'dm_message_received',
      threadId,
      fromKeyId: caller,
    });
    await this.notifier.notify(recipientKeyId, {
      type: 'dm_thread_updated',
      threadId,
      fromKeyId: caller,
    });
  }

  /** Either participant may delete; the other is told at once. */
  async deleteThread(caller: string, threadId: string): Promise<void> {
    const thread = await this.threadFor(caller, threadId);
    await this.store.deleteThread(thread.id);
    await this.notifier.notify(this.otherOf(thread, caller), {
      type: 'dm_thread_deleted',
      threadId,
      reason: 'deleted',
    });
  }

  /** The housekeeping timer's call, every second: sweeps when something may have expired. */
  sweepIfDue(): Promise<void> {
    return this.due.tick();
  }

  /** Deletes expired messages and threads on the server and tells both participants of each thread. */
  async sweep(): Promise<number> {
    const threads = await this.store.deleteExpired(new Date(this.now()));
    for (const thread of threads) {
      for (const keyId of [thread.participant1, thread.participant2]) {
        await this.notifier.notify(keyId, {
          type: 'dm_thread_deleted',
          threadId: thread.id,
          reason: 'expired',
        });
      }
    }
    return threads.length;
  }

  private keysVerify(key: KeyRow): boolean {
    return verifyEncryptionKey(
      key.keyId,
      { kem: bytesToNumbers(key.kemPublicKey!), x25519: bytesToNumbers(key.x25519PublicKey!) },
      key.encryptionKeySignature!,
      key.dilithiumPublicKey,
    );
  }

  /** The thread if `caller` takes part in it and it has not expired; 404 otherwise (no hint it exists). */
  private async threadFor(caller: string, threadId: string): Promise<ThreadRow> {
    const thread = await this.store.findThread(threadId);
    if (
      !thread ||
      (thread.participant1 !== caller && thread.participant2 !== caller) ||
      thread.expiresAt.getTime() <= this.now()
    ) {
      throw new AppError('NOT_FOUND', 404, DM_TEXT.notFound);
    }
    return thread;
  }

  private otherOf(thread: ThreadRow, caller: string): string {
    return thread.participant1 === caller ? thread.participant2 : thread.participant1;
  }

  private async namesOf(thread: ThreadRow): Promise<Map<string, string>> {
    const [a, b] = await Promise.all([
      this.store.findKey(thread.participant1),
      this.store.findKey(thread.participant2),
    ]);
    return new Map([
      [thread.participant1, a?.username ?? secureIdForKey(thread.participant1)],
      [thread.participant2, b?.username ?? secureIdForKey(thread.participant2)],
    ]);
  }

  private async view(row: ThreadRow, caller: string): Promise<DmThread> {
    const other = this.otherOf(row, caller);
    const names = await this.namesOf(row);
    const encryptionKey = caller === row.participant1 ? row.wrappedKey1 : row.wrappedKey2;
    return {
      id: row.id,
      participant1: row.participant1,
      participant2: row.participant2,
      mode: row.mode,
      encryptionKey,
      keyCommitment: row.keyCommitment,
      creatorSignature: { mlDsa: row.signatureMlDsa, ecdsa: row.signatureEcdsa },
      expiresAt: row.expiresAt.toISOString(),
      createdAt: row.createdAt.toISOString(),
      lastMessageAt: row.lastMessageAt ? row.lastMessageAt.toISOString() : null,
      otherParticipantKeyId: other,
      otherParticipantSecureId: secureIdForKey(other),
      otherParticipantUsername: names.get(other) ?? secureIdForKey(other),
    };
  }

  private messageView(row: MessageRow, names: Map<string, string>): DirectMessage {
    return {
      id: row.id,
      threadId: row.threadId,
      senderKeyId: row.senderKeyId,
      senderSecureId: secureIdForKey(row.senderKeyId),
      senderUsername: names.get(row.senderKeyId) ?? secureIdForKey(row.senderKeyId),
      sentAt: row.sentAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      encryptedContent: row.encrypted,
      iv: row.iv,
      counter: row.counter,
      timestamp: row.signedAt,
      signature: row.signature,
    };
  }
}
