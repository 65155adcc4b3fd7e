/**
 * Room encryption: the public API in one import. What each file owns is in README.md beside
 * this file; the constructions, their byte layouts and their limits are in docs/crypto-room.md.
 */
export * from './aes-cbc-hmac.js';
export * from './aes-gcm.js';
export * from './ecdh-p256.js';
export * from './encryption-rotation.js';
export * from './image-cipher.js';
export * from './kdf.js';
export * from './message-cipher.js';
export * from './message-context.js';
export * from './message-envelope.js';
export * from './ml-kem.js';
export * from './pairwise-envelope.js';
export * from './pairwise-wrap.js';
export * from './ratchet.js';
export * from './room-crypto-error.js';
export * from './rsa-oaep.js';
export * from './zk-aes.js';
export type { WebCryptoKey } from './webcrypto.js';
