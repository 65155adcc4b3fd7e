/**
 * The payments feature: key purchase with cryptocurrency (spec 001 §2–§9; DESIGN.md
 * "Payments"). Chooses the provider from the configuration, and owns the price feed, the
 * payment state machine and the purchase routes.
 */
import type { KeyPublicPart } from '../../../shared/crypto/key-file-schema.js';
import { defaultPaymentMode, type Config } from '../../config.js';
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
  // Null when the server sells no keys: the service then refuses every purchase call.
  let provider: PaymentProvider | null = null;
  if (config.payments.provider === 'nowpayments') {
    nowpayments = new NowPaymentsProvider({
      apiUrl: config.payments.apiUrl,
      apiKey: config.payments.apiKey ?? '',
      ipnSecret: config.payments.ipnSecret ?? '',
      callbackUrl: config.payments.callbackUrl,
    });
    provider = nowpayments;
  } else if (config.payments.provider === 'sandbox') {
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
  return {
    service,
    prices,
    routes: paymentRoutes({ service, prices, nowpayments }),
    modeNotice: paymentModeNotice(config),
  };
}

/**
 * The start-up line saying which payment mode is in force (issue 31), and how loud it is: the
 * sandbox hands out keys for simulated payments, so it is a warning, and a stronger one when the
 * operator chose it on a network address.
 */
export function paymentModeNotice(config: Config): {
  level: 'info' | 'warn';
  paymentMode: 'sandbox' | 'nowpayments' | 'disabled';
  message: string;
} {
  const { provider, providerChosenBy } = config.payments;
  if (provider === 'nowpayments') {
    return { level: 'info', paymentMode: 'nowpayments', message: 'key purchase: nowpayments' };
  }
  if (provider === 'none') {
    return {
      level: 'info',
      paymentMode: 'disabled',
      message:
        providerChosenBy === 'setting'
          ? 'key purchase: disabled (PAYMENT_PROVIDER=none): this server sells no keys'
          : 'key purchase: disabled: PAYMENT_PROVIDER is unset and this server is reachable from the network (HOST is not loopback, or TRUST_PROXY or TLS_CERT says a proxy is in front), so it sells no keys; set PAYMENT_PROVIDER=nowpayments to sell them, or none to say so',
    };
  }
  const isDevelopmentHost =
    defaultPaymentMode({
      host: config.host,
      trustProxy: config.trustProxy,
      hasProxyCertificate: config.proxyCertPath !== null,
    }) === 'sandbox';
  return {
    level: 'warn',
    paymentMode: 'sandbox',
    message: isDevelopmentHost
      ? 'key purchase: sandbox (simulated, development only): anyone who reaches this server gets a key for a simulated payment; set PAYMENT_PROVIDER=nowpayments to sell keys'
      : 'key purchase: sandbox (simulated, development only) on a server reachable from the network, as PAYMENT_PROVIDER=sandbox says: anyone who reaches this server gets a key for a simulated payment; set PAYMENT_PROVIDER=nowpayments or none',
  };
}
