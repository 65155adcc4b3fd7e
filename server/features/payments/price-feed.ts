/**
 * Coin prices in USD from PRICE_FEED_URL, a CoinGecko-style simple-price endpoint
 * (`?ids=bitcoin,ethereum,…&vs_currencies=usd` → `{"bitcoin":{"usd":…},…}`). Read at most once
 * per 60 s (spec 001 §9) and cached; when the feed is unset, fails, times out or answers
 * nonsense, the spec's fallback minimums are served with `fallback: true`. The browser only ever
 * asks this server.
 */
import { z } from 'zod';
import { FALLBACK_MIN_AMOUNT, PRICE_REFRESH_MS, TIER_MIN_USD } from '../../../shared/constants.js';
import type {
  PaymentCurrency,
  PriceSource,
  PricesResponse,
} from '../../../shared/protocol/http/payments.js';

/** The feed's id of each currency (CoinGecko's ids). */
export const PRICE_FEED_IDS: Record<PaymentCurrency, string> = {
  BTC: 'bitcoin',
  ETH: 'ethereum',
  USDT: 'tether',
  ADA: 'cardano',
  ATOM: 'cosmos',
  AVAX: 'avalanche-2',
  BCH: 'bitcoin-cash',
  BNB: 'binancecoin',
  DASH: 'dash',
  DOGE: 'dogecoin',
  DOT: 'polkadot',
  ETC: 'ethereum-classic',
  FIL: 'filecoin',
  LINK: 'chainlink',
  LTC: 'litecoin',
  MATIC: 'matic-network',
  NEAR: 'near',
  SHIB: 'shiba-inu',
  SOL: 'solana',
  TRX: 'tron',
  UNI: 'uniswap',
  USDC: 'usd-coin',
  XLM: 'stellar',
  XMR: 'monero',
  XRP: 'ripple',
  ZEC: 'zcash',
};

/**
 * The sandbox's price table (issue 32): simulated USD prices, so that every listed currency can
 * be invoiced on the local chain without a price feed. Not market prices: the prices answer marks
 * them `source: 'sandbox'`, `simulated: true`, and the picker says so. BTC and ETH are the spec's
 * fallback minimums (0.0005 BTC, 0.0143 ETH for 75 USD), stablecoins are at par.
 */
export const SANDBOX_PRICES_USD: Record<PaymentCurrency, number> = {
  BTC: TIER_MIN_USD.general / FALLBACK_MIN_AMOUNT.BTC,
  ETH: TIER_MIN_USD.general / FALLBACK_MIN_AMOUNT.ETH,
  USDT: 1,
  ADA: 0.5,
  ATOM: 8,
  AVAX: 30,
  BCH: 400,
  BNB: 600,
  DASH: 30,
  DOGE: 0.15,
  DOT: 6,
  ETC: 25,
  FIL: 5,
  LINK: 15,
  LTC: 80,
  MATIC: 0.5,
  NEAR: 5,
  SHIB: 0.00002,
  SOL: 150,
  TRX: 0.12,
  UNI: 8,
  USDC: 1,
  XLM: 0.1,
  XMR: 150,
  XRP: 0.5,
  ZEC: 40,
};

/** Stablecoins priced at one USD: the USDT minimum equals the USD amount (spec 001 §9). */
const USD_STABLECOINS = new Set<PaymentCurrency>(['USDT', 'USDC']);

/**
 * The USD price a currency's amounts are worked out from, and where it comes from: the feed,
 * par for stablecoins, the spec's fallback minimums for BTC and ETH, and, when `sandbox` is
 * true, the simulated table for the rest; null when none is known.
 */
export function priceFor(
  currency: PaymentCurrency,
  snapshot: PriceSnapshot,
  sandbox: boolean,
): { priceUsd: number; source: PriceSource } | null {
  if (USD_STABLECOINS.has(currency)) return { priceUsd: 1, source: 'par' };
  const fed = snapshot.prices.get(currency);
  if (fed !== undefined) return { priceUsd: fed, source: 'feed' };
  if (currency === 'BTC' || currency === 'ETH') {
    return { priceUsd: TIER_MIN_USD.general / FALLBACK_MIN_AMOUNT[currency], source: 'fallback' };
  }
  return sandbox ? { priceUsd: SANDBOX_PRICES_USD[currency], source: 'sandbox' } : null;
}

const FeedAnswerSchema = z.record(
  z.string(),
  z.looseObject({ usd: z.number().positive().finite().optional() }),
);

/** How long one feed request may take before the fallback is served. */
export const PRICE_FEED_TIMEOUT_MS = 5000;

/** A price snapshot: USD per coin for the currencies the feed answered. */
export interface PriceSnapshot {
  prices: Map<PaymentCurrency, number>;
  lastUpdated: number;
  fallback: boolean;
}

export interface PriceFeedOptions {
  url: string | null;
  now: () => number;
  timeoutMs?: number;
}

export class PriceFeed {
  private snapshot: PriceSnapshot | null = null;
  private inFlight: Promise<PriceSnapshot> | null = null;

  constructor(private readonly options: PriceFeedOptions) {}

  /** The cached snapshot, refreshed first when it is 60 s old or more. */
  async current(): Promise<PriceSnapshot> {
    const now = this.options.now();
    if (this.snapshot && now - this.snapshot.lastUpdated < PRICE_REFRESH_MS) return this.snapshot;
    // Concurrent callers share one request to the feed.
    this.inFlight ??= this.read().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  /** The spec's BTC and ETH part of `GET /api/crypto/prices` (spec 001 §3, §7). */
  async prices(): Promise<Omit<PricesResponse, 'currencies' | 'simulated'>> {
    const snapshot = await this.current();
    const coin = (currency: 'BTC' | 'ETH') => {
      const price = snapshot.prices.get(currency);
      return price === undefined
        ? { price: null, minAmount: FALLBACK_MIN_AMOUNT[currency] }
        : { price, minAmount: TIER_MIN_USD.general / price };
    };
    const bitcoin = coin('BTC');
    const ethereum = coin('ETH');
    return {
      bitcoin,
      ethereum,
      lastUpdated: new Date(snapshot.lastUpdated).toISOString(),
      fallback: snapshot.fallback || bitcoin.price === null || ethereum.price === null,
    };
  }

  private async read(): Promise<PriceSnapshot> {
    const now = this.options.now();
    const fallback: PriceSnapshot = { prices: new Map(), lastUpdated: now, fallback: true };
    if (!this.options.url) {
      this.snapshot = fallback;
      return fallback;
    }
    try {
      const url = new URL(this.options.url);
      url.searchParams.set('ids', Object.values(PRICE_FEED_IDS).join(','));
      url.searchParams.set('vs_currencies', 'usd');
      const response = await fetch(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? PRICE_FEED_TIMEOUT_MS),
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`price feed answered ${response.status}`);
      }
      const parsed = FeedAnswerSchema.parse(await response.json());
      const prices = new Map<PaymentCurrency, number>();
      for (const [currency, id] of Object.entries(PRICE_FEED_IDS) as [PaymentCurrency, string][]) {
        const usd = parsed[id]?.usd;
        if (usd !== undefined) prices.set(currency, usd);
      }
      this.snapshot = { prices, lastUpdated: now, fallback: prices.size === 0 };
    } catch {
      // Unreachable, slow, or nonsense: serve the fallback until the next refresh.
      this.snapshot = fallback;
    }
    return this.snapshot;
  }
}
