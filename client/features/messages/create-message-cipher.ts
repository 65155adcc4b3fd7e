/**
 * The cipher the chat uses. Today that is the visible PLAINTEXT fallback; the end-to-end
 * encryption issue returns its MessageCipher from here, and the warnings on screen follow its
 * `isEndToEnd` on their own.
 */
import { PlaintextCipher, type MessageCipher } from './message-cipher.js';

export function createMessageCipher(): MessageCipher {
  return new PlaintextCipher();
}
