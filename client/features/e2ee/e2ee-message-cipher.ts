/**
 * The chat's MessageCipher with end-to-end encryption (spec 000 §3 "Message", §4 "Message
 * display", §8): the payload's canonical JSON is encrypted with the type the rotation picks and
 * signed; a relayed message is read once and its display kept by message id (a reader chain
 * refuses a second read as a replay).
 *
 * Nothing downgrades on its own (issue 14, DESIGN.md principle 1): a send waits for this
 * browser's keys for as long as it takes — the chat shows the message as pending — and leaves as
 * the flagged PLAINTEXT type (spec 000 §8 "Encryption failure") only once the user confirmed that
 * one message (`SendControl.plaintextConsent`). An image never does: its key would reach the
 * server. A failed encryption is an error, never a reason to send in clear.
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
  replayedMarker,
  PlaintextRefusedError,
  SendCancelledError,
  type DecryptedMessage,
  type EncryptedOutgoing,
  type MessageCipher,
  type SendControl,
} from '../../lib/message-cipher.js';
import { ROOM_JOIN_WAIT_MS, SENDER_KEY_WAIT_MS } from './e2ee-constants.js';
import { describeError } from './e2ee-status.js';
import { checkSignature } from './message-authenticity.js';
import { parseSignature } from './message-signature.js';
import { type RoomKeyManager } from './room-key-manager.js';
import { encryptForRoom, readRoomMessage, signPlaintext } from './room-message-io.js';

/** Reads kept by message id; messages expire after 30 s, so a few hundred is plenty. */
const READ_CACHE_LIMIT = 1000;

export interface E2eeCipherTimings {
  /** How long a read waits for this browser to be in the message's room. */
  joinWaitMs: number;
  /** How long a read waits for its sender's keys. */
  senderKeyWaitMs: number;
}

/** What ended a send's wait: the keys, the user's consent to PLAINTEXT, or a cancel. */
type WaitOutcome = 'ready' | 'consent' | 'cancelled';

export class E2eeMessageCipher implements MessageCipher {
  readonly isEndToEnd = true;
  readonly #plaintext = new PlaintextCipher();
  readonly #reads = new Map<string, Promise<DecryptedMessage>>();
  #sequence = 0;

  constructor(
    readonly manager: RoomKeyManager,
    private readonly timings: E2eeCipherTimings = {
      joinWaitMs: ROOM_JOIN_WAIT_MS,
      senderKeyWaitMs: SENDER_KEY_WAIT_MS,
    },
  ) {}

  canEncryptNow(): boolean {
    return this.manager.isReadyToSend;
  }

  async encrypt(payload: MessagePayload, control: SendControl = {}): Promise<EncryptedOutgoing> {
    const checked = MessagePayloadSchema.parse(payload);
    const { manager } = this;
    const outcome = await this.#waitForKeys(control);
    if (outcome === 'cancelled') throw new SendCancelledError();
    if (outcome === 'ready') {
      try {
        const sealed = await encryptForRoom(manager, canonicalJson(checked), this.#sequence);
        this.#sequence += 1;
        manager.log.info(`Message encrypted (${sealed.encryptionType}) and signed (ML-DSA-65)`);
        return { content: '', ...sealed };
      } catch (error) {
        // Never a reason to send in clear: the chat says the message was not sent.
        manager.log.error(`Encryption failed: ${describeError(error)}`);
        throw error;
      }
    }
    if (checked.image !== undefined) {
      manager.log.error('Image not sent: it can only travel end-to-end encrypted');
      throw new PlaintextRefusedError();
    }
    manager.log.warning(
      `${TEXT.keysNotInitialized}: message sent as PLAINTEXT at the user's request (the server can read it)`,
    );
    const plain = await this.#plaintext.encrypt(checked);
    return { ...plain, signature: signPlaintext(manager, plain.content) };
  }

  /** Waits until the keys are ready, the user consents to PLAINTEXT, or the send is cancelled. */
  #waitForKeys(control: SendControl): Promise<WaitOutcome> {
    const { manager } = this;
    if (control.signal?.aborted) return Promise.resolve('cancelled');
    if (manager.isReadyToSend) return Promise.resolve('ready');
    return new Promise((resolve) => {
      let isDone = false;
      const finish = (outcome: WaitOutcome) => {
        if (isDone) return;
        isDone = true;
        unsubscribe();
        control.signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      const onAbort = () => finish('cancelled');
      const unsubscribe = manager.subscribe(() => {
        if (manager.isReadyToSend) finish('ready');
      });
      control.signal?.addEventListener('abort', onAbort);
      control.plaintextConsent?.then(
        () => finish(manager.isReadyToSend ? 'ready' : 'consent'),
        () => undefined,
      );
    });
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
      await manager.waitFor(() => manager.room?.roomId === message.roomId, this.timings.joinWaitMs);
      return {
        state: 'plaintext',
        text: message.content,
        signature: checkSignature(manager, message, message.content),
      };
    }
    // A copy of a message already read is refused before any key is touched (a ratchet would
    // refuse it too, but it must say "replayed", not "expired").
    const claimed = parseSignature(message.signature);
    if (claimed && manager.ledger.isReplay(claimed.messageId, message.id)) {
      manager.log.warning(`A ${message.encryptionType} message was relayed again (replayed)`);
      return {
        state: 'error',
        text: replayedMarker(message.encryptionType),
        signature: 'replayed',
      };
    }
    const result = await readRoomMessage(manager, message, this.timings);
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
