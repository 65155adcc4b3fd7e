/**
 * The e2ee feature's front door: all that other features may import from it (docs/architecture.md,
 * "Client layers"). Anything else in this folder is private to it.
 */
export { accessCodeFor, rememberAccessCode } from './access-codes.js';
export { RoomE2eeContext, useRoomE2eeContext } from './e2ee-context.js';
export { secureIdOf } from './e2ee-status.js';
export { type IdentityPinStore, LocalStoragePinStore } from './identity-trust.js';
export { LazyRoomCipher } from './lazy-room-cipher.js';
export { acceptedSigningKeys } from './room-members.js';
export { type RoomKeyManager } from './room-key-manager.js';
export { certificateText, countTrust } from './security-text.js';
export { SecurityStatusBar } from './SecurityStatusBar.js';
export { type VoiceKeyGrant } from './sender-key-envelope.js';
export { type RoomE2ee, useRoomE2ee } from './use-room-e2ee.js';
