/**
 * Which listed currencies can be invoiced, and why not (issue 32): the sandbox's labelled price
 * table, a processor's estimate and minimum, its failures, and the rule the picker and the
 * server share.
 */
import { describe, expect, it } from 'vitest';
import {
  FAILED_QUOTE_RETRY_MS,
  ProcessorQuotes,
  processorAvailability,
  sandboxAvailability,
} from '../../../../server/features/payments/currencies.js';
import { SANDBOX_PRICES_USD } from '../../../../server/features/payments/price-feed.js';
import {
  ProviderError,
  type ProcessorQuote,
} from '../../../../server/features/payments/providers/provider.js';
import { PAYMENT_CURRENCIES, PRICE_REFRESH_MS } from '../../../../shared/constants.js';
import {
  currencyOffer,
  PAYMENT_TEXT,
  type PaymentCurrency,
} from '../../../../shared/protocol/http/payments.js';

const noFeed = { prices: new Map(), lastUpdated: 0, fallback: true };

describe('the sandbox price table', () => {
  it('prices every listed currency and marks the simulated ones', () => {
    const list = sandboxAvailability(noFeed);
    expect(list.map((entry) => entry.currency)).toEqual([...PAYMENT_CURRENCIES]);
    expect(list.every((entry) => entry.available && entry.reason === null)).toBe(true);
    const byCurrency = new Map(list.map((entry) => [entry.currency, entry]));
    expect(byCurrency.get('XMR')).toMatchObject({
      source: 'sandbox',
      simulated: true,
      priceUsd: SANDBOX_PRICES_USD.XMR,
    });
    expect(byCurrency.get('USDT')).toMatchObject({ source: 'par', simulated: false, priceUsd: 1 });
    expect(byCurrency.get('BTC')).toMatchObject({ source: 'fallback', simulated: false });
  });

  it('prefers the feed’s price when there is one', () => {
    const fed = { prices: new Map([['SOL' as const, 123]]), lastUpdated: 0, fallback: false };
    const sol = sandboxAvailability(fed).find((entry) => entry.currency === 'SOL');
    expect(sol).toMatchObject({ priceUsd: 123, source: 'feed', simulated: false });
  });
});

describe('a processor’s quotes', () => {
  it('works out the price and the minimum in USD from the estimate', () => {
    const entry = processorAvailability('ADA', 75, { amount: 150, minAmount: 40 });
    expect(entry).toMatchObject({
      available: true,
      reason: null,
      priceUsd: 0.5,
      source: 'processor',
      minAmount: 40,
      minUsd: 20,
    });
    expect(currencyOffer(entry, 75)).toEqual({ available: true, reason: null });
  });

  it('disables a tier below the minimum, and the whole currency when no tier reaches it', () => {
    const entry = processorAvailability('XRP', 75, { amount: 150, minAmount: 300 });
    expect(entry.available).toBe(true);
    expect(currencyOffer(entry, 75)).toEqual({
      available: false,
      reason: "Below the payment processor's minimum for XRP (about 150 USD)",
    });
    expect(currencyOffer(entry, 250).available).toBe(true);
    const tooHigh = processorAvailability('XRP', 75, { amount: 150, minAmount: 5000 });
    expect(tooHigh.available).toBe(false);
    expect(tooHigh.reason).toContain('minimum for XRP');
    expect(currencyOffer(tooHigh, 1000).available).toBe(false);
  });

  it('says why when the processor cannot quote or cannot be reached', () => {
    const refused = processorAvailability('ZEC', 75, new ProviderError('NOWPayments answered 400'));
    expect(refused).toMatchObject({
      available: false,
      reason: PAYMENT_TEXT.processorCannotQuote,
      priceUsd: null,
    });
    const down = processorAvailability(
      'ZEC',
      75,
      new ProviderError('NOWPayments answered 503', { unreachable: true }),
    );
    expect(down).toMatchObject({ available: false, reason: PAYMENT_TEXT.providerUnavailable });
    expect(currencyOffer(down, 1000)).toEqual({
      available: false,
      reason: PAYMENT_TEXT.providerUnavailable,
    });
    expect(currencyOffer(undefined, 75).available).toBe(false);
  });

  it('asks once per 60 s, and again 10 s after a failure', async () => {
    let clock = 0;
    let down = true;
    const asked: PaymentCurrency[] = [];
    const quotes = new ProcessorQuotes(
      (currency): Promise<ProcessorQuote> => {
        asked.push(currency);
        if (down && currency === 'BTC') {
          return Promise.reject(new ProviderError('down', { unreachable: true }));
        }
        return Promise.resolve({ amount: 1, minAmount: null });
      },
      () => clock,
    );
    const first = await quotes.list();
    expect(first).toHaveLength(PAYMENT_CURRENCIES.length);
    expect(first[0]).toMatchObject({ currency: 'BTC', available: false });
    expect(asked).toHaveLength(PAYMENT_CURRENCIES.length);
    await quotes.list();
    expect(asked).toHaveLength(PAYMENT_CURRENCIES.length);
    down = false;
    clock += FAILED_QUOTE_RETRY_MS;
    const second = await quotes.list();
    expect(asked).toHaveLength(PAYMENT_CURRENCIES.length + 1);
    expect(second[0]).toMatchObject({ currency: 'BTC', available: true });
    clock += PRICE_REFRESH_MS;
    await quotes.list();
    expect(asked).toHaveLength(2 * PAYMENT_CURRENCIES.length + 1);
  });
});
