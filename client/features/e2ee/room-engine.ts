/**
 * The room's end-to-end engine, loaded on demand (issue 22, target 5): the key manager, the
 * message cipher and what turns a key file or a session token into the manager's identity and
 * key registry. Everything here pulls the room's cryptography (@noble curves, hashes and
 * post-quantum, ECDSA, AES-GCM), so the chat page reaches it only through `LazyRoomCipher`
 * (lazy-room-cipher.ts), which imports this module once the room has rendered.
 */
import { type KeyFile } from '../../../shared/crypto/key-file-schema.js';
import { identitySignerFromKeyFile, type BundleIdentitySigner } from './bundle-identity.js';
import { type CryptoLog } from './crypto-log.js';
import { E2eeMessageCipher } from './e2ee-message-cipher.js';
import { fetchServerEntropy } from './entropy-pool.js';
import {
  httpIdentityRegistry,
  LocalStoragePinStore,
  type IdentityRegistry,
} from './identity-trust.js';
import { RoomKeyManager } from './room-key-manager.js';

export interface RoomEngine {
  manager: RoomKeyManager;
  cipher: E2eeMessageCipher;
  /** The bundle signer of a key holder's key file. */
  signerFor: (keyFile: KeyFile) => BundleIdentitySigner | null;
  /** The key registry a key holder's session may ask. */
  registryFor: (sessionToken: string) => IdentityRegistry;
}

/** The browser's engine, writing to the page's crypto log. */
export function createRoomEngine(log: CryptoLog): RoomEngine {
  const manager = new RoomKeyManager({
    now: Date.now,
    log,
    pins: new LocalStoragePinStore(),
    fetchServerEntropy: () => fetchServerEntropy(),
  });
  return {
    manager,
    cipher: new E2eeMessageCipher(manager),
    signerFor: identitySignerFromKeyFile,
    registryFor: (sessionToken) => httpIdentityRegistry(sessionToken),
  };
}
