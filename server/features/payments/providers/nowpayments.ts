/**
 * The NOWPayments adapter (PAYMENT_PROVIDER=nowpayments). It creates a payment through
 * `POST {base}/payment` (an address and the exact amount in the chosen currency, quoted by
 * NOWPayments), learns its state by polling `GET {base}/payment/{id}` at most once per polling
 * interval, and accepts NOWPayments' IPN callbacks, whose `x-nowpayments-sig` header is the
 * HMAC-SHA512 (hex) of the body's JSON with keys sorted, keyed with the IPN secret.
 * Every call sends `x-api-key`. The base URL is configurable (PAYMENT_API_URL) so tests talk to
 * a local fake over real HTTP.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { PAYMENT_POLL_INTERVAL_MS } from '../../../../shared/constants.js';
import {
  ProcessorStatusSchema,
  type PaymentCurrency,
} from '../../../../shared/protocol/http/payments.js';
import { numberToDecimal } from '../decimal.js';
import {
  ProviderError,
  type ChainObservation,
  type Invoice,
  type InvoiceRequest,
  type ObservedPayment,
  type PaymentProvider,
  type ProcessorQuote,
} from './provider.js';

/**
 * NOWPayments' code for each currency. Tokens that live on several chains are pinned to one
 * network (USDT on Tron, USDC on Ethereum, BNB on BNB Smart Chain, MATIC on Polygon, AVAX on
 * its C-chain); docs/operations.md says so.
 */
export const NOWPAYMENTS_CODES: Record<PaymentCurrency, string> = {
  BTC: 'btc',
  ETH: 'eth',
  USDT: 'usdttrc20',
  ADA: 'ada',
  ATOM: 'atom',
  AVAX: 'avaxc',
  BCH: 'bch',
  BNB: 'bnbbsc',
  DASH: 'dash',
  DOGE: 'doge',
  DOT: 'dot',
  ETC: 'etc',
  FIL: 'fil',
  LINK: 'link',
  LTC: 'ltc',
  MATIC: 'maticmainnet',
  NEAR: 'near',
  SHIB: 'shib',
  SOL: 'sol',
  TRX: 'trx',
  UNI: 'uni',
  USDC: 'usdc',
  XLM: 'xlm',
  XMR: 'xmr',
  XRP: 'xrp',
  ZEC: 'zec',
};

/** NOWPayments' payment statuses. */
const NowStatusSchema = ProcessorStatusSchema;
type NowStatus = z.infer<typeof NowStatusSchema>;

const amountField = z.union([z.number().nonnegative(), z.string().regex(/^\d+(\.\d+)?$/)]);
const idField = z.union([z.number().int().nonnegative(), z.string().regex(/^\d{1,30}$/)]);

const CreatedPaymentSchema = z.looseObject({
  payment_id: idField,
  pay_address: z.string().min(1).max(200),
  pay_amount: amountField,
  payin_extra_id: z.string().max(100).nullish(),
});

/** The fields of a payment (a status answer, or an IPN body) this adapter reads. */
export const NowPaymentStateSchema = z.looseObject({
  payment_id: idField,
  payment_status: NowStatusSchema,
  order_id: z.string().max(100).nullish(),
  actually_paid: amountField.nullish(),
  payin_hash: z.string().max(200).nullish(),
});
export type NowPaymentState = z.infer<typeof NowPaymentStateSchema>;

const EstimateSchema = z.looseObject({ estimated_amount: amountField });
const MinAmountSchema = z.looseObject({ min_amount: amountField });

export interface NowPaymentsOptions {
  apiUrl: string;
  apiKey: string;
  ipnSecret: string;
  /** Full URL of this server's IPN route, sent with each payment; null leaves the dashboard's. */
  callbackUrl: string | null;
  /** Per-call timeout; default 10 s. */
  timeoutMs?: number;
}

function asDecimal(value: number | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'number' ? numberToDecimal(value) : value;
}

/** Sorts object keys at every depth, as NOWPayments does before signing. */
function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    sorted[key] = sortKeysDeep((value as Record<string, unknown>)[key]);
  }
  return sorted;
}

/** The IPN signature of a body: HMAC-SHA512(secret, JSON of the key-sorted body), hex. */
export function signIpnBody(body: unknown, secret: string): string {
  return createHmac('sha512', secret)
    .update(JSON.stringify(sortKeysDeep(body)))
    .digest('hex');
}

/** Whether `signature` is the IPN signature of `body`; constant-time. */
export function isValidIpnSignature(
  body: unknown,
  signature: string | undefined,
  secret: string,
): boolean {
  if (!signature || !/^[0-9a-f]{128}$/i.test(signature)) return false;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const expected = Buffer.from(signIpnBody(body, secret), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature.toLowerCase(), 'hex'));
}

/** Where a NOWPayments status leaves our payment. */
export function observationOf(state: NowPaymentState): ChainObservation {
  const paidAmount = asDecimal(state.actually_paid);
  const transactionHash = state.payin_hash ?? null;
  const map: Record<NowStatus, ChainObservation['status']> = {
    waiting: 'pending',
    // Less than the invoice arrived: it never confirms (the buyer can still send the rest).
    partially_paid: 'pending',
    confirming: 'confirming',
    confirmed: 'confirmed',
    sending: 'confirmed',
    finished: 'confirmed',
    failed: 'failed',
    refunded: 'failed',
    expired: 'expired',
  };
  return {
    status: map[state.payment_status],
    // NOWPayments does not report confirmation counts; the service fills in the required count
    // once the payment is confirmed.
    confirmations: 0,
    transactionHash,
    paidAmount,
    providerStatus: state.payment_status,
  };
}

export class NowPaymentsProvider implements PaymentProvider {
  readonly name = 'nowpayments' as const;
  readonly usesPriceFeed = false;
  private readonly base: string;

  constructor(private readonly options: NowPaymentsOptions) {
    this.base = options.apiUrl.replace(/\/+$/, '');
  }

  private async call(path: string, init: RequestInit = {}): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        ...init,
        headers: {
          'x-api-key': this.options.apiKey,
          accept: 'application/json',
          ...(init.body ? { 'content-type': 'application/json' } : {}),
        },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      throw new ProviderError('NOWPayments could not be reached', {
        cause: error,
        unreachable: true,
      });
    }
    if (!response.ok) {
      // The body may echo our request; only the status is kept.
      await response.body?.cancel();
      throw new ProviderError(`NOWPayments answered ${response.status}`, {
        unreachable: response.status >= 500,
      });
    }
    try {
      return (await response.json()) as unknown;
    } catch (error) {
      throw new ProviderError('NOWPayments answered something that is not JSON', { cause: error });
    }
  }

  async createInvoice(request: InvoiceRequest): Promise<Invoice> {
    const raw = await this.call('/payment', {
      method: 'POST',
      body: JSON.stringify({
        price_amount: request.amountUsd,
        price_currency: 'usd',
        pay_currency: NOWPAYMENTS_CODES[request.currency],
        order_id: request.ref,
        order_description: `SecureChannel key, ${request.tier} tier`,
        ...(this.options.callbackUrl ? { ipn_callback_url: this.options.callbackUrl } : {}),
        is_fixed_rate: true,
        is_fee_paid_by_user: false,
      }),
    });
    const parsed = CreatedPaymentSchema.safeParse(raw);
    if (!parsed.success) throw new ProviderError('NOWPayments answered an unexpected payment');
    const amount = asDecimal(parsed.data.pay_amount);
    if (amount === null) throw new ProviderError('NOWPayments answered an unusable amount');
    return {
      address: parsed.data.pay_address,
      extraId: parsed.data.payin_extra_id ?? null,
      amount,
      providerRef: String(parsed.data.payment_id),
    };
  }

  /**
   * The processor's estimate of `usd` in `currency` (`GET {base}/estimate`) and its minimum
   * payment (`GET {base}/min-amount`), for the currency picker (issue 32).
   */
  async quote(currency: PaymentCurrency, usd: number): Promise<ProcessorQuote> {
    const code = NOWPAYMENTS_CODES[currency];
    const estimateQuery = new URLSearchParams({
      amount: String(usd),
      currency_from: 'usd',
      currency_to: code,
    });
    const minimumQuery = new URLSearchParams({ currency_from: code, currency_to: code });
    const [estimateRaw, minimumRaw] = await Promise.all([
      this.call(`/estimate?${estimateQuery.toString()}`),
      this.call(`/min-amount?${minimumQuery.toString()}`),
    ]);
    const estimate = EstimateSchema.safeParse(estimateRaw);
    const minimum = MinAmountSchema.safeParse(minimumRaw);
    const amount = estimate.success ? Number(estimate.data.estimated_amount) : Number.NaN;
    if (!(amount > 0) || !Number.isFinite(amount) || !minimum.success) {
      throw new ProviderError('NOWPayments answered an unusable estimate');
    }
    const minAmount = Number(minimum.data.min_amount);
    return { amount, minAmount: minAmount > 0 && Number.isFinite(minAmount) ? minAmount : null };
  }

  async observe(payment: ObservedPayment, now: number): Promise<ChainObservation | null> {
    if (payment.providerRef === null) return null;
    if (
      payment.providerCheckedAt &&
      now - payment.providerCheckedAt.getTime() < PAYMENT_POLL_INTERVAL_MS
    ) {
      return null;
    }
    const raw = await this.call(`/payment/${encodeURIComponent(payment.providerRef)}`);
    const parsed = NowPaymentStateSchema.safeParse(raw);
    if (!parsed.success) throw new ProviderError('NOWPayments answered an unexpected status');
    if (String(parsed.data.payment_id) !== payment.providerRef) {
      throw new ProviderError('NOWPayments answered for another payment');
    }
    return observationOf(parsed.data);
  }

  /** Checks an IPN body's signature; true only when it was signed with our IPN secret. */
  verifyIpn(body: unknown, signature: string | undefined): boolean {
    return isValidIpnSignature(body, signature, this.options.ipnSecret);
  }
}
