/**
 * The chat's MessageCipher with end-to-end encryption (spec 000 §3 "Message", §4 "Message
 * display", §8): the payload's canonical JSON is encrypted with the type the rotation picks and
 * signed; a relayed message is read once and its display kept by message id (a reader chain
 * refuses a second read as a replay).
 *
 * Fallback (spec 000 §8 "Encryption failure"): when this browser's keys are not ready after
 * KEY_AGREEMENT_WAIT_MS, or encryption throws, a text goes out as the flagged PLAINTEXT type
 * (red tag on every copy, an entry in the crypto log). An image never does: its key would reach
 * the server, so the send fails instead.
 */
import { canonicalJson } from '../../../shared/crypto/canonical-json.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import {
  MessagePayloadSchema,
  type MessagePayload,
} from '../../../shared/protocol/message-payload.js';
import { type Message } from '../../../shared/protocol/ws/chat.js';
import {
  encryptedMarker,
  PlaintextCipher,
  PlaintextRefusedError,
  type DecryptedMessage,
  type EncryptedOutgoing,
  type MessageCipher,
} from '../messages/message-cipher.js';
import { KEY_AGREEMENT_WAIT_MS, SENDER_KEY_WAIT_MS } from './e2ee-constants.js';
import { describeError } from './e2ee-status.js';
import { type RoomKeyManager } from './room-key-manager.js';
import {
  checkSignature,
  encryptForRoom,
  readRoomMessage,
  signPlaintext,
} from './room-message-io.js';

/** Reads kept by message id; messages expire after 30 s, so a few hundred is plenty. */
const READ_CACHE_LIMIT = 1000;

export interface E2eeCipherTimings {
  /** How long a send waits for this browser's keys. */
  keyWaitMs: number;
  /** How long a read waits for its sender's keys. */
  senderKeyWaitMs: number;
}

export class E2eeMessageCipher implements MessageCipher {
  readonly isEndToEnd = true;
  readonly #fallback = new PlaintextCipher();
  readonly #reads = new Map<string, Promise<DecryptedMessage>>();
  #sequence = 0;

  constructor(
    readonly manager: RoomKeyManager,
    private readonly timings: E2eeCipherTimings = {
      keyWaitMs: KEY_AGREEMENT_WAIT_MS,
      senderKeyWaitMs: SENDER_KEY_WAIT_MS,
    },
  ) {}

  async encrypt(payload: MessagePayload): Promise<EncryptedOutgoing> {
    const checked = MessagePayloadSchema.parse(payload);
    const { manager } = this;
    const isReady = await manager.waitFor(() => manager.isReadyToSend, this.timings.keyWaitMs);
    if (isReady) {
      try {
        const sealed = await encryptForRoom(manager, canonicalJson(checked), this.#sequence);
        this.#sequence += 1;
        manager.log.info(`Message encrypted (${sealed.encryptionType}) and signed (ML-DSA-65)`);
        return { content: '', ...sealed };
      } catch (error) {
        manager.log.error(`Encryption failed: ${describeError(error)}`);
      }
    } else {
      manager.log.error(`${TEXT.keysNotInitialized} (key agreement did not complete)`);
    }
    if (checked.image !== undefined) {
      manager.log.error('Image not sent: it can only travel end-to-end encrypted');
      throw new PlaintextRefusedError();
    }
    manager.log.warning('Message sent as PLAINTEXT: the server can read it');
    const plain = await this.#fallback.encrypt(checked);
    return { ...plain, signature: signPlaintext(manager, plain.content) };
  }

  decrypt(message: Message): Promise<DecryptedMessage> {
    const cached = this.#reads.get(message.id);
    if (cached) return cached;
    const read = this.#read(message);
    this.#reads.set(message.id, read);
    if (this.#reads.size > READ_CACHE_LIMIT) {
      this.#reads.delete(this.#reads.keys().next().value ?? '');
    }
    return read;
  }

  async #read(message: Message): Promise<DecryptedMessage> {
    const { manager } = this;
    if (message.encryptionType === 'PLAINTEXT' || message.encryptionType === 'none') {
      await manager.waitFor(() => manager.room?.roomId === message.roomId, this.timings.keyWaitMs);
      return {
        state: 'plaintext',
        text: message.content,
        signature: checkSignature(manager, message, message.content),
      };
    }
    const result = await readRoomMessage(manager, message, this.timings.senderKeyWaitMs);
    if (!result.ok) return { state: 'error', text: result.marker };
    let payload: MessagePayload;
    try {
      payload = MessagePayloadSchema.parse(JSON.parse(result.plaintext));
    } catch {
      manager.log.error(`A ${message.encryptionType} message decrypted to an invalid payload`);
      return { state: 'error', text: encryptedMarker(message.encryptionType) };
    }
    return { state: 'decrypted', text: payload.text, payload, signature: result.signature };
  }
}
