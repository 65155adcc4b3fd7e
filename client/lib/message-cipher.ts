/**
 * The seam between the chat and message encryption (spec 000 §3 "Message", §4 "Message display").
 * The chat only ever calls a MessageCipher: it encrypts what the user typed before anything is
 * sent, and turns a relayed message into what the screen shows.
 *
 * The end-to-end cipher (`client/features/e2ee/e2ee-message-cipher.ts`) is what the chat uses.
 * Nothing downgrades on its own (DESIGN.md principle 1): a message that cannot be encrypted yet
 * waits, shown as pending, and leaves as the spec's PLAINTEXT type (spec 000 §8 "Encryption
 * failure") only when the user confirms that one message (`SendControl.plaintextConsent`).
 * PlaintextCipher shows only PLAINTEXT messages as text: a message of any other type is shown as
 * `[ENCRYPTED: type]`, since it holds no key and never pretends to decrypt.
 */
import type { MessagePayload } from '../../shared/protocol/message-payload.js';
import type { EncryptionType, Message } from '../../shared/protocol/ws/chat.js';

/** How a message body is shown (spec 000 §4 "Message display"). */
export type MessageDisplayState = 'decrypting' | 'decrypted' | 'error' | 'plaintext';

/**
 * How a message's ML-DSA-65 signature checked out: verified (a key holder whose identity checked
 * out, signature good), unverified (anonymous sender, or no identity to check against), bad
 * (signature fails, or the sender's key bundle was forged or substituted), replayed (a message id
 * seen before, or a signed time outside the message's lifetime), forged (shown as this tab's own
 * message, but this tab never sent it: the relay made it up).
 */
export type MessageSignatureState = 'verified' | 'unverified' | 'bad' | 'replayed' | 'forged';

export interface DecryptedMessage {
  state: MessageDisplayState;
  /** What the screen shows: the text, or the spec's error marker such as `[ENCRYPTED: type]`. */
  text: string;
  /** The decrypted payload (text and an optional image reference), when there is one. */
  payload?: MessagePayload;
  /** The signature check, when the cipher made one. */
  signature?: MessageSignatureState;
}

/** What goes into `send_message` for one message. */
export interface EncryptedOutgoing {
  content: string;
  encryptedContent: string | null;
  encryptionType: EncryptionType;
  /** Base64 ML-DSA-65 signature of the message, or null. */
  signature: string | null;
}

/**
 * How the chat steers one send that has to wait: `plaintextConsent` resolves when the user
 * confirmed that this one message may leave in clear; `signal` aborts the send (cancelled, room
 * left). Without either, a send waits for the keys as long as it takes.
 */
export interface SendControl {
  plaintextConsent?: Promise<void>;
  signal?: AbortSignal;
}

/** Thrown when a waiting send was cancelled: nothing left the browser. */
export class SendCancelledError extends Error {
  constructor() {
    super('The message was not sent');
    this.name = 'SendCancelledError';
  }
}

export interface MessageCipher {
  /** True only when messages leave the browser end-to-end encrypted; drives the warnings. */
  readonly isEndToEnd: boolean;
  /** True when a message sent now would leave encrypted at once (nothing to wait for). */
  canEncryptNow(): boolean;
  /**
   * Encrypts a message payload (the text, and the key of an image if it carries one). Waits for
   * the keys; sends PLAINTEXT only after `control.plaintextConsent` resolves.
   */
  encrypt(payload: MessagePayload, control?: SendControl): Promise<EncryptedOutgoing>;
  decrypt(message: Message): Promise<DecryptedMessage>;
}

/** The display of a message that has not been decrypted yet. */
export const PENDING_DISPLAY: DecryptedMessage = { state: 'decrypting', text: '' };

/** The spec's marker for a message this browser cannot decrypt. */
export function encryptedMarker(type: EncryptionType): string {
  return `[ENCRYPTED: ${type}]`;
}

/** The spec's marker for a message whose forward-secrecy key is gone (spec 000 §4). */
export function pfsExpiredMarker(keyId: string): string {
  return `[PFS-EXPIRED: ${keyId}]`;
}

/**
 * The marker of a copy of a message this browser already read (a relay replay, issue 14). Not a
 * spec marker: the spec does not consider a replaying server (docs/decisions.md).
 */
export function replayedMarker(type: EncryptionType): string {
  return `[REPLAYED: ${type}]`;
}

/**
 * What a message sent before this browser joined shows: its keys were never handed to this
 * member (issue 14: joiners read from their join on). Not a spec marker (docs/decisions.md).
 */
export const SENT_BEFORE_JOIN_MARKER = '[SENT BEFORE YOU JOINED]';

/** The spec's marker for a PFS-ECDH message that failed to decrypt (spec 000 §4). */
export function pfsErrorMarker(keyId: string): string {
  return `[PFS-ERROR: ${keyId}]`;
}

/**
 * Thrown when a payload cannot travel as plaintext: an image's key must never reach the server,
 * so an image message is refused rather than sent as PLAINTEXT.
 */
export class PlaintextRefusedError extends Error {
  constructor() {
    super('An image can only be sent end-to-end encrypted');
    this.name = 'PlaintextRefusedError';
  }
}

/**
 * Sends a text as the flagged PLAINTEXT type (only ever called once the user confirmed that
 * message) and shows only PLAINTEXT messages as text.
 */
export class PlaintextCipher implements MessageCipher {
  readonly isEndToEnd = false;

  canEncryptNow(): boolean {
    return false;
  }

  encrypt(payload: MessagePayload): Promise<EncryptedOutgoing> {
    if (payload.image !== undefined) return Promise.reject(new PlaintextRefusedError());
    return Promise.resolve({
      content: payload.text,
      encryptedContent: null,
      encryptionType: 'PLAINTEXT',
      signature: null,
    });
  }

  decrypt(message: Message): Promise<DecryptedMessage> {
    // The server stamps a plain message as PLAINTEXT ('none' never reaches a client).
    if (message.encryptionType === 'PLAINTEXT' || message.encryptionType === 'none') {
      return Promise.resolve({ state: 'plaintext', text: message.content });
    }
    return Promise.resolve({ state: 'error', text: encryptedMarker(message.encryptionType) });
  }
}
