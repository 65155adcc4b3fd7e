/**
 * The purchase calls (spec 001 §7 "Cryptocurrency purchase"). Answers are parsed by the shared
 * schemas; failures follow the client's HTTP rule (client/lib/http.ts).
 */
import {
  GenerateKeyResponseSchema,
  GeneratePaymentResponseSchema,
  PaymentRequiredResponseSchema,
  PaymentStatusResponseSchema,
  PricesResponseSchema,
  PurchaseAvailabilitySchema,
  PurchaseKeyResponseSchema,
  SandboxPayResponseSchema,
  type GenerateKeyResponse,
  type GeneratePaymentResponse,
  type PaymentCurrency,
  type PaymentRequiredResponse,
  type PaymentStatusResponse,
  type PricesResponse,
  type PurchaseAvailability,
  type PurchaseKeyRequest,
} from '../../../shared/protocol/http/payments.js';
import { HttpError, apiRequest } from '../../lib/http.js';

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
  username: string,
): Promise<GeneratePaymentResponse> {
  return apiRequest('/api/crypto/generate-payment', GeneratePaymentResponseSchema, {
    method: 'POST',
    body: { currency, minAmountUsd, username },
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

/** Sends the public part of this browser's key with its proof of possession. */
export function submitPurchaseKey(body: PurchaseKeyRequest) {
  return apiRequest('/api/crypto/purchase-key', PurchaseKeyResponseSchema, {
    method: 'POST',
    body,
    auth: false,
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
