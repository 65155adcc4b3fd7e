/**
 * The key purchase's pure parts: progress figures (spec 001 §4), required confirmations and tiers
 * (spec 001 §9), exact amounts, the sandbox chain's confirmations under an injected clock, the
 * purchased key challenge, and the NOWPayments IPN signature.
 */
import { describe, expect, it } from 'vitest';
import {
  formatDecimal,
  numberToDecimal,
  parseDecimal,
  quoteAmount,
} from '../../../../server/features/payments/decimal.js';
import {
  newKeyChallengeNonce,
  paymentIdHash,
  paymentRef,
} from '../../../../server/features/payments/payment-id.js';
import {
  isValidIpnSignature,
  observationOf,
  signIpnBody,
} from '../../../../server/features/payments/providers/nowpayments.js';
import { SandboxProvider } from '../../../../server/features/payments/providers/sandbox.js';
import { quoteFor } from '../../../../server/features/payments/service.js';
import { PAYMENT_CURRENCIES } from '../../../../shared/constants.js';
import {
  PROCESSOR_STATUS_TEXT,
  processorStatusRank,
  purchaseKeyChallenge,
  paymentProgress,
  paymentUri,
  requiredConfirmations,
  tierForAmount,
} from '../../../../shared/protocol/http/payments.js';

describe('payment progress and constants', () => {
  it('shows the spec figures for each status', () => {
    expect(paymentProgress('pending', 0, 3)).toBe(20);
    expect(paymentProgress('confirming', 0, 3)).toBe(40);
    expect(paymentProgress('confirming', 1, 3)).toBe(53);
    expect(paymentProgress('confirming', 6, 12)).toBe(60);
    expect(paymentProgress('confirming', 99, 6)).toBe(80);
    expect(paymentProgress('confirmed', 3, 3)).toBe(80);
    expect(paymentProgress('generating', 3, 3)).toBe(90);
    expect(paymentProgress('ready', 3, 3)).toBe(100);
    expect(paymentProgress('expired', 0, 3)).toBe(0);
  });

  it('needs 3 confirmations for BTC, 12 for ETH and 6 for the 24 others', () => {
    expect(PAYMENT_CURRENCIES).toHaveLength(26);
    expect(requiredConfirmations('BTC')).toBe(3);
    expect(requiredConfirmations('ETH')).toBe(12);
    const others = PAYMENT_CURRENCIES.filter((c) => c !== 'BTC' && c !== 'ETH');
    expect(new Set(others.map(requiredConfirmations))).toEqual(new Set([6]));
  });

  it('knows the tiers only by their exact minimums', () => {
    expect(tierForAmount(75)).toBe('general');
    expect(tierForAmount(250)).toBe('restricted');
    expect(tierForAmount(1000)).toBe('classified');
    expect(tierForAmount(74.99)).toBeNull();
  });

  it('puts the amount into a payment URI where wallets understand one', () => {
    expect(paymentUri('BTC', 'bc1qxyz', '0.001')).toBe('bitcoin:bc1qxyz?amount=0.001');
    expect(paymentUri('ETH', '0xabc', '0.1')).toBe('0xabc');
    expect(paymentUri('BTC', 'sandbox-btc-00', '0.001')).toBe('sandbox-btc-00');
  });
});

describe('exact amounts', () => {
  it('compares decimal strings exactly and rejects anything else', () => {
    expect(parseDecimal('0.1')! + parseDecimal('0.2')!).toBe(parseDecimal('0.3'));
    for (const bad of ['', '1e-3', '-1', '1.', '.5', 'abc', '1,5'])
      expect(parseDecimal(bad)).toBeNull();
    expect(formatDecimal(parseDecimal('12.5')!, 8)).toBe('12.50000000');
    expect(numberToDecimal(1e-7)).toBe('0.0000001');
    expect(numberToDecimal(Number.NaN)).toBeNull();
  });

  it('rounds invoices up, never down', () => {
    expect(quoteAmount(250, 150_000, 8)).toBe('0.00166667');
    expect(quoteAmount(75, 150_000, 8)).toBe('0.00050000');
    expect(quoteAmount(75, 1, 2)).toBe('75.00');
  });

  it('invoices stablecoins at par and BTC and ETH at the fallback minimums without a feed', () => {
    const empty = { prices: new Map(), lastUpdated: 0, fallback: true };
    expect(quoteFor('USDT', 250, empty)).toBe('250.00');
    expect(quoteFor('BTC', 75, empty)).toBe('0.00050000');
    expect(quoteFor('ETH', 75, empty)).toBe('0.01430000');
    // Without a feed the sandbox invoices the rest from its simulated table (issue 32).
    expect(quoteFor('SOL', 75, empty)).toBe('0.50000000');
    expect(quoteFor('XMR', 75, empty)).toBe('0.50000000');
    const fed = { prices: new Map([['SOL' as const, 300]]), lastUpdated: 0, fallback: false };
    expect(quoteFor('SOL', 75, fed)).toBe('0.25000000');
  });
});

describe('the sandbox chain', () => {
  const provider = new SandboxProvider(10);
  const base = {
    providerRef: null,
    amount: '0.0005',
    requiredConfirmations: 3,
    transactionHash: 'sandbox-tx-1',
    providerCheckedAt: null,
  };

  it('adds one confirmation every SANDBOX_CONFIRMATION_SECONDS up to the required count', async () => {
    const broadcastAt = new Date(1_000_000);
    const at = (ms: number) =>
      provider.observe({ ...base, paidAmount: '0.0005', broadcastAt }, 1_000_000 + ms);
    expect(await at(0)).toMatchObject({ status: 'confirming', confirmations: 0 });
    expect(await at(9_999)).toMatchObject({ status: 'confirming', confirmations: 0 });
    expect(await at(10_000)).toMatchObject({ status: 'confirming', confirmations: 1 });
    expect(await at(30_000)).toMatchObject({ status: 'confirmed', confirmations: 3 });
    expect(await at(3_600_000)).toMatchObject({ status: 'confirmed', confirmations: 3 });
  });

  it('never confirms less than the invoice', async () => {
    const observed = await provider.observe(
      { ...base, paidAmount: '0.00049999', broadcastAt: new Date(0) },
      10 ** 12,
    );
    expect(observed).toMatchObject({ status: 'pending', confirmations: 0 });
  });
});

describe('the purchased key challenge', () => {
  const id = `pay_${'1'.repeat(64)}`;
  const ref = paymentRef(paymentIdHash(id));

  it('names the payment by its ref and a fresh nonce, never by its id', () => {
    const nonce = newKeyChallengeNonce();
    expect(nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(newKeyChallengeNonce()).not.toBe(nonce);
    const challenge = purchaseKeyChallenge(ref, nonce);
    expect(challenge).toBe(`securechannel-key-purchase:${ref}:${nonce}`);
    expect(challenge).not.toContain(id.slice(4));
    expect(
      purchaseKeyChallenge(paymentRef(paymentIdHash(`pay_${'2'.repeat(64)}`)), nonce),
    ).not.toBe(challenge);
  });
});

describe('NOWPayments IPN signatures', () => {
  const body = { payment_status: 'finished', payment_id: 42, nested: { b: 1, a: [2, 3] } };

  it('verifies HMAC-SHA512 over the key-sorted body, whatever the key order', () => {
    const signature = signIpnBody(body, 'secret');
    expect(signature).toMatch(/^[0-9a-f]{128}$/);
    const reordered = { nested: { a: [2, 3], b: 1 }, payment_id: 42, payment_status: 'finished' };
    expect(isValidIpnSignature(reordered, signature, 'secret')).toBe(true);
    expect(isValidIpnSignature(body, signature.toUpperCase(), 'secret')).toBe(true);
  });

  it('refuses another secret, an altered body, and a missing or malformed signature', () => {
    const signature = signIpnBody(body, 'secret');
    expect(isValidIpnSignature(body, signature, 'other')).toBe(false);
    expect(isValidIpnSignature({ ...body, payment_id: 43 }, signature, 'secret')).toBe(false);
    expect(isValidIpnSignature(body, undefined, 'secret')).toBe(false);
    expect(isValidIpnSignature(body, 'zz', 'secret')).toBe(false);
    expect(isValidIpnSignature([body], signIpnBody([body], 'secret'), 'secret')).toBe(false);
  });

  it('maps the processor states onto the forward-only payment states', () => {
    const of = (payment_status: string) =>
      observationOf({ payment_id: 1, payment_status: payment_status as 'waiting' }).status;
    expect(of('waiting')).toBe('pending');
    expect(of('partially_paid')).toBe('pending');
    expect(of('confirming')).toBe('confirming');
    expect(of('finished')).toBe('confirmed');
    expect(of('refunded')).toBe('failed');
    expect(of('expired')).toBe('expired');
  });

  it('keeps the processor’s own word, says it in words, and never ranks it backwards', () => {
    expect(observationOf({ payment_id: 1, payment_status: 'sending' }).providerStatus).toBe(
      'sending',
    );
    expect(PROCESSOR_STATUS_TEXT).toMatchObject({
      waiting: 'waiting for the payment',
      confirming: 'confirming on the network',
      confirmed: 'confirmed',
      sending: 'sending',
      finished: 'finished',
      partially_paid: 'partially paid',
      failed: 'failed',
      expired: 'expired',
    });
    const order = ['waiting', 'partially_paid', 'confirming', 'confirmed', 'sending', 'finished'];
    for (let index = 1; index < order.length; index += 1) {
      expect(processorStatusRank(order[index] as 'waiting')).toBeGreaterThan(
        processorStatusRank(order[index - 1] as 'waiting'),
      );
    }
    expect(processorStatusRank('expired')).toBeGreaterThan(processorStatusRank('finished'));
  });
});
