/**
 * The payments feature: key purchase with cryptocurrency (spec 001 §2–§9; DESIGN.md
 * "Payments"). Chooses the provider from the configuration, and owns the price feed, the
 * payment state machine and the purchase routes.
 */
import type { KeyPublicPart } from '../../../shared/crypto/key-file-schema.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/connect.js';
import type { RateLimiter } from '../../lib/rate-limiter.js';
import { PriceFeed } from './price-feed.js';
import { NowPaymentsProvider } from './providers/nowpayments.js';
import type { PaymentProvider } from './providers/provider.js';
import { SandboxProvider } from './providers/sandbox.js';
import { paymentRoutes } from './routes.js';
import { PaymentService, type PurchaseRecord } from './service.js';
import { createPaymentStore } from './store.js';

export { PaymentService, type PurchaseRecord } from './service.js';
export { signIpnBody, NOWPAYMENTS_CODES } from './providers/nowpayments.js';
export { PRICE_FEED_IDS } from './price-feed.js';

/** How often housekeeping expires invoices and erases key files nobody downloaded. */
export const PAYMENT_SWEEP_INTERVAL_MS = 10_000;

export interface PaymentsFeatureDeps {
  db: Db;
  config: Config;
  now: () => number;
  perAddress: RateLimiter;
  global: RateLimiter;
  registerKey: (db: Db, key: KeyPublicPart) => Promise<void>;
  onKeyIssued: (record: PurchaseRecord) => Promise<void>;
  log: (event: string, detail: Record<string, unknown>) => void;
}

export function createPaymentsFeature(deps: PaymentsFeatureDeps) {
  const { config } = deps;
  let nowpayments: NowPaymentsProvider | null = null;
  let provider: PaymentProvider;
  if (config.payments.provider === 'nowpayments') {
    nowpayments = new NowPaymentsProvider({
      apiUrl: config.payments.apiUrl,
      apiKey: config.payments.apiKey ?? '',
      ipnSecret: config.payments.ipnSecret ?? '',
      callbackUrl: config.payments.callbackUrl,
    });
    provider = nowpayments;
  } else {
    provider = new SandboxProvider(config.payments.sandboxConfirmationSeconds);
  }
  const prices = new PriceFeed({ url: config.priceFeedUrl, now: deps.now });
  const service = new PaymentService({
    store: createPaymentStore(deps.db),
    provider,
    prices,
    now: deps.now,
    perAddress: deps.perAddress,
    global: deps.global,
    registerKey: deps.registerKey,
    onKeyIssued: deps.onKeyIssued,
    log: deps.log,
  });
  return { service, prices, routes: paymentRoutes({ service, prices, nowpayments }) };
}
