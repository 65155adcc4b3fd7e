/**
 * The cipher the chat uses: end-to-end encryption (client/features/e2ee). It owns the page's room
 * key agreement, which it loads right after the room has painted (LazyRoomCipher); `useRoomE2ee`
 * wires it to the chat socket. The warnings on screen follow its state; PlaintextCipher is only
 * its flagged fallback (spec 000 §8).
 */
import { LazyRoomCipher } from '../e2ee/index.js';

export function createMessageCipher(): LazyRoomCipher {
  return new LazyRoomCipher();
}
