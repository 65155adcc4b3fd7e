/**
 * The purchase calls (spec 001 §7 "Cryptocurrency purchase"). Answers are parsed by the shared
 * schemas; failures follow the client's HTTP rule (client/lib/http.ts).
 */
import { z } from 'zod';
import {
  GenerateKeyResponseSchema,
  GeneratePaymentResponseSchema,
  PaymentRequiredResponseSchema,
  PaymentStatusResponseSchema,
  PricesResponseSchema,
  PurchaseAvailabilitySchema,
  SandboxPayResponseSchema,
  type GenerateKeyResponse,
  type GeneratePaymentResponse,
  type PaymentCurrency,
  type PaymentRequiredResponse,
  type PaymentStatusResponse,
  type PricesResponse,
  type PurchaseAvailability,
} from '../../../shared/protocol/http/payments.js';
import { HttpError, apiRequest, throwIfNotOk } from '../../lib/http.js';

/** Whether this server sells keys at all (issue 31): asked before the flow is shown. */
export function fetchPurchaseAvailability(): Promise<PurchaseAvailability> {
  return apiRequest('/api/crypto/availability', PurchaseAvailabilitySchema, { auth: false });
}

export function fetchPrices(): Promise<PricesResponse> {
  return apiRequest('/api/crypto/prices', PricesResponseSchema, { auth: false });
}

export function generatePayment(
  currency: PaymentCurrency,
  minAmountUsd: number,
): Promise<GeneratePaymentResponse> {
  return apiRequest('/api/crypto/generate-payment', GeneratePaymentResponseSchema, {
    method: 'POST',
    body: { currency, minAmountUsd },
    auth: false,
  });
}

export function fetchPaymentStatus(paymentId: string): Promise<PaymentStatusResponse> {
  return apiRequest(
    `/api/crypto/payment-status/${encodeURIComponent(paymentId)}`,
    PaymentStatusResponseSchema,
    { auth: false },
  );
}

/** The key of a confirmed payment, or the 402 answer while it is not confirmed. */
export async function generateKey(
  paymentId: string,
  transactionHash: string | null,
): Promise<
  { ok: true; key: GenerateKeyResponse } | { ok: false; required: PaymentRequiredResponse }
> {
  try {
    const key = await apiRequest('/api/crypto/generate-key', GenerateKeyResponseSchema, {
      method: 'POST',
      body: { paymentId, transactionHash },
      auth: false,
    });
    return { ok: true, key };
  } catch (error) {
    if (error instanceof HttpError && error.status === 402) {
      const parsed = PaymentRequiredResponseSchema.safeParse(safeJson(error.body));
      if (parsed.success) return { ok: false, required: parsed.data };
    }
    throw error;
  }
}

/** Broadcasts an amount on the sandbox chain (sandbox mode only). */
export function sandboxPay(paymentId: string, amount: string) {
  return apiRequest('/api/crypto/sandbox/pay', SandboxPayResponseSchema, {
    method: 'POST',
    body: { paymentId, amount },
    auth: false,
  });
}

/** Downloads the key file (once: the server erases it as it sends it). */
export async function downloadKeyFile(
  downloadUrl: string,
): Promise<{ fileName: string; text: string }> {
  const response = await fetch(downloadUrl, { cache: 'no-store', credentials: 'same-origin' });
  await throwIfNotOk(response);
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}\.sck$/)
    .catch('securechannel-key.sck')
    .parse(/filename="([^"]+)"/.exec(disposition)?.[1]);
  return { fileName, text: await response.text() };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
