/**
 * Which listed currencies can be invoiced right now, and why not (issue 32), for
 * `GET /api/crypto/prices` and for generate-payment, which refuses what the picker disables.
 * With the sandbox every currency has a price: the feed's, par, the spec's fallback, or the
 * simulated table. With a processor, its own estimate and minimum for each currency, asked at
 * most once per 60 s (10 s after a failure); a currency it cannot quote is unavailable with the
 * reason.
 */
import { PAYMENT_CURRENCIES, PRICE_REFRESH_MS, TIER_MIN_USD } from '../../../shared/constants.js';
import {
  belowMinimumText,
  PAYMENT_TEXT,
  type CurrencyAvailability,
  type PaymentCurrency,
} from '../../../shared/protocol/http/payments.js';
import { priceFor, type PriceSnapshot } from './price-feed.js';
import { ProviderError, type ProcessorQuote } from './providers/provider.js';

/** After a failed quote the processor is asked again this soon. */
export const FAILED_QUOTE_RETRY_MS = 10_000;
/** Processor calls in flight at once while quoting every currency. */
const QUOTE_CONCURRENCY = 6;
/** The USD amount the processor is asked to estimate: the cheapest tier. */
const QUOTE_USD = TIER_MIN_USD.general;
const MOST_EXPENSIVE_TIER_USD = Math.max(...Object.values(TIER_MIN_USD));

/** Every currency from the sandbox's prices: always available, simulated prices marked. */
export function sandboxAvailability(snapshot: PriceSnapshot): CurrencyAvailability[] {
  return PAYMENT_CURRENCIES.map((currency) => {
    const price = priceFor(currency, snapshot, true);
    return {
      currency,
      available: price !== null,
      reason: price === null ? PAYMENT_TEXT.priceUnavailable : null,
      priceUsd: price?.priceUsd ?? null,
      source: price?.source ?? null,
      simulated: price?.source === 'sandbox',
      minAmount: null,
      minUsd: null,
    };
  });
}

/** One currency from a processor's quote of `usd`, or from its failure. */
export function processorAvailability(
  currency: PaymentCurrency,
  usd: number,
  quote: ProcessorQuote | ProviderError,
): CurrencyAvailability {
  const base = {
    currency,
    priceUsd: null,
    source: null,
    simulated: false,
    minAmount: null,
    minUsd: null,
  };
  if (quote instanceof ProviderError) {
    return {
      ...base,
      available: false,
      reason: quote.unreachable
        ? PAYMENT_TEXT.providerUnavailable
        : PAYMENT_TEXT.processorCannotQuote,
    };
  }
  const priceUsd = usd / quote.amount;
  const minUsd = quote.minAmount === null ? null : quote.minAmount * priceUsd;
  const aboveEveryTier = minUsd !== null && minUsd > MOST_EXPENSIVE_TIER_USD;
  return {
    ...base,
    available: !aboveEveryTier,
    reason: aboveEveryTier ? belowMinimumText(currency, minUsd) : null,
    priceUsd,
    source: 'processor',
    minAmount: quote.minAmount,
    minUsd,
  };
}

interface CachedQuote {
  entry: CurrencyAvailability;
  until: number;
}

/** The processor's quotes of every currency, cached. */
export class ProcessorQuotes {
  private readonly cache = new Map<PaymentCurrency, CachedQuote>();
  private inFlight: Promise<CurrencyAvailability[]> | null = null;

  constructor(
    private readonly quote: (currency: PaymentCurrency, usd: number) => Promise<ProcessorQuote>,
    private readonly now: () => number,
  ) {}

  /** Every currency, asking the processor again only for entries that are due. */
  async list(): Promise<CurrencyAvailability[]> {
    const now = this.now();
    if (PAYMENT_CURRENCIES.every((currency) => (this.cache.get(currency)?.until ?? 0) > now)) {
      return PAYMENT_CURRENCIES.map((currency) => this.cache.get(currency)!.entry);
    }
    // Concurrent callers share one round of requests to the processor.
    this.inFlight ??= this.refresh(now).finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async refresh(now: number): Promise<CurrencyAvailability[]> {
    const due = PAYMENT_CURRENCIES.filter(
      (currency) => (this.cache.get(currency)?.until ?? 0) <= now,
    );
    for (let start = 0; start < due.length; start += QUOTE_CONCURRENCY) {
      await Promise.all(
        due.slice(start, start + QUOTE_CONCURRENCY).map(async (currency) => {
          let quote: ProcessorQuote | ProviderError;
          try {
            quote = await this.quote(currency, QUOTE_USD);
          } catch (error) {
            if (!(error instanceof ProviderError)) throw error;
            quote = error;
          }
          const entry = processorAvailability(currency, QUOTE_USD, quote);
          const ttl = quote instanceof ProviderError ? FAILED_QUOTE_RETRY_MS : PRICE_REFRESH_MS;
          this.cache.set(currency, { entry, until: now + ttl });
        }),
      );
    }
    return PAYMENT_CURRENCIES.map((currency) => this.cache.get(currency)!.entry);
  }
}
