/**
 * The seam between the chat and message encryption (spec 000 §3 "Message", §4 "Message display").
 * The chat only ever calls a MessageCipher: it encrypts what the user typed before anything is
 * sent, and turns a relayed message into what the screen shows.
 *
 * End-to-end encryption arrives with its own issue and replaces PlaintextCipher behind this
 * interface. Until then every message travels as the spec's visible PLAINTEXT fallback, and the UI
 * says so loudly (DESIGN.md principle 1). A message of any other type is shown as
 * `[ENCRYPTED: type]`: this cipher holds no key, so it never pretends to decrypt.
 */
import { type EncryptionType, type Message } from '../../../shared/protocol/ws/chat.js';

/** How a message body is shown (spec 000 §4 "Message display"). */
export type MessageDisplayState = 'decrypting' | 'decrypted' | 'error' | 'plaintext';

export interface DecryptedMessage {
  state: MessageDisplayState;
  /** What the screen shows: the text, or the spec's error marker such as `[ENCRYPTED: type]`. */
  text: string;
}

/** What goes into `send_message` for one typed text. */
export interface EncryptedOutgoing {
  content: string;
  encryptedContent: string | null;
  encryptionType: EncryptionType;
}

export interface MessageCipher {
  /** True only when messages leave the browser end-to-end encrypted; drives the warnings. */
  readonly isEndToEnd: boolean;
  encrypt(plaintext: string): Promise<EncryptedOutgoing>;
  decrypt(message: Message): Promise<DecryptedMessage>;
}

/** The display of a message that has not been decrypted yet. */
export const PENDING_DISPLAY: DecryptedMessage = { state: 'decrypting', text: '' };

/** The spec's marker for a message this browser cannot decrypt. */
export function encryptedMarker(type: EncryptionType): string {
  return `[ENCRYPTED: ${type}]`;
}

/** Sends text as the flagged PLAINTEXT fallback and shows only PLAINTEXT messages as text. */
export class PlaintextCipher implements MessageCipher {
  readonly isEndToEnd = false;

  encrypt(plaintext: string): Promise<EncryptedOutgoing> {
    return Promise.resolve({
      content: plaintext,
      encryptedContent: null,
      encryptionType: 'PLAINTEXT',
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
