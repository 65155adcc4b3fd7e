/**
 * The server's handling of a payment id. The payment id is the buyer's credential for the
 * payment (and the recovery code of the page): the database stores only its SHA-256, so a copy
 * of the database cannot act on a payment. The server never holds a purchased private key: the
 * buyer's browser makes the key and sends only its public part (issue 32).
 *
 * ```
 * idHash  = hex(SHA-256(UTF-8(paymentId)))
 * ref     = idHash[0..16)                     (audit log, processor order id, key challenge)
 * ```
 */
import { createHash, randomBytes } from 'node:crypto';

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

/** The random part of a payment's key challenge: 32 hex digits. */
export function newKeyChallengeNonce(): string {
  return randomBytes(16).toString('hex');
}
