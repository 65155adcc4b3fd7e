/**
 * `ZK-AES-256`: messages of a room with an access code, keyed by the code alone (spec 000 §5, §9:
 * "zero-knowledge: PBKDF2, SHA-256, 100000 iterations, AES-GCM 256, IV 12 bytes"):
 *
 * ```
 * key  = PBKDF2-HMAC-SHA-256(P = UTF-8(access code), S = UTF-8(room secureId),
 *                            c = 100000, dkLen = 32)                   SP 800-132, RFC 8018 §5.2
 * text = base64(iv (12)) ":" base64(AES-256-GCM(key, iv, UTF-8(message)) = ct ‖ tag (16))
 * ```
 *
 * The text format is exactly the spec's, so there is no room for a version, a sender or AAD:
 * the room is bound through the salt (another room derives another key), but nothing binds the
 * sender, and anyone who knows the code can read and write. The server never learns the code
 * (only its SHA-256, spec 000 §5), but a weak code falls to an offline guess against that hash
 * or a captured ciphertext: the type is only as strong as the access code.
 */
import { PBKDF2_ITERATIONS } from '../../constants.js';
import { randomBytes } from '../../ids.js';
import { TEXT } from '../../protocol/errors.js';
import { bytesToBase64, type RandomBytesSource, utf8Decode, utf8Encode } from '../bytes.js';
import { aesGcmDecrypt, aesGcmEncrypt, GCM_IV_BYTES, GCM_TAG_BYTES } from './aes-gcm.js';
import { DecryptError } from './room-crypto-error.js';
import { decodeBase64Field } from './room-wire.js';
import { bufferSource, subtle, type WebCryptoKey } from './webcrypto.js';

/** PBKDF2 iteration count of the ZK key (spec 000 §9). */
export const ZK_PBKDF2_ITERATIONS = PBKDF2_ITERATIONS;
/** Length of the ZK key in bytes (AES-256). */
export const ZK_KEY_BYTES = 32;

async function importPassword(password: Uint8Array): Promise<WebCryptoKey> {
  return subtle().importKey('raw', bufferSource(password), { name: 'PBKDF2' }, false, [
    'deriveBits',
    'deriveKey',
  ]);
}

function pbkdf2Params(salt: Uint8Array, iterations: number) {
  return { name: 'PBKDF2', hash: 'SHA-256', salt: bufferSource(salt), iterations };
}

function checkAccessCode(accessCode: string, secureId: string): void {
  if (accessCode.length === 0) throw new RangeError('An access code is required');
  if (secureId.length === 0) throw new RangeError('A room secure id is required');
}

/**
 * PBKDF2-HMAC-SHA-256 (RFC 8018 §5.2) through WebCrypto: `lengthBytes` bytes. General so that
 * it can be checked against published vectors; room code uses {@link deriveZkKey}.
 * @throws RangeError on a non-positive iteration count or length.
 */
export async function derivePbkdf2Sha256(
  password: Uint8Array,
  salt: Uint8Array,
  iterations: number,
  lengthBytes: number,
): Promise<Uint8Array> {
  if (!Number.isInteger(iterations) || iterations < 1) throw new RangeError('Bad iteration count');
  if (!Number.isInteger(lengthBytes) || lengthBytes < 1) throw new RangeError('Bad length');
  const base = await importPassword(password);
  const bits = await subtle().deriveBits(pbkdf2Params(salt, iterations), base, lengthBytes * 8);
  return new Uint8Array(bits);
}

/**
 * The room's ZK key as a non-extractable AES-256-GCM `CryptoKey`: the 32 bytes never enter
 * script memory. PBKDF2 with 100,000 iterations takes tens of milliseconds: derive once per room
 * and access code, and reuse the key for every message.
 * @param accessCode - the code as entered (trimmed by the access terminal, spec 000 §5); no other
 * normalization, so sender and readers must type the same characters.
 * @param secureId - the room's 64-hex-digit secure id.
 * @throws RangeError when either is empty.
 */
export async function deriveZkKey(accessCode: string, secureId: string): Promise<WebCryptoKey> {
  checkAccessCode(accessCode, secureId);
  const base = await importPassword(utf8Encode(accessCode));
  const params = pbkdf2Params(utf8Encode(secureId), ZK_PBKDF2_ITERATIONS);
  return subtle().deriveKey(params, base, { name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
}

/**
 * The same 32 bytes as {@link deriveZkKey}, as raw bytes: for known-answer tests and fixtures
 * only. Production code keeps the key inside WebCrypto.
 * @throws RangeError when either input is empty.
 */
export async function deriveZkKeyMaterial(
  accessCode: string,
  secureId: string,
): Promise<Uint8Array> {
  checkAccessCode(accessCode, secureId);
  const password = utf8Encode(accessCode);
  return derivePbkdf2Sha256(password, utf8Encode(secureId), ZK_PBKDF2_ITERATIONS, ZK_KEY_BYTES);
}

/**
 * The IV and sealed bytes of a ZK text.
 * @throws DecryptError `MALFORMED` with the spec text 'Invalid ZK encrypted format' unless the
 * text is exactly two base64 parts separated by one colon, a 12-byte IV and at least a tag.
 */
export function parseZkCiphertext(text: string): { iv: Uint8Array; sealed: Uint8Array } {
  const parts = text.split(':');
  const formatError = (cause?: unknown) =>
    new DecryptError('MALFORMED', { message: TEXT.zkInvalidFormat, cause });
  if (parts.length !== 2) throw formatError();
  // Safe: the length check above proved there are exactly two parts.
  const [ivText, sealedText] = parts as [string, string];
  try {
    const iv = decodeBase64Field(ivText, GCM_IV_BYTES);
    const sealed = decodeBase64Field(sealedText);
    if (sealed.length < GCM_TAG_BYTES) throw formatError();
    return { iv, sealed };
  } catch (error) {
    throw error instanceof DecryptError && error.message === TEXT.zkInvalidFormat
      ? error
      : formatError(error);
  }
}

/** Encrypts `plaintext` under the room's ZK key: `base64(iv):base64(ct ‖ tag)`. */
export async function encryptZk(
  plaintext: string,
  key: WebCryptoKey | Uint8Array,
  random: RandomBytesSource = randomBytes,
): Promise<string> {
  const iv = random(GCM_IV_BYTES);
  const sealed = await aesGcmEncrypt(key, iv, utf8Encode(plaintext), null);
  return `${bytesToBase64(iv)}:${bytesToBase64(sealed)}`;
}

/**
 * Decrypts a ZK text.
 * @throws DecryptError `MALFORMED` ('Invalid ZK encrypted format', or text that is not UTF-8),
 * `AUTH_FAILED` for a wrong code, another room's key or any tampering.
 */
export async function decryptZk(text: string, key: WebCryptoKey | Uint8Array): Promise<string> {
  const { iv, sealed } = parseZkCiphertext(text);
  const plaintext = await aesGcmDecrypt(key, iv, sealed, null);
  try {
    return utf8Decode(plaintext);
  } catch (error) {
    throw new DecryptError('MALFORMED', { cause: error });
  }
}
