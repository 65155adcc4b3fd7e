/**
 * Coin prices in USD from PRICE_FEED_URL, a CoinGecko-style simple-price endpoint
 * (`?ids=bitcoin,ethereum,…&vs_currencies=usd` → `{"bitcoin":{"usd":…},…}`). Read at most once
 * per 60 s (spec 001 §9) and cached; when the feed is unset, fails, times out or answers
 * nonsense, the spec's fallback minimums are served with `fallback: true`. The browser only ever
 * asks this server.
 */
import { z } from 'zod';
import { FALLBACK_MIN_AMOUNT, PRICE_REFRESH_MS, TIER_MIN_USD } from '../../../shared/constants.js';
import type { PaymentCurrency, PricesResponse } from '../../../shared/protocol/http/payments.js';

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

  /** `GET /api/crypto/prices` (spec 001 §3, §7). */
  async prices(): Promise<PricesResponse> {
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
