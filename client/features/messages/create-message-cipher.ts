/**
 * The cipher the chat uses: end-to-end encryption (client/features/e2ee). It owns the page's room
 * key agreement; `useRoomE2ee` wires it to the chat socket. The warnings on screen follow its
 * state; PlaintextCipher is only its flagged fallback (spec 000 §8).
 */
import { CryptoLog } from '../e2ee/crypto-log.js';
import { E2eeMessageCipher } from '../e2ee/e2ee-message-cipher.js';
import { fetchServerEntropy } from '../e2ee/entropy-pool.js';
import { LocalStoragePinStore } from '../e2ee/identity-trust.js';
import { RoomKeyManager } from '../e2ee/room-key-manager.js';

export function createMessageCipher(): E2eeMessageCipher {
  const manager = new RoomKeyManager({
    now: Date.now,
    log: new CryptoLog(),
    pins: new LocalStoragePinStore(),
    fetchServerEntropy: () => fetchServerEntropy(),
  });
  return new E2eeMessageCipher(manager);
}
