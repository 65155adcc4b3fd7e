/**
 * Room messages: the server stamps id, sender and times, stores the message in memory until it
 * expires and relays it. It never reads encrypted content; plaintext reaches it only as the
 * flagged PLAINTEXT fallback (spec 000 §8).
 */
import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Message } from '../../../shared/protocol/ws/chat.js';
import type { ClientFrame } from '../../../shared/protocol/ws/index.js';
import { AppError } from '../../errors.js';
import type { Connection } from '../../realtime/connection.js';
import type { RoomChannels } from '../../realtime/room-channels.js';
import { encodeTextFrameAround, type SharedFrame } from '../../realtime/ws-frame.js';
import { IsoTimeFormatter } from './iso-time.js';
import type { EncodedMessage, EphemeralMessageStore } from './store.js';

export const MESSAGE_TEXT = {
  notInRoom: 'Join a room before sending messages',
  empty: 'Message is empty',
  plaintextWithCiphertext: 'A plaintext message carries no ciphertext',
  ciphertextMissing: 'An encrypted message needs its ciphertext and no plaintext',
  imageUrl: 'Invalid image reference',
} as const;

/** A `new_message` frame is this, the message's JSON, then the tail: JSON.stringify's text. */
const NEW_MESSAGE_HEAD = '{"type":"new_message","message":';
const NEW_MESSAGE_TAIL = '}';

/** Image references point at the server's own encrypted-image route. */
const IMAGE_URL = /^\/api\/secure-images\/[A-Za-z0-9_-]{16,64}(\/thumbnail)?$/;

export interface MessageServiceDeps {
  store: EphemeralMessageStore;
  /**
   * Ties an uploaded image to the message's expiry; false when there is no such upload in the
   * room by the sending socket `nodeId`.
   */
  bindImage: (
    imageUrl: string,
    roomId: string,
    nodeId: string,
    expiresAt: number,
  ) => Promise<boolean>;
  channels: RoomChannels;
  ttlSeconds: number;
  now: () => number;
  /**
   * Told when a store that relays (Redis) failed to store and relay a member's message. `send`
   * has returned by then: it hands the message to Redis without waiting for the answer.
   */
  onRelayFailure?: (connection: Connection, error: unknown) => void;
}

/** How often the rooms hear which of their messages expired (the sweep itself runs every second). */
export const EXPIRY_NOTICE_INTERVAL_MS = 5_000;

export class MessageService {
  /** Room id → ids the sweeps deleted and the room has not heard about yet. */
  private readonly unannounced = new Map<string, string[]>();
  /** One each, as the two times of a message usually fall in different minutes. */
  private readonly createdAtText = new IsoTimeFormatter();
  private readonly expiresAtText = new IsoTimeFormatter();

  constructor(private readonly deps: MessageServiceDeps) {}

  /** Validates, stamps, stores and relays one message from `connection`. */
  async send(connection: Connection, frame: ClientFrame<'send_message'>): Promise<Message> {
    const createdAt = this.deps.now();
    const expiresAtMs = this.expiryOf(createdAt);
    const message = this.stamp(connection, frame, createdAt, expiresAtMs);
    await this.relayFrom(connection, message, expiresAtMs);
    return message;
  }

  /**
   * {@link send} for the hub's handler. When nothing has to be waited for (one process, no image
   * to bind) the message is stored and delivered within the call and nothing is returned, so a
   * message costs no promise; otherwise the promise of the same steps.
   */
  receive(connection: Connection, frame: ClientFrame<'send_message'>): void | Promise<void> {
    const createdAt = this.deps.now();
    const expiresAtMs = this.expiryOf(createdAt);
    const message = this.stamp(connection, frame, createdAt, expiresAtMs);
    return this.relayFrom(connection, message, expiresAtMs);
  }

  /** Whole milliseconds, as Date.parse(message.expiresAt) reads them back. */
  private expiryOf(createdAt: number): number {
    return Math.trunc(createdAt + this.deps.ttlSeconds * 1000);
  }

  /** Checks a member's frame and builds the message it sends; throws the sender's error. */
  private stamp(
    connection: Connection,
    frame: ClientFrame<'send_message'>,
    createdAt: number,
    expiresAtMs: number,
  ): Message {
    const roomId = connection.roomId;
    if (!roomId || !connection.username)
      throw new AppError('NOT_IN_ROOM', 400, MESSAGE_TEXT.notInRoom);
    const isPlain = frame.encryptionType === 'none' || frame.encryptionType === 'PLAINTEXT';
    if (isPlain) {
      if (frame.content.trim() === '' && !frame.hasImage)
        throw new AppError('EMPTY', 400, MESSAGE_TEXT.empty);
      if (frame.encryptedContent)
        throw new AppError('BAD_MESSAGE', 400, MESSAGE_TEXT.plaintextWithCiphertext);
    } else if (!frame.encryptedContent || frame.content !== '') {
      throw new AppError('BAD_MESSAGE', 400, MESSAGE_TEXT.ciphertextMissing);
    }
    if (frame.hasImage && !(frame.imageUrl && IMAGE_URL.test(frame.imageUrl))) {
      throw new AppError('BAD_IMAGE', 400, MESSAGE_TEXT.imageUrl);
    }
    if (frame.thumbnailUrl && !IMAGE_URL.test(frame.thumbnailUrl))
      throw new AppError('BAD_IMAGE', 400, MESSAGE_TEXT.imageUrl);

    return {
      id: randomUUID(),
      senderId: connection.nodeId,
      senderUsername: connection.username,
      roomId,
      content: isPlain ? frame.content : '',
      encryptedContent: isPlain ? null : (frame.encryptedContent ?? null),
      encryptionType: frame.encryptionType === 'none' ? 'PLAINTEXT' : frame.encryptionType,
      signature: frame.signature ?? null,
      isStealthMode: frame.isStealthMode,
      hasImage: frame.hasImage,
      imageUrl: frame.hasImage ? (frame.imageUrl ?? null) : null,
      thumbnailUrl: frame.hasImage ? (frame.thumbnailUrl ?? null) : null,
      imageMetadata:
        frame.hasImage &&
        typeof frame.imageOriginalName === 'string' &&
        typeof frame.imageFileSize === 'number'
          ? { originalName: frame.imageOriginalName, fileSize: frame.imageFileSize }
          : null,
      createdAt: this.createdAtText.format(createdAt),
      expiresAt: this.expiresAtText.format(expiresAtMs),
      isSystem: false,
    };
  }

  /** Binds the message's image if it has one, then stores and relays it (see {@link receive}). */
  private relayFrom(
    connection: Connection,
    message: Message,
    expiresAtMs: number,
  ): void | Promise<void> {
    if (message.imageUrl) return this.bindThenRelay(connection, message, expiresAtMs);
    return this.relay(connection, message, expiresAtMs);
  }

  private async bindThenRelay(
    connection: Connection,
    message: Message,
    expiresAtMs: number,
  ): Promise<void> {
    const { imageUrl, roomId } = message;
    if (
      imageUrl &&
      !(await this.deps.bindImage(imageUrl, roomId, connection.nodeId, expiresAtMs))
    ) {
      throw new AppError('BAD_IMAGE', 400, MESSAGE_TEXT.imageUrl);
    }
    await this.relay(connection, message, expiresAtMs);
  }

  private relay(
    connection: Connection,
    message: Message,
    expiresAtMs: number,
  ): void | Promise<void> {
    const visitor = connection.visitor;
    if (this.deps.store.relay) {
      // Not awaited: the sender's next frame is handled while Redis works, so a backlog of frames
      // is handed over in one turn and its deliveries leave together. Redis runs the commands of
      // one connection in order, so the sender's messages keep their order (docs/decisions.md).
      // Joins the room still holds (RoomChannels.announceJoin) are published first, in this turn,
      // so the room hears of a newcomer before its first message.
      void this.deps.channels.flush(message.roomId).catch(() => undefined);
      this.deps.store
        .relay(message, visitor)
        .catch((error: unknown) => this.deps.onRelayFailure?.(connection, error));
      return;
    }
    return this.storeAndPublish(message, expiresAtMs, visitor);
  }

  /**
   * Stores a message, then relays it and whatever it evicted to its room. The message is
   * serialized and encoded once: the store holds its bytes inside the room's frame (the same text
   * JSON.stringify gives for the whole frame). With a store that keeps messages here and the
   * in-process fan-out, this finishes within the call and returns nothing. `visitor` is the
   * sender's (null: the server's own message); a message over its byte budget is refused by the
   * store before anything is stored or published.
   */
  private storeAndPublish(
    message: Message,
    expiresAtMs: number,
    visitor: string | null,
  ): void | Promise<void> {
    const { store } = this.deps;
    if (store.relay) return this.relayAndWait(message, visitor);
    const json = JSON.stringify(message);
    // Encoded once: the room's frame bytes, of which the store keeps the message's part.
    const { frame, body } = encodeTextFrameAround(NEW_MESSAGE_HEAD, json, NEW_MESSAGE_TAIL);
    const encoded = { json, expiresAtMs, utf8: body };
    if (!store.addNow) return this.storeThenPublish(message, encoded, frame, visitor);
    return this.publishStored(message.roomId, frame, store.addNow(message, encoded, visitor));
  }

  private async relayAndWait(message: Message, visitor: string | null): Promise<void> {
    const { store, channels } = this.deps;
    void channels.flush(message.roomId).catch(() => undefined);
    await store.relay?.(message, visitor);
  }

  private async storeThenPublish(
    message: Message,
    encoded: EncodedMessage,
    frame: SharedFrame,
    visitor: string | null,
  ): Promise<void> {
    const evicted = await this.deps.store.add(message, encoded, visitor);
    await this.publishStored(message.roomId, frame, evicted);
  }

  /** Publishes a stored message's frame, then the ids the store evicted for it. */
  private publishStored(
    roomId: string,
    frame: SharedFrame,
    evicted: string[],
  ): void | Promise<void> {
    const { channels } = this.deps;
    const published = channels.publishFrame(roomId, frame);
    if (published) return this.publishAfter(published, roomId, evicted);
    if (evicted.length > 0)
      return channels.publish(roomId, { type: 'messages_expired', messageIds: evicted });
  }

  private async publishAfter(
    published: Promise<void>,
    roomId: string,
    evicted: string[],
  ): Promise<void> {
    await published;
    if (evicted.length > 0) {
      await this.deps.channels.publish(roomId, { type: 'messages_expired', messageIds: evicted });
    }
  }

  /**
   * A message written by the server itself (a security alert), relayed and expired like any
   * other. Its text is the server's own, never a member's content.
   */
  async sendSystem(roomId: string, content: string, senderUsername: string): Promise<Message> {
    const createdAt = this.deps.now();
    const message: Message = {
      id: randomUUID(),
      senderId: 'system',
      senderUsername,
      roomId,
      content,
      encryptedContent: null,
      encryptionType: 'none',
      signature: null,
      isStealthMode: false,
      hasImage: false,
      imageUrl: null,
      thumbnailUrl: null,
      imageMetadata: null,
      createdAt: new Date(createdAt).toISOString(),
      expiresAt: new Date(createdAt + this.deps.ttlSeconds * 1000).toISOString(),
      isSystem: true,
    };
    await this.storeAndPublish(message, Date.parse(message.expiresAt), null);
    return message;
  }

  /** One unexpired message of the room, or null. */
  find(roomId: string, messageId: string): Promise<Message | null> {
    return this.deps.store.find(roomId, messageId, this.deps.now());
  }

  /**
   * Deletes a message for everyone (moderation): gone from the server, and every member hears
   * `message_deleted`. False when it had already expired or been deleted.
   */
  async deleteForEveryone(roomId: string, messageId: string): Promise<boolean> {
    const removed = await this.deps.store.remove(roomId, messageId);
    if (!removed) return false;
    await this.deps.channels.publish(roomId, { type: 'message_deleted', messageId });
    return true;
  }

  /** What a member sees on joining: the room's unexpired messages. */
  history(roomId: string): Promise<Message[]> {
    return this.deps.store.list(roomId, this.deps.now());
  }

  /**
   * Deletes expired messages on the server (called every second). Their rooms hear of it at the
   * next {@link announceExpired}: members' clients already drop each message at its own
   * `expiresAt`, so the notice is a backstop for a client whose countdown went wrong, and
   * batching it keeps busy rooms from getting an extra frame every second.
   */
  async sweep(): Promise<number> {
    const expired = await this.deps.store.expire(this.deps.now());
    let total = 0;
    for (const [roomId, messageIds] of expired) {
      total += messageIds.length;
      const pending = this.unannounced.get(roomId);
      if (pending) pending.push(...messageIds);
      else this.unannounced.set(roomId, [...messageIds]);
    }
    return total;
  }

  /**
   * Sends each room one `messages_expired` for what the sweeps deleted since the last call, one
   * room per event-loop turn, so with many rooms it never holds up the chat frames arriving
   * meanwhile.
   */
  async announceExpired(): Promise<number> {
    const batch = [...this.unannounced];
    this.unannounced.clear();
    for (const [roomId, messageIds] of batch) {
      await this.deps.channels.publish(roomId, { type: 'messages_expired', messageIds });
      await nextTurn();
    }
    return batch.length;
  }

  purgeRoom(roomId: string): Promise<void> {
    this.unannounced.delete(roomId);
    return this.deps.store.purgeRoom(roomId);
  }
}
