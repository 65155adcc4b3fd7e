/**
 * The local payment record (spec 001 §3 "Local session record"): paymentId, address, amount,
 * currency, createdAt, expiresAt. Kept until the order ends, so a reload finds the payment; the
 * `?payment=` query and the recovery code (the payment id) recover it too. Read through a schema like everything from storage.
 */
import { z } from 'zod';
import {
  DecimalAmountSchema,
  PaymentCurrencySchema,
  PaymentIdSchema,
} from '../../../shared/protocol/http/payments.js';
import { readStorage, removeStorage, writeStorage } from '../../lib/storage-keys.js';

/** Storage key of the record; the specs do not name it (docs/decisions.md "Key purchase"). */
export const PAYMENT_RECORD_KEY = 'securechannel_payment_session';

export const PaymentRecordSchema = z.object({
  paymentId: PaymentIdSchema,
  address: z.string().max(200),
  amount: DecimalAmountSchema,
  currency: PaymentCurrencySchema,
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
});
export type PaymentRecord = z.infer<typeof PaymentRecordSchema>;

export function savePaymentRecord(record: PaymentRecord): void {
  writeStorage(PAYMENT_RECORD_KEY, JSON.stringify(record));
}

/**
 * The stored record, or null when there is none or it is damaged. It is kept past the invoice's
 * expiry: a payment seen on the chain does not expire, and only the server's answer (expired,
 * failed, not found) or the saved key file ends an order (issue 32).
 */
export function readPaymentRecord(): PaymentRecord | null {
  const raw = readStorage(PAYMENT_RECORD_KEY);
  if (raw === null) return null;
  let parsed;
  try {
    parsed = PaymentRecordSchema.safeParse(JSON.parse(raw));
  } catch {
    parsed = null;
  }
  if (!parsed?.success) {
    clearPaymentRecord();
    return null;
  }
  return parsed.data;
}

export function clearPaymentRecord(): void {
  removeStorage(PAYMENT_RECORD_KEY);
}
