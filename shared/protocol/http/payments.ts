/**
 * Key purchase with cryptocurrency (spec 001 §3, §4, §7 "Cryptocurrency purchase", §9;
 * DESIGN.md "Payments"). Amounts of cryptocurrency travel as decimal strings, so that the exact
 * amount the buyer must send is never rounded by a float.
 */
import { z } from 'zod';
import {
  ML_DSA_65_SIGNATURE_BYTES,
  PAYMENT_CURRENCIES,
  PAYMENT_PROGRESS,
  PAYMENT_TIER_IDS,
  REQUIRED_CONFIRMATIONS,
  TIER_MIN_USD,
} from '../../constants.js';
import { isByteValue } from '../../crypto/bytes.js';
import { KeyPublicPartSchema, KeyUsernameSchema } from '../../crypto/key-file-schema.js';
import { KeyIdSchema } from '../../ids.js';

/** One of the 26 currencies of spec 001 §9, upper-case ticker. */
export const PaymentCurrencySchema = z.enum(PAYMENT_CURRENCIES);
export type PaymentCurrency = z.infer<typeof PaymentCurrencySchema>;

/** A tier id (spec 001 §3). */
export const TierIdSchema = z.enum(PAYMENT_TIER_IDS);
export type TierId = z.infer<typeof TierIdSchema>;

/**
 * Payment states (spec 001 §4). Forward only: pending → confirming → confirmed → generating →
 * ready; expired and failed end a payment that has no key.
 */
export const PaymentStatusSchema = z.enum([
  'pending',
  'confirming',
  'confirmed',
  'generating',
  'ready',
  'expired',
  'failed',
]);
export type PaymentStatus = z.infer<typeof PaymentStatusSchema>;

/**
 * A payment id: `pay_` and 64 lowercase hex digits (32 random bytes). It is the buyer's only
 * credential for the payment and its one-time key download, so it is unguessable.
 */
export const PaymentIdSchema = z.string().regex(/^pay_[0-9a-f]{64}$/, 'Invalid payment id');
export type PaymentId = z.infer<typeof PaymentIdSchema>;

/** A non-negative decimal number written out: digits, optionally a point and more digits. */
export const DecimalAmountSchema = z
  .string()
  .max(40)
  .regex(/^\d{1,20}(\.\d{1,18})?$/, 'Invalid amount');

/** Confirmations a payment in `currency` needs (spec 001 §9). */
export function requiredConfirmations(currency: PaymentCurrency): number {
  if (currency === 'BTC') return REQUIRED_CONFIRMATIONS.BTC;
  if (currency === 'ETH') return REQUIRED_CONFIRMATIONS.ETH;
  return REQUIRED_CONFIRMATIONS.other;
}

/** The tier whose minimum is exactly `amountUsd`, or null (spec 001 §5, §9). */
export function tierForAmount(amountUsd: number): TierId | null {
  return PAYMENT_TIER_IDS.find((tier) => TIER_MIN_USD[tier] === amountUsd) ?? null;
}

/**
 * The progress bar's percentage for a status (spec 001 §4): pending 20, confirming 40 plus
 * confirmations over required scaled to 40, confirmed 80, generating 90, ready 100; expired and
 * failed show no progress.
 */
export function paymentProgress(
  status: PaymentStatus,
  confirmations: number,
  required: number,
): number {
  switch (status) {
    case 'pending':
      return PAYMENT_PROGRESS.pending;
    case 'confirming': {
      const share = required > 0 ? Math.min(Math.max(confirmations, 0), required) / required : 0;
      return PAYMENT_PROGRESS.confirming + Math.round(share * PAYMENT_PROGRESS.confirmingSpan);
    }
    case 'confirmed':
      return PAYMENT_PROGRESS.confirmed;
    case 'generating':
      return PAYMENT_PROGRESS.generating;
    case 'ready':
      return PAYMENT_PROGRESS.ready;
    case 'expired':
    case 'failed':
      return 0;
  }
}

/** URI schemes wallets understand for a payment request with an amount (BIP 21 and kin). */
const PAYMENT_URI_SCHEMES: Partial<Record<PaymentCurrency, { scheme: string; amount: string }>> = {
  BTC: { scheme: 'bitcoin', amount: 'amount' },
  LTC: { scheme: 'litecoin', amount: 'amount' },
  BCH: { scheme: 'bitcoincash', amount: 'amount' },
  DOGE: { scheme: 'dogecoin', amount: 'amount' },
  DASH: { scheme: 'dash', amount: 'amount' },
  ZEC: { scheme: 'zcash', amount: 'amount' },
  XMR: { scheme: 'monero', amount: 'tx_amount' },
};

/**
 * What the payment QR code holds: a payment URI with the exact amount where the currency has a
 * common one, else the bare address (the amount is then shown and copied beside it).
 */
export function paymentUri(currency: PaymentCurrency, address: string, amount: string): string {
  const uri = PAYMENT_URI_SCHEMES[currency];
  if (!uri || address.startsWith('sandbox-')) return address;
  return `${uri.scheme}:${address}?${uri.amount}=${amount}`;
}

/** Price of one coin and the smallest amount accepted (spec 001 §3 "Price info"). */
export const CoinPriceSchema = z.object({
  /** USD per coin; null when the feed has not answered (then `fallback` is true). */
  price: z.number().positive().nullable(),
  /** Smallest amount accepted: the cheapest tier at `price`, or the spec's fallback minimum. */
  minAmount: z.number().positive(),
});

/**
 * Where a currency's amounts come from (issue 32): `feed`, this server's price feed; `par`, a
 * stablecoin at one USD; `fallback`, the spec's BTC and ETH fallback minimums; `sandbox`, the
 * sandbox's simulated price table (no real price); `processor`, the processor's own estimate.
 */
export const PriceSourceSchema = z.enum(['feed', 'par', 'fallback', 'sandbox', 'processor']);
export type PriceSource = z.infer<typeof PriceSourceSchema>;

/**
 * Whether a currency can be invoiced right now, and why not (issue 32), so that the picker
 * disables it before the buyer presses anything.
 */
export const CurrencyAvailabilitySchema = z.object({
  currency: PaymentCurrencySchema,
  /** False when no tier can be invoiced in this currency now; `reason` says why. */
  available: z.boolean(),
  reason: z.string().max(200).nullable(),
  /** USD per coin the amounts are worked out from, or null when none is known. */
  priceUsd: z.number().positive().nullable(),
  source: PriceSourceSchema.nullable(),
  /** True when `priceUsd` is a simulated sandbox price, not a market price. */
  simulated: z.boolean(),
  /** The processor's minimum, in coins and its USD worth; null when there is none. */
  minAmount: z.number().positive().nullable(),
  minUsd: z.number().positive().nullable(),
});
export type CurrencyAvailability = z.infer<typeof CurrencyAvailabilitySchema>;

/** `GET /api/crypto/prices` (spec 001 §3, §7; every listed currency: issue 32). */
export const PricesResponseSchema = z.object({
  bitcoin: CoinPriceSchema,
  ethereum: CoinPriceSchema,
  lastUpdated: z.iso.datetime(),
  /** True when the feed failed or timed out and the spec's fallback minimums are served. */
  fallback: z.boolean(),
  /** Every listed currency, in the spec's order, with whether it can be invoiced now. */
  currencies: z.array(CurrencyAvailabilitySchema),
  /** True when any amount shown comes from the sandbox's simulated price table. */
  simulated: z.boolean(),
});
export type PricesResponse = z.infer<typeof PricesResponseSchema>;

/**
 * Whether `usd` can be invoiced in a currency (issue 32): the currency is available and the
 * amount is not below the processor's minimum. The picker and the server decide alike.
 */
export function currencyOffer(
  entry: CurrencyAvailability | undefined,
  usd: number,
): { available: boolean; reason: string | null } {
  if (!entry) return { available: false, reason: PAYMENT_TEXT.priceUnavailable };
  if (!entry.available) return { available: false, reason: entry.reason };
  if (entry.minUsd !== null && usd < entry.minUsd) {
    return { available: false, reason: belowMinimumText(entry.currency, entry.minUsd) };
  }
  return { available: true, reason: null };
}

/** The reason a tier is below the processor's minimum in a currency. */
export function belowMinimumText(currency: PaymentCurrency, minUsd: number): string {
  return `Below the payment processor's minimum for ${currency} (about ${Math.ceil(minUsd)} USD)`;
}

/**
 * `POST /api/crypto/generate-payment` (spec 001 §7): a tier is named by its USD minimum. The
 * buyer names the key before paying (issue 32): the same rule as an admin-issued key's username,
 * and no other key or open payment may hold it (compared without case).
 */
export const GeneratePaymentRequestSchema = z.strictObject({
  currency: PaymentCurrencySchema,
  minAmountUsd: z.number().finite().positive(),
  /** Optional; when present it must name the tier of `minAmountUsd`. */
  tier: TierIdSchema.optional(),
  username: KeyUsernameSchema,
});
export type GeneratePaymentRequest = z.infer<typeof GeneratePaymentRequestSchema>;

/** What the buyer must do to pay, and the local record's fields (spec 001 §3). */
export const GeneratePaymentResponseSchema = z.object({
  paymentId: PaymentIdSchema,
  address: z.string(),
  /** A memo or destination tag some chains need beside the address (XRP, XLM), or null. */
  extraId: z.string().nullable(),
  /** The exact amount to send, as a decimal string. */
  amount: DecimalAmountSchema,
  currency: PaymentCurrencySchema,
  tier: TierIdSchema,
  amountUsd: z.number(),
  requiredConfirmations: z.number().int().positive(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  /** True on the local sandbox chain: no real money moves. */
  sandbox: z.boolean(),
  username: KeyUsernameSchema,
  /** What the buyer's two keys sign to prove they hold them ({@link purchaseKeyChallenge}). */
  keyChallenge: z.string().max(200),
});
export type GeneratePaymentResponse = z.infer<typeof GeneratePaymentResponseSchema>;

export const PaymentIdParamsSchema = z.strictObject({ paymentId: z.string().max(100) });

/**
 * The server's registration receipt of a purchased key: what it registered and when. It holds
 * no key material; the browser saves it beside its own key file.
 */
export const PurchaseReceiptSchema = z.object({
  keyId: KeyIdSchema,
  username: KeyUsernameSchema,
  level: z.enum(['guest', 'observer', 'user']),
  fingerprint: z.string().max(64),
  tier: TierIdSchema,
  paymentRef: z.string().max(16),
  registeredAt: z.iso.datetime(),
  expiresAt: z.iso.datetime().nullable(),
});
export type PurchaseReceipt = z.infer<typeof PurchaseReceiptSchema>;

/** A payment processor's own statuses (NOWPayments' `payment_status`). */
export const PROCESSOR_STATUSES = [
  'waiting',
  'confirming',
  'confirmed',
  'sending',
  'partially_paid',
  'finished',
  'failed',
  'refunded',
  'expired',
] as const;
export const ProcessorStatusSchema = z.enum(PROCESSOR_STATUSES);
export type ProcessorStatus = z.infer<typeof ProcessorStatusSchema>;

/** What the page says for each processor status (issue 32), instead of a confirmation count. */
export const PROCESSOR_STATUS_TEXT: Record<ProcessorStatus, string> = {
  waiting: 'waiting for the payment',
  confirming: 'confirming on the network',
  confirmed: 'confirmed',
  sending: 'sending',
  partially_paid: 'partially paid',
  finished: 'finished',
  failed: 'failed',
  refunded: 'refunded',
  expired: 'expired',
};

/**
 * How far along a processor status is, so that a late or replayed notification never moves the
 * processor's word backwards; the ends (failed, refunded, expired) rank last.
 */
export function processorStatusRank(status: ProcessorStatus): number {
  const order: Record<ProcessorStatus, number> = {
    waiting: 0,
    partially_paid: 1,
    confirming: 2,
    confirmed: 3,
    sending: 4,
    finished: 5,
    failed: 6,
    refunded: 6,
    expired: 6,
  };
  return order[status];
}

/** `GET /api/crypto/payment-status/{paymentId}` (spec 001 §3, §7). */
export const PaymentStatusResponseSchema = z.object({
  paymentId: PaymentIdSchema,
  status: PaymentStatusSchema,
  confirmations: z.number().int().min(0),
  requiredConfirmations: z.number().int().positive(),
  transactionHash: z.string().nullable(),
  address: z.string(),
  extraId: z.string().nullable(),
  amount: DecimalAmountSchema,
  /** What has arrived so far; below `amount` the payment never confirms. Null before anything. */
  paidAmount: DecimalAmountSchema.nullable(),
  currency: PaymentCurrencySchema,
  tier: TierIdSchema,
  expiresAt: z.iso.datetime(),
  keyId: KeyIdSchema.nullable(),
  /** The name the buyer chose; null only for payments opened before names were chosen. */
  username: KeyUsernameSchema.nullable(),
  /** What the buyer's keys sign to prove possession; null for old payments. */
  keyChallenge: z.string().max(200).nullable(),
  /** True once the browser's public key and its proof of possession were accepted. */
  keySubmitted: z.boolean(),
  /** Set once the key is registered (status `ready`). */
  receipt: PurchaseReceiptSchema.nullable(),
  sandbox: z.boolean(),
  /**
   * The processor's own status (issue 32), shown in words: NOWPayments does not count
   * confirmations, so `confirmations` stays 0 until it confirms. Null on the sandbox and before
   * the processor said anything.
   */
  processorStatus: ProcessorStatusSchema.nullable(),
});
export type PaymentStatusResponse = z.infer<typeof PaymentStatusResponseSchema>;

/**
 * What the buyer's two keys sign to prove they hold the private keys of the public part they
 * send (issue 32): the payment's ref (the first 16 hex digits of SHA-256 of the payment id) and a
 * random nonce the server drew for this payment, so the proof is good for this payment only.
 */
export function purchaseKeyChallenge(ref: string, nonce: string): string {
  return `securechannel-key-purchase:${ref}:${nonce}`;
}

const SignatureBytesSchema = (length: number) =>
  z.array(z.number().refine(isByteValue, 'Expected an integer in 0..255')).length(length);

/**
 * `POST /api/crypto/purchase-key`: the public part of the key the buyer's browser made, with
 * both keys' signatures over the payment's `keyChallenge`. Strict: a body that carries a private
 * key is refused (KeyPublicPartSchema has no private fields).
 */
export const PurchaseKeyRequestSchema = z.strictObject({
  paymentId: z.string().max(100),
  publicKey: KeyPublicPartSchema,
  dilithiumSignature: SignatureBytesSchema(ML_DSA_65_SIGNATURE_BYTES),
  ecdsaSignature: SignatureBytesSchema(64),
});
export type PurchaseKeyRequest = z.infer<typeof PurchaseKeyRequestSchema>;

export const PurchaseKeyResponseSchema = z.object({
  keyId: KeyIdSchema,
  accepted: z.literal(true),
});

/** `POST /api/crypto/generate-key` (spec 001 §7). */
export const GenerateKeyRequestSchema = z.strictObject({
  paymentId: z.string().max(100),
  transactionHash: z.string().max(200).nullish(),
});
export type GenerateKeyRequest = z.infer<typeof GenerateKeyRequestSchema>;

/** The key is registered: its receipt (the browser already holds the key file itself). */
export const GenerateKeyResponseSchema = z.object({
  keyId: KeyIdSchema,
  receipt: PurchaseReceiptSchema,
});
export type GenerateKeyResponse = z.infer<typeof GenerateKeyResponseSchema>;

/** The 402 answer of generate-key while the payment is not confirmed (spec 001 §4, §7). */
export const PaymentRequiredResponseSchema = z.object({
  error: z.string(),
  status: PaymentStatusSchema,
  confirmations: z.number().int().min(0),
  requiredConfirmations: z.number().int().positive(),
});
export type PaymentRequiredResponse = z.infer<typeof PaymentRequiredResponseSchema>;

/** `POST /api/crypto/sandbox/pay` (sandbox mode only; DESIGN.md "Payments"). */
export const SandboxPayRequestSchema = z.strictObject({
  paymentId: z.string().max(100),
  amount: z.union([DecimalAmountSchema, z.number().finite().nonnegative()]),
});
export type SandboxPayRequest = z.infer<typeof SandboxPayRequestSchema>;

export const SandboxPayResponseSchema = z.object({
  transactionHash: z.string(),
  paidAmount: DecimalAmountSchema,
  status: PaymentStatusSchema,
});

/**
 * The permission level of a purchased key, by tier. A purchase never confers admin; the levels
 * below admin carry the same capabilities (chat, upload; spec 001 §3), so the tier is recorded
 * in the key's level (docs/decisions.md "Key purchase").
 */
export const TIER_KEY_LEVEL = {
  general: 'guest',
  restricted: 'observer',
  classified: 'user',
} as const satisfies Record<TierId, 'guest' | 'observer' | 'user'>;

/**
 * How this server sells keys (DESIGN.md "Payments", principle 11): `sandbox`, a local simulated
 * chain for development (no real money moves, so anyone can get a key); `nowpayments`, a real
 * processor; `none`, no key sales at all. The default is `sandbox` on a loopback HOST only and
 * `none` on a network address; the operator chooses with PAYMENT_PROVIDER.
 */
export const PaymentModeSchema = z.enum(['sandbox', 'nowpayments', 'none']);
export type PaymentMode = z.infer<typeof PaymentModeSchema>;

/**
 * `GET /api/crypto/availability`: whether this server sells keys, and through what. The only
 * purchase route that answers 200 when purchases are off, so that /get-key can say so before
 * the buyer chooses anything.
 */
export const PurchaseAvailabilitySchema = z.object({
  /** False when `provider` is `none`: every other purchase route answers 503. */
  available: z.boolean(),
  provider: PaymentModeSchema,
});
export type PurchaseAvailability = z.infer<typeof PurchaseAvailabilitySchema>;

/**
 * Answer of the NOWPayments IPN callback. A notification of a state the payment already reached
 * (a replay, or a late one) changes nothing and says so in `note`.
 */
export const IpnResponseSchema = z.object({ ok: z.literal(true), note: z.string().optional() });

/** Texts of the purchase flow: the spec's own (§8) and this product's answers. */
export const PAYMENT_TEXT = {
  failedToGenerate: 'Failed to generate payment',
  keyGenerationFailed: 'Key generation failed',
  exactAmount: 'The exact amount must be sent.',
  unknownCurrency: 'Unknown currency',
  invalidAmount: 'Invalid amount',
  unknownTier: 'Unknown tier: the amount must be 75, 250 or 1000 USD',
  tierMismatch: 'The tier does not match the amount',
  invalidPaymentId: 'Invalid payment id',
  paymentNotFound: 'Payment not found',
  paymentExpired: 'Payment expired',
  paymentFailed: 'Payment failed',
  paymentNotConfirmed: 'Payment not confirmed',
  priceUnavailable: 'No price is available for this currency right now; try again later',
  processorCannotQuote: 'The payment processor does not quote this currency right now',
  aboveEveryTier: "The payment processor's minimum for this currency is above every tier",
  providerUnavailable: 'The payment processor is not available; try again later',
  tooManyPayments: 'Too many payment requests; wait a few minutes',
  keyNotReady: 'The key is not registered yet',
  usernameTaken: 'This username is already taken; choose another',
  invalidUsername:
    'Username must be 1 to 64 printable characters, without leading or trailing spaces',
  keyNotSubmitted:
    'No key was sent for this payment yet: the browser that started the purchase sends it',
  keyAlreadySubmitted: 'A different key was already sent for this payment',
  keyProofInvalid: 'The key could not be accepted: its signatures do not prove possession',
  keyDoesNotMatchOrder:
    'The key does not match the order (username, level or validity differ from what was bought)',
  sandboxOnly: 'Not found',
  alreadyPaid: 'This payment has already been paid',
  invalidSignature: 'Invalid IPN signature',
  unknownProviderPayment: 'Unknown payment',
  ipnNothingChanged: 'The payment already reached this state; nothing changed',
  /** The 503 of every purchase route when the server sells no keys (PAYMENT_PROVIDER none). */
  purchasesUnavailable: 'Key purchases are not available on this server',
} as const;
