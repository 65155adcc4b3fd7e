/**
 * Typed errors of room message encryption. A `message` is always a text a user may see (the
 * spec's where one exists, spec 000 §8 "Crypto state") and never contains key material,
 * plaintext or ciphertext; `cause` keeps the underlying WebCrypto or library error.
 */
import { TEXT } from '../../protocol/errors.js';

/**
 * Why a decryption (of a message, a pairwise-wrapped secret or an image) failed.
 * - `AUTH_FAILED`: the authentication tag or MAC did not verify: tampered data, a wrong key, or
 *   a ciphertext presented in another room or as another sender's (AAD mismatch).
 * - `MALFORMED`: the envelope is not in the expected format (the ZK format error carries the
 *   spec text `Invalid ZK encrypted format`).
 * - `KEY_EXPIRED`: the ratchet no longer holds the message key (`Forward secrecy: message key
 *   expired`): the message is older than the skipped keys kept, or was already read.
 * - `TOO_FAR_AHEAD`: the message claims an iteration too far past the receiver's chain.
 * - `KEY_ROTATED`: the message was made under another sender key than the one held
 *   (`Message cannot be decrypted due to key rotation`).
 * - `KEYS_NOT_INITIALIZED`: a key the type needs is missing (`Keys not initialized. Call
 *   initializeKeyExchange first`).
 * - `NOT_A_RECIPIENT`: the message or wrapped secret carries no entry for this reader.
 */
export type DecryptErrorCode =
  | 'AUTH_FAILED'
  | 'MALFORMED'
  | 'KEY_EXPIRED'
  | 'TOO_FAR_AHEAD'
  | 'KEY_ROTATED'
  | 'KEYS_NOT_INITIALIZED'
  | 'NOT_A_RECIPIENT';

/**
 * Why an encryption failed.
 * - `KEYS_NOT_INITIALIZED`: a key the type needs is missing (spec text as above).
 * - `INVALID_KEY`: a given public key or secret has the wrong size or is not a valid key.
 * - `TOO_LARGE`: the result would exceed its size limit (48,000 characters of
 *   `encryptedContent`, 1 KiB of pairwise payload, 10 MB of image).
 * - `CHAIN_EXHAUSTED`: the sender chain reached its last iteration; rotate the sender key.
 */
export type EncryptErrorCode =
  'KEYS_NOT_INITIALIZED' | 'INVALID_KEY' | 'TOO_LARGE' | 'CHAIN_EXHAUSTED';

/** The user-facing text of each decryption failure. */
export const DECRYPT_ERROR_TEXT: Readonly<Record<DecryptErrorCode, string>> = {
  AUTH_FAILED: 'Message authentication failed',
  MALFORMED: 'Malformed encrypted message',
  KEY_EXPIRED: TEXT.forwardSecrecyKeyExpired,
  TOO_FAR_AHEAD: 'Message is too far ahead of the key chain',
  KEY_ROTATED: TEXT.keyRotationUndecryptable,
  KEYS_NOT_INITIALIZED: TEXT.keysNotInitialized,
  NOT_A_RECIPIENT: 'Message is not addressed to this node',
};

/** The user-facing text of each encryption failure. */
export const ENCRYPT_ERROR_TEXT: Readonly<Record<EncryptErrorCode, string>> = {
  KEYS_NOT_INITIALIZED: TEXT.keysNotInitialized,
  INVALID_KEY: 'Invalid encryption key',
  TOO_LARGE: 'Encrypted message too large',
  CHAIN_EXHAUSTED: 'Sender key exhausted: rotate the sender key',
};

/** Common base of {@link DecryptError} and {@link EncryptError}, for one `instanceof` check. */
export class RoomCryptoError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RoomCryptoError';
  }
}

/** A decryption failure with its {@link DecryptErrorCode}. */
export class DecryptError extends RoomCryptoError {
  /** What went wrong, for code to branch on; `message` is for people. */
  readonly code: DecryptErrorCode;

  /** `message` defaults to the code's text in {@link DECRYPT_ERROR_TEXT}. */
  constructor(code: DecryptErrorCode, options?: { cause?: unknown; message?: string }) {
    super(options?.message ?? DECRYPT_ERROR_TEXT[code], { cause: options?.cause });
    this.name = 'DecryptError';
    this.code = code;
  }
}

/** An encryption failure with its {@link EncryptErrorCode}. */
export class EncryptError extends RoomCryptoError {
  /** What went wrong, for code to branch on; `message` is for people. */
  readonly code: EncryptErrorCode;

  /** `message` defaults to the code's text in {@link ENCRYPT_ERROR_TEXT}. */
  constructor(code: EncryptErrorCode, options?: { cause?: unknown; message?: string }) {
    super(options?.message ?? ENCRYPT_ERROR_TEXT[code], { cause: options?.cause });
    this.name = 'EncryptError';
    this.code = code;
  }
}
