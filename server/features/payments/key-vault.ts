/**
 * The server's handling of a payment id and of a purchased key file while it waits for its one
 * download. The payment id is the buyer's only credential: the database stores its SHA-256, and
 * the key file is sealed with AES-256-GCM under a key derived from the id (HKDF-SHA-256), so a
 * copy of the database alone opens neither the payment nor the key file. The sealed file is
 * erased (the column set to NULL) at the first download or after 20 minutes.
 *
 * ```
 * idHash  = hex(SHA-256(UTF-8(paymentId)))
 * ref     = idHash[0..16)                     (audit log, processor order id)
 * key     = HKDF-SHA-256(ikm = UTF-8(paymentId), salt = "securechannel-purchased-key", info = ref, 32)
 * sealed  = iv (12) ‖ AES-256-GCM(key, iv, UTF-8(key file JSON)) ‖ tag (16)
 * ```
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

const SALT = 'securechannel-purchased-key';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** SHA-256 of the payment id, hex: the row's primary key. */
export function paymentIdHash(paymentId: string): string {
  return createHash('sha256').update(paymentId, 'utf8').digest('hex');
}

/** The payment's public reference: the first 16 hex digits of its id hash. */
export function paymentRef(idHash: string): string {
  return idHash.slice(0, 16);
}

/** A new payment id: `pay_` and 64 hex digits. */
export function newPaymentId(): string {
  return `pay_${randomBytes(32).toString('hex')}`;
}

function sealingKey(paymentId: string, ref: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(paymentId, 'utf8'), SALT, ref, 32));
}

/** Seals a key file's text for storage until its download. */
export function sealKeyFile(paymentId: string, ref: string, text: string): Uint8Array {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(paymentId, ref), iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return new Uint8Array(Buffer.concat([iv, body, cipher.getAuthTag()]));
}

/** Opens a sealed key file; throws when the id is wrong or the bytes were altered. */
export function openKeyFile(paymentId: string, ref: string, sealed: Uint8Array): string {
  const bytes = Buffer.from(sealed);
  const iv = bytes.subarray(0, IV_BYTES);
  const tag = bytes.subarray(bytes.length - TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(paymentId, ref), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([
    decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
    decipher.final(),
  ]).toString('utf8');
}
