/**
 * The key purchase (spec 001 §3, §4, §7; DESIGN.md "Payments"): invoices, the payment state
 * machine, exactly-once key generation and the one-time download. No Fastify and no SQL: the
 * routes call this, and it keeps its rows through a PaymentStore.
 */
import { randomBytes } from 'node:crypto';
import {
  DEFAULT_KEY_VALIDITY_DAYS,
  PAYMENT_SESSION_TTL_MS,
  TIER_MIN_USD,
} from '../../../shared/constants.js';
import {
  verifyChallengeSignatures,
  verifyKeyFileIntegrity,
} from '../../../shared/crypto/key-file.js';
import {
  KeyPublicPartSchema,
  KeyUsernameSchema,
  type KeyPublicPart,
} from '../../../shared/crypto/key-file-schema.js';
import {
  GeneratePaymentRequestSchema,
  PAYMENT_TEXT,
  PaymentCurrencySchema,
  PaymentIdSchema,
  purchaseKeyChallenge,
  PurchaseKeyRequestSchema,
  requiredConfirmations,
  processorStatusRank,
  ProcessorStatusSchema,
  TIER_KEY_LEVEL,
  tierForAmount,
  type ProcessorStatus,
  currencyOffer,
  type CurrencyAvailability,
  type PricesResponse,
  type GenerateKeyResponse,
  type GeneratePaymentResponse,
  type PaymentCurrency,
  type PaymentMode,
  type PaymentStatus,
  type PaymentStatusResponse,
  type PurchaseReceipt,
  type TierId,
} from '../../../shared/protocol/http/payments.js';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../errors.js';
import type { RateLimiter } from '../../lib/rate-limiter.js';
import { formatDecimal, numberToDecimal, parseDecimal, quoteAmount } from './decimal.js';
import { newKeyChallengeNonce, newPaymentId, paymentIdHash, paymentRef } from './payment-id.js';
import { ProcessorQuotes, sandboxAvailability } from './currencies.js';
import { priceFor, type PriceFeed, type PriceSnapshot } from './price-feed.js';
import {
  ProviderError,
  type ChainObservation,
  type PaymentProvider,
} from './providers/provider.js';
import { SandboxProvider } from './providers/sandbox.js';
import type { PaymentRow, PaymentStore } from './store.js';

/** Decimal places an invoice is written with; 8 unless the currency's unit is coarser. */
const INVOICE_DECIMALS: Partial<Record<PaymentCurrency, number>> = {
  USDT: 2,
  USDC: 2,
  ADA: 6,
  TRX: 6,
  XRP: 6,
  XLM: 7,
};
/** A generation claim older than this is taken over (its process died mid-generation). */
export const GENERATION_STALE_MS = 60_000;
/** How long a request waits for a generation another request claimed. */
const GENERATION_WAIT_MS = 15_000;
const GENERATION_POLL_MS = 100;
const DAY_MS = 24 * 60 * 60 * 1000;
/** How far a browser's clock may be from the server's when it dates a purchased key. */
const KEY_CLOCK_SKEW_MS = DAY_MS;

/** The 402 answer of generate-key (spec 001 §4, §7), carried to the route. */
export class PaymentRequiredError extends AppError {
  constructor(
    readonly paymentStatus: PaymentStatus,
    readonly confirmations: number,
    readonly requiredConfirmations: number,
  ) {
    super('PAYMENT_REQUIRED', 402, PAYMENT_TEXT.paymentNotConfirmed);
  }
}

/** What the admin audit log records of a purchase: never the payment id, never key material. */
export interface PurchaseRecord {
  paymentRef: string;
  tier: TierId;
  keyId: string;
  currency: string;
  amount: string;
  level: string;
}

export interface PaymentServiceDeps {
  store: PaymentStore;
  /** Null when the server sells no keys (PAYMENT_PROVIDER none): every purchase call is refused. */
  provider: PaymentProvider | null;
  prices: PriceFeed;
  now: () => number;
  /** Payments one address may open per window (flood limit). */
  perAddress: RateLimiter;
  /** Payments everyone together may open per window. */
  global: RateLimiter;
  /** Registers a purchased key's public part in the given database handle (a transaction). */
  registerKey: (db: Db, key: KeyPublicPart) => Promise<void>;
  onKeyIssued: (record: PurchaseRecord) => Promise<void>;
  /** Logs without secrets: the payment's ref, never its id. */
  log: (event: string, detail: Record<string, unknown>) => void;
}

export class PaymentService {
  /** The processor's quotes of every currency; null when amounts come from the price feed. */
  private readonly quotes: ProcessorQuotes | null;

  constructor(private readonly deps: PaymentServiceDeps) {
    const provider = deps.provider;
    this.quotes = provider?.quote
      ? new ProcessorQuotes(provider.quote.bind(provider), deps.now)
      : null;
  }

  /**
   * `GET /api/crypto/prices`: the spec's BTC and ETH prices, and every listed currency with
   * whether it can be invoiced now and why not (issue 32).
   */
  async prices(): Promise<PricesResponse> {
    this.activeProvider();
    const spec = await this.deps.prices.prices();
    const currencies = await this.currencies();
    return { ...spec, currencies, simulated: currencies.some((entry) => entry.simulated) };
  }

  private async currencies(): Promise<CurrencyAvailability[]> {
    if (this.quotes) return this.quotes.list();
    return sandboxAvailability(await this.deps.prices.current());
  }

  get isSandbox(): boolean {
    return this.deps.provider?.name === 'sandbox';
  }

  /** How this server sells keys: its provider's name, or `none`. */
  get mode(): PaymentMode {
    return this.deps.provider?.name ?? 'none';
  }

  /**
   * The provider, or the 503 every purchase call answers when the server sells no keys: nothing
   * is read, stored, minted or registered then (issue 31).
   */
  private activeProvider(): PaymentProvider {
    const provider = this.deps.provider;
    if (!provider) {
      throw new AppError('PURCHASES_UNAVAILABLE', 503, PAYMENT_TEXT.purchasesUnavailable);
    }
    return provider;
  }

  private date(): Date {
    return new Date(this.deps.now());
  }

  /** `POST /api/crypto/generate-payment`: an invoice for a tier in a currency. */
  async createPayment(body: unknown, address: string): Promise<GeneratePaymentResponse> {
    const provider = this.activeProvider();
    const request = this.parsePaymentRequest(body);
    const tier = tierForAmount(request.minAmountUsd);
    if (tier === null) throw new AppError('UNKNOWN_TIER', 400, PAYMENT_TEXT.unknownTier);
    if (request.tier !== undefined && request.tier !== tier) {
      throw new AppError('TIER_MISMATCH', 400, PAYMENT_TEXT.tierMismatch);
    }
    // Counted before any work, per address and for everyone (DESIGN.md principle 7).
    if (!(await this.deps.perAddress.hit(address)) || !(await this.deps.global.hit('all'))) {
      throw new AppError('RATE_LIMITED', 429, PAYMENT_TEXT.tooManyPayments);
    }
    const currency = request.currency;
    const amountUsd = TIER_MIN_USD[tier];
    const username = request.username;
    if (await this.deps.store.isUsernameTaken(username)) {
      throw new AppError('USERNAME_TAKEN', 409, PAYMENT_TEXT.usernameTaken);
    }
    // What the picker disables is refused here too, with the same reason.
    const offer = currencyOffer(
      (await this.currencies()).find((entry) => entry.currency === currency),
      amountUsd,
    );
    if (!offer.available) {
      throw new AppError(
        'CURRENCY_UNAVAILABLE',
        409,
        offer.reason ?? PAYMENT_TEXT.priceUnavailable,
      );
    }
    let quote: string | null = null;
    if (provider.usesPriceFeed) {
      quote = quoteFor(currency, amountUsd, await this.deps.prices.current());
      if (quote === null)
        throw new AppError('PRICE_UNAVAILABLE', 503, PAYMENT_TEXT.priceUnavailable);
    }
    const paymentId = newPaymentId();
    const idHash = paymentIdHash(paymentId);
    const ref = paymentRef(idHash);
    let invoice;
    try {
      invoice = await provider.createInvoice({ ref, tier, currency, amountUsd, quote });
    } catch (error) {
      if (error instanceof ProviderError) {
        this.deps.log('payment processor failed', { ref, reason: error.message });
        throw new AppError('PROVIDER_UNAVAILABLE', 502, PAYMENT_TEXT.providerUnavailable, {
          cause: error,
        });
      }
      throw error;
    }
    const now = this.date();
    const expiresAt = new Date(now.getTime() + PAYMENT_SESSION_TTL_MS);
    const required = requiredConfirmations(currency);
    const nonce = newKeyChallengeNonce();
    const inserted = await this.deps.store.insert({
      idHash,
      ref,
      provider: provider.name,
      providerRef: invoice.providerRef,
      tier,
      amountUsd,
      currency,
      address: invoice.address,
      extraId: invoice.extraId,
      amount: invoice.amount,
      status: 'pending',
      confirmations: 0,
      requiredConfirmations: required,
      createdAt: now,
      expiresAt,
      updatedAt: now,
      username,
      keyChallenge: nonce,
    });
    // Another open payment took the name between the check and the insert.
    if (!inserted) throw new AppError('USERNAME_TAKEN', 409, PAYMENT_TEXT.usernameTaken);
    this.deps.log('payment created', { ref, tier, currency });
    return {
      paymentId,
      address: invoice.address,
      extraId: invoice.extraId,
      amount: invoice.amount,
      currency,
      tier,
      amountUsd,
      requiredConfirmations: required,
      createdAt: now.toISOString(),
      expiresAt: expiresAt.toISOString(),
      sandbox: this.isSandbox,
      username,
      keyChallenge: purchaseKeyChallenge(ref, nonce),
    };
  }

  /**
   * `POST /api/crypto/purchase-key`: the public part of the key the buyer's browser made, kept
   * with the payment until it is confirmed. Accepted only with both keys' signatures over the
   * payment's challenge, for the username, level and validity the buyer paid for, once per
   * payment (sending the same key again is answered the same).
   */
  async submitKey(body: unknown): Promise<{ keyId: string; accepted: true }> {
    this.activeProvider();
    const parsed = PurchaseKeyRequestSchema.safeParse(body);
    if (!parsed.success) {
      const record =
        typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
      if (!PaymentIdSchema.safeParse(record.paymentId).success) {
        throw new AppError('INVALID_PAYMENT_ID', 400, PAYMENT_TEXT.invalidPaymentId);
      }
      throw new AppError('INVALID_KEY', 400, PAYMENT_TEXT.keyProofInvalid);
    }
    const request = parsed.data;
    const row = await this.refresh(request.paymentId);
    const key = request.publicKey;
    if (row.publicKey !== null) {
      if (row.keyId === key.keyId) return { keyId: key.keyId, accepted: true };
      throw new AppError('KEY_ALREADY_SUBMITTED', 409, PAYMENT_TEXT.keyAlreadySubmitted);
    }
    if (row.status === 'expired') {
      throw new AppError('PAYMENT_EXPIRED', 410, PAYMENT_TEXT.paymentExpired);
    }
    if (row.status === 'failed') {
      throw new AppError('PAYMENT_FAILED', 410, PAYMENT_TEXT.paymentFailed);
    }
    if (!this.matchesOrder(row, key)) {
      throw new AppError('KEY_MISMATCH', 400, PAYMENT_TEXT.keyDoesNotMatchOrder);
    }
    const challenge = row.keyChallenge ? purchaseKeyChallenge(row.ref, row.keyChallenge) : null;
    const proven =
      challenge !== null &&
      (await verifyKeyFileIntegrity(key)).ok &&
      (await verifyChallengeSignatures({
        challenge,
        dilithiumSignature: request.dilithiumSignature,
        ecdsaSignature: request.ecdsaSignature,
        dilithiumPublicKey: key.dilithiumPublicKey,
        ecdsaPublicKey: key.ecdsaPublicKey,
      }));
    if (!proven) throw new AppError('KEY_PROOF_INVALID', 400, PAYMENT_TEXT.keyProofInvalid);
    if (await this.deps.store.isKeyRegistered(key.keyId, key.fingerprint)) {
      throw new AppError('KEY_EXISTS', 409, PAYMENT_TEXT.keyAlreadySubmitted);
    }
    const stored = KeyPublicPartSchema.parse(key);
    if (
      !(await this.deps.store.recordPublicKey(
        row.idHash,
        key.keyId,
        JSON.stringify(stored),
        this.date(),
      ))
    ) {
      throw new AppError('KEY_ALREADY_SUBMITTED', 409, PAYMENT_TEXT.keyAlreadySubmitted);
    }
    this.deps.log('purchased public key received', { ref: row.ref, keyId: key.keyId });
    return { keyId: key.keyId, accepted: true };
  }

  /** The key is the one bought: the chosen name, the tier's level, dated now, at most 365 days. */
  private matchesOrder(row: PaymentRow, key: KeyPublicPart): boolean {
    if (row.username === null || key.username !== row.username) return false;
    if (key.permissions.level !== TIER_KEY_LEVEL[row.tier]) return false;
    if (!key.permissions.rooms.includes('all')) return false;
    const now = this.deps.now();
    const issued = Date.parse(key.permissions.issued);
    const expiresText = key.permissions.expires ?? key.expires ?? null;
    if (expiresText === null) return false;
    const expires = Date.parse(expiresText);
    return (
      Math.abs(issued - now) <= KEY_CLOCK_SKEW_MS &&
      expires > issued &&
      expires - issued <= DEFAULT_KEY_VALIDITY_DAYS * DAY_MS + KEY_CLOCK_SKEW_MS
    );
  }

  /** `GET /api/crypto/payment-status/{paymentId}`. */
  async status(paymentId: string): Promise<PaymentStatusResponse> {
    const row = await this.refresh(paymentId);
    return this.describe(paymentId, row);
  }

  /**
   * `POST /api/crypto/generate-key`: the key, made exactly once per payment. Every caller of a
   * confirmed payment gets the same keyId; while the payment is not confirmed, a 402.
   */
  async generateKey(paymentId: string): Promise<GenerateKeyResponse> {
    this.activeProvider();
    const deadline = Date.now() + GENERATION_WAIT_MS;
    for (;;) {
      const row = await this.refresh(paymentId);
      switch (row.status) {
        case 'pending':
        case 'confirming':
          throw new PaymentRequiredError(row.status, row.confirmations, row.requiredConfirmations);
        case 'expired':
          throw new AppError('PAYMENT_EXPIRED', 410, PAYMENT_TEXT.paymentExpired);
        case 'failed':
          throw new AppError('PAYMENT_FAILED', 410, PAYMENT_TEXT.paymentFailed);
        case 'ready':
          return { keyId: row.keyId!, receipt: receiptOf(row)! };
        case 'confirmed':
        case 'generating': {
          if (row.publicKey === null) {
            throw new AppError('KEY_NOT_SUBMITTED', 409, PAYMENT_TEXT.keyNotSubmitted);
          }
          const claim = randomBytes(16).toString('hex');
          const now = this.date();
          const staleBefore = new Date(now.getTime() - GENERATION_STALE_MS);
          if (await this.deps.store.claimGeneration(row.idHash, claim, now, staleBefore)) {
            return this.generate(paymentId, row, claim);
          }
          // Another request (another tab, another process) is making the key: wait for it.
          if (Date.now() > deadline) {
            throw new AppError('GENERATION_BUSY', 409, PAYMENT_TEXT.keyNotReady);
          }
          await new Promise((resolve) => setTimeout(resolve, GENERATION_POLL_MS));
        }
      }
    }
  }

  /** `POST /api/crypto/sandbox/pay`: broadcasts an amount on the sandbox chain. */
  async sandboxPay(
    paymentId: string,
    amount: string | number,
  ): Promise<{ transactionHash: string; paidAmount: string; status: PaymentStatus }> {
    if (!this.isSandbox) throw new AppError('NOT_FOUND', 404, PAYMENT_TEXT.sandboxOnly);
    const row = await this.refresh(paymentId);
    if (row.status === 'expired') {
      throw new AppError('PAYMENT_EXPIRED', 410, PAYMENT_TEXT.paymentExpired);
    }
    if (row.status !== 'pending') {
      throw new AppError('ALREADY_PAID', 409, PAYMENT_TEXT.alreadyPaid);
    }
    const text = typeof amount === 'number' ? numberToDecimal(amount) : amount;
    const sent = text === null ? null : parseDecimal(text);
    if (sent === null || sent <= 0n) {
      throw new AppError('INVALID_AMOUNT', 400, PAYMENT_TEXT.invalidAmount);
    }
    // Amounts on the sandbox chain add up, as two transactions to one address would.
    const total = (row.paidAmount ? (parseDecimal(row.paidAmount) ?? 0n) : 0n) + sent;
    const isFull = total >= (parseDecimal(row.amount) ?? 0n);
    const transactionHash = SandboxProvider.transactionHash();
    const now = this.date();
    const paidAmount = trimDecimal(formatDecimal(total));
    const updated = await this.deps.store.recordSandboxPayment(
      row.idHash,
      {
        previousPaid: row.paidAmount,
        paidAmount,
        transactionHash,
        broadcastAt: isFull ? now : null,
        status: isFull ? 'confirming' : 'pending',
      },
      now,
    );
    if (!updated) throw new AppError('ALREADY_PAID', 409, PAYMENT_TEXT.alreadyPaid);
    this.deps.log('sandbox payment broadcast', { ref: row.ref, isFull });
    return { transactionHash, paidAmount, status: updated.status };
  }

  /**
   * A processor's notification (already authenticated by the route): applied forward only.
   * `unchanged` when the payment already reached that state (a replayed or late notification):
   * nothing is written then. Null for a payment this server does not know.
   */
  async applyProviderUpdate(
    providerRef: string,
    observation: ChainObservation,
  ): Promise<'applied' | 'unchanged' | null> {
    const row = await this.deps.store.findByProviderRef(this.activeProvider().name, providerRef);
    if (!row) return null;
    const now = this.date();
    const isNews =
      observation.status !== row.status ||
      (observation.paidAmount !== null && observation.paidAmount !== row.paidAmount) ||
      (observation.transactionHash !== null && observation.transactionHash !== row.transactionHash);
    let applied =
      isNews &&
      (await this.deps.store.applyObservation(row.idHash, this.complete(row, observation), now)) !==
        null;
    // Our status no longer follows the processor once confirmed; its own word still moves on.
    const word = observation.providerStatus;
    if (!applied && word && this.isLaterProcessorStatus(row.providerStatus, word)) {
      applied = await this.deps.store.recordProviderStatus(
        row.idHash,
        row.providerStatus,
        word,
        now,
      );
    }
    this.deps.log('payment notification', { ref: row.ref, status: observation.status, applied });
    return applied ? 'applied' : 'unchanged';
  }

  private isLaterProcessorStatus(previous: string | null, next: ProcessorStatus): boolean {
    const known = ProcessorStatusSchema.safeParse(previous);
    return !known.success || processorStatusRank(next) > processorStatusRank(known.data);
  }

  /** Housekeeping: expire unpaid invoices, drop old ended rows. */
  async sweep(): Promise<void> {
    const now = this.date();
    await this.deps.store.expireDue(now, now);
    await this.deps.store.deleteEnded(new Date(now.getTime() - 30 * 24 * 60 * 60 * 1000));
  }

  private parsePaymentRequest(body: unknown) {
    const parsed = GeneratePaymentRequestSchema.safeParse(body);
    if (parsed.success) return parsed.data;
    const record =
      typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    if (!PaymentCurrencySchema.safeParse(record.currency).success) {
      throw new AppError('UNKNOWN_CURRENCY', 400, PAYMENT_TEXT.unknownCurrency);
    }
    if (
      typeof record.minAmountUsd !== 'number' ||
      !Number.isFinite(record.minAmountUsd) ||
      record.minAmountUsd <= 0
    ) {
      throw new AppError('INVALID_AMOUNT', 400, PAYMENT_TEXT.invalidAmount);
    }
    if (tierForAmount(record.minAmountUsd) === null) {
      throw new AppError('UNKNOWN_TIER', 400, PAYMENT_TEXT.unknownTier);
    }
    if (!KeyUsernameSchema.safeParse(record.username).success) {
      throw new AppError('INVALID_USERNAME', 400, PAYMENT_TEXT.invalidUsername);
    }
    throw new AppError('UNKNOWN_TIER', 400, PAYMENT_TEXT.unknownTier);
  }

  private parseId(paymentId: string): string {
    const parsed = PaymentIdSchema.safeParse(paymentId);
    if (!parsed.success)
      throw new AppError('INVALID_PAYMENT_ID', 400, PAYMENT_TEXT.invalidPaymentId);
    return parsed.data;
  }

  /** The row, brought up to date with the chain and the clock. */
  private async refresh(paymentId: string): Promise<PaymentRow> {
    const provider = this.activeProvider();
    const idHash = paymentIdHash(this.parseId(paymentId));
    let row = await this.deps.store.find(idHash);
    // A payment opened under another provider (the sandbox, before the operator chose a
    // processor) is not this server's business any more: it never yields a key here.
    if (!row || row.provider !== provider.name)
      throw new AppError('PAYMENT_NOT_FOUND', 404, PAYMENT_TEXT.paymentNotFound);
    if (row.status !== 'pending' && row.status !== 'confirming') return row;
    const nowMs = this.deps.now();
    const now = new Date(nowMs);
    let observation: ChainObservation | null = null;
    try {
      observation = await provider.observe(row, nowMs);
    } catch (error) {
      // The processor is down: show what is known; the next poll asks again.
      if (!(error instanceof ProviderError)) throw error;
      this.deps.log('payment processor failed', { ref: row.ref, reason: error.message });
    }
    if (observation && this.changes(row, observation)) {
      row =
        (await this.deps.store.applyObservation(idHash, this.complete(row, observation), now)) ??
        (await this.deps.store.find(idHash)) ??
        row;
    }
    if (row.status === 'pending' && row.expiresAt <= now) {
      row = (await this.deps.store.expireIfDue(idHash, now)) ?? row;
    }
    return row;
  }

  /** True when an observation would change the row (the processor's polls are always kept). */
  private changes(row: PaymentRow, observation: ChainObservation): boolean {
    return (
      !this.isSandbox ||
      observation.status !== row.status ||
      observation.confirmations !== row.confirmations
    );
  }

  /** A processor that does not count confirmations reports the required count once confirmed. */
  private complete(row: PaymentRow, observation: ChainObservation): ChainObservation {
    return observation.status === 'confirmed'
      ? { ...observation, confirmations: row.requiredConfirmations }
      : observation;
  }

  private describe(paymentId: string, row: PaymentRow): PaymentStatusResponse {
    const now = this.deps.now();
    // A generation whose process died is offered again: the next generate-key takes it over.
    const isStaleGeneration =
      row.status === 'generating' &&
      row.generationStartedAt !== null &&
      now - row.generationStartedAt.getTime() >= GENERATION_STALE_MS;
    return {
      paymentId,
      status: isStaleGeneration ? 'confirmed' : row.status,
      confirmations: row.confirmations,
      requiredConfirmations: row.requiredConfirmations,
      transactionHash: row.transactionHash,
      address: row.address,
      extraId: row.extraId,
      amount: row.amount,
      paidAmount: row.paidAmount,
      currency: PaymentCurrencySchema.parse(row.currency),
      tier: row.tier,
      expiresAt: row.expiresAt.toISOString(),
      keyId: row.keyId,
      username: row.username,
      keyChallenge: row.keyChallenge ? purchaseKeyChallenge(row.ref, row.keyChallenge) : null,
      keySubmitted: row.publicKey !== null,
      receipt: receiptOf(row),
      sandbox: row.provider === 'sandbox',
      processorStatus: ProcessorStatusSchema.safeParse(row.providerStatus).data ?? null,
    };
  }

  /** Registers the buyer's key for a payment this request has claimed, or hands the claim back. */
  private async generate(
    paymentId: string,
    row: PaymentRow,
    claim: string,
  ): Promise<GenerateKeyResponse> {
    const level = TIER_KEY_LEVEL[row.tier];
    try {
      const key = KeyPublicPartSchema.parse(JSON.parse(row.publicKey ?? 'null'));
      const done = await this.deps.store.completeGeneration(row.idHash, claim, this.date(), (db) =>
        this.deps.registerKey(db, key),
      );
      if (!done) return this.generateKey(paymentId);
      await this.deps.onKeyIssued({
        paymentRef: row.ref,
        tier: row.tier,
        keyId: key.keyId,
        currency: row.currency,
        amount: row.amount,
        level,
      });
      this.deps.log('purchased key registered', { ref: row.ref, keyId: key.keyId, level });
      const ready = await this.deps.store.find(row.idHash);
      return { keyId: key.keyId, receipt: receiptOf(ready ?? row)! };
    } catch (error) {
      // Spec 001 §4: a failed generation returns the payment to confirmed.
      await this.deps.store.releaseGeneration(row.idHash, claim, this.date());
      this.deps.log('key registration failed', {
        ref: row.ref,
        error: error instanceof Error ? error.name : 'unknown',
      });
      throw new AppError('KEY_GENERATION_FAILED', 500, PAYMENT_TEXT.keyGenerationFailed, {
        cause: error,
      });
    }
  }
}

/** The registration receipt of a ready payment: what was registered, no key material. */
function receiptOf(row: PaymentRow): PurchaseReceipt | null {
  if (row.status !== 'ready' || row.publicKey === null) return null;
  const key = KeyPublicPartSchema.safeParse(JSON.parse(row.publicKey));
  if (!key.success) return null;
  const expires = key.data.permissions.expires ?? key.data.expires ?? null;
  return {
    keyId: key.data.keyId,
    username: KeyUsernameSchema.parse(key.data.username),
    level: TIER_KEY_LEVEL[row.tier],
    fingerprint: key.data.fingerprint,
    tier: row.tier,
    paymentRef: row.ref,
    registeredAt: (row.keyReadyAt ?? row.updatedAt).toISOString(),
    expiresAt: expires ? new Date(expires).toISOString() : null,
  };
}

function trimDecimal(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/**
 * The amount to invoice for `usd` in `currency` on the sandbox chain: from the feed's price,
 * stablecoins at par, BTC and ETH at the spec's fallback minimums scaled from the cheapest tier,
 * the rest from the sandbox's simulated table (issue 32); rounded up.
 */
export function quoteFor(
  currency: PaymentCurrency,
  usd: number,
  snapshot: PriceSnapshot,
): string | null {
  const price = priceFor(currency, snapshot, true);
  return price === null ? null : quoteAmount(usd, price.priceUsd, INVOICE_DECIMALS[currency] ?? 8);
}
