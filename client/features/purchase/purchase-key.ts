/**
 * The purchased key, made in this browser (issue 32): the key pair is made here with the same
 * code as an admin-issued key (shared/crypto/purchase-key.ts), only its public part and both
 * keys' signatures over the payment's challenge go to the server, and the whole file
 * (private keys included) stays in this browser's storage until the buyer saves it. The server
 * never sees a private key, so it cannot hand the file out again: this browser holds the only copy.
 */
import {
  parseKeyFileText,
  serializeKeyFile,
  type KeyFile,
} from '../../../shared/crypto/key-file-schema.js';
import { PaymentIdSchema } from '../../../shared/protocol/http/payments.js';
import { readStorage, removeStorage, writeStorage } from '../../lib/storage-keys.js';

/** Storage key prefix of a purchased key waiting to be saved; the payment id follows. */
export const PURCHASE_KEY_PREFIX = 'securechannel_purchase_key:';

function storageKey(paymentId: string): string {
  return `${PURCHASE_KEY_PREFIX}${PaymentIdSchema.parse(paymentId)}`;
}

/** Keeps the key file in this browser until it is saved; false when storage refuses. */
export function storePurchaseKey(paymentId: string, keyFile: KeyFile): boolean {
  return writeStorage(storageKey(paymentId), serializeKeyFile(keyFile));
}

/** The stored key file of a payment, or null when this browser has none (or it is damaged). */
export function readPurchaseKey(paymentId: string): KeyFile | null {
  const text = readStorage(storageKey(paymentId));
  if (text === null) return null;
  const parsed = parseKeyFileText(text);
  return parsed.ok ? parsed.keyFile : null;
}

export function forgetPurchaseKey(paymentId: string): void {
  removeStorage(storageKey(paymentId));
}
