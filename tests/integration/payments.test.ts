/**
 * Key purchase on the sandbox chain (spec 001 §3, §4, §7, §9; DESIGN.md "Payments"), over real
 * HTTP with an injected clock: from the invoice to a key made by the buyer (issue 32: only its
 * public part and a proof of possession reach the server) that is registered once the payment
 * is confirmed and logs in with its tier's level; the chosen username, unique; underpayment;
 * expiry; bad input and the flood limit.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_CURRENCIES } from '../../shared/constants.js';
import {
  PAYMENT_TEXT,
  PricesResponseSchema,
  type GeneratePaymentResponse,
  type PaymentStatusResponse,
} from '../../shared/protocol/http/payments.js';
import { adminToken, login, makeRegisteredKey } from '../support/keys.js';
import { buyerName, makeBuyerKey, purchaseKeyBody, submitBuyerKey } from '../support/purchase.js';
import { startServer, type TestServer } from '../support/server.js';
import { HAS_POSTGRES } from '../support/services.js';

const START = Date.parse('2026-03-01T12:00:00.000Z');

async function json(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}

function post(server: TestServer, path: string, body: unknown) {
  return fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function createPayment(
  server: TestServer,
  currency = 'BTC',
  minAmountUsd = 75,
  username = buyerName(),
): Promise<GeneratePaymentResponse> {
  const response = await post(server, '/api/crypto/generate-payment', {
    currency,
    minAmountUsd,
    username,
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as GeneratePaymentResponse;
}

async function status(server: TestServer, paymentId: string): Promise<PaymentStatusResponse> {
  const response = await fetch(`${server.baseUrl}/api/crypto/payment-status/${paymentId}`);
  expect(response.status).toBe(200);
  return (await response.json()) as PaymentStatusResponse;
}

async function countPayments(server: TestServer): Promise<number> {
  const rows = await server.database.query<{ count: string }>(
    'SELECT count(*)::text AS count FROM payments',
  );
  return Number(rows[0]!.count);
}

describe.runIf(HAS_POSTGRES)('key purchase on the sandbox chain', () => {
  let server: TestServer;
  let clock = START;
  const tick = (ms: number) => {
    clock += ms;
  };

  beforeAll(async () => {
    // PostgreSQL here; the NOWPayments and browser suites run the same store on PGlite.
    server = await startServer({
      backend: 'postgres',
      env: { SANDBOX_CONFIRMATION_SECONDS: '10' },
      deps: { now: () => clock, paymentCreationsPerTenMinutes: 8 },
    });
  });
  afterAll(async () => {
    await server.stop();
  });
  afterEach(() => {
    // Each test opens its payments in a fresh flood window.
    tick(11 * 60_000);
  });

  /** A 75 USD USDT payment paid in full and confirmed (six sandbox confirmations). */
  async function confirmedPayment(): Promise<GeneratePaymentResponse> {
    const payment = await createPayment(server, 'USDT', 75);
    await post(server, '/api/crypto/sandbox/pay', {
      paymentId: payment.paymentId,
      amount: payment.amount,
    });
    tick(60_000);
    expect((await status(server, payment.paymentId)).status).toBe('confirmed');
    return payment;
  }

  it('runs the sandbox by default on a loopback HOST, and says so', async () => {
    const response = await fetch(`${server.baseUrl}/api/crypto/availability`);
    expect(await json(response)).toEqual({ available: true, provider: 'sandbox' });
    expect(server.logs.text()).toContain('key purchase: sandbox (simulated, development only)');
  });

  it('serves the spec fallback minimums with fallback: true when no price feed is set', async () => {
    const response = await fetch(`${server.baseUrl}/api/crypto/prices`);
    expect(await json(response)).toMatchObject({
      bitcoin: { price: null, minAmount: 0.0005 },
      ethereum: { price: null, minAmount: 0.0143 },
      fallback: true,
    });
  });

  it('invoices every listed currency in the sandbox, from a price table marked as simulated', async () => {
    const response = await fetch(`${server.baseUrl}/api/crypto/prices`);
    const prices = PricesResponseSchema.parse(await json(response));
    expect(prices.simulated).toBe(true);
    expect(prices.currencies.map((entry) => entry.currency)).toEqual([...PAYMENT_CURRENCIES]);
    expect(prices.currencies.every((entry) => entry.available && entry.reason === null)).toBe(true);
    expect(prices.currencies.find((entry) => entry.currency === 'XMR')).toMatchObject({
      source: 'sandbox',
      simulated: true,
      priceUsd: 150,
    });
    for (const currency of ['ADA', 'XMR', 'SOL'] as const) {
      const payment = await createPayment(server, currency, 75, buyerName());
      expect(payment).toMatchObject({ currency, sandbox: true });
    }
    const xmr = await createPayment(server, 'XMR', 250, buyerName());
    expect(xmr.amount).toBe('1.66666667');
  });

  it('takes a payment from invoice to the buyer’s own key, registered once confirmed, that logs in with the tier level', async () => {
    const username = buyerName('Agent Smith');
    const payment = await createPayment(server, 'BTC', 250, username);
    expect(payment).toMatchObject({
      currency: 'BTC',
      tier: 'restricted',
      amountUsd: 250,
      requiredConfirmations: 3,
      sandbox: true,
      username,
      // 250 USD at the fallback's 0.0005 BTC per 75 USD, rounded up to 8 places.
      amount: '0.00166667',
    });
    expect(payment.paymentId).toMatch(/^pay_[0-9a-f]{64}$/);
    expect(payment.keyChallenge).toMatch(/^securechannel-key-purchase:[0-9a-f]{16}:[0-9a-f]{32}$/);
    expect(Date.parse(payment.expiresAt) - Date.parse(payment.createdAt)).toBe(20 * 60_000);

    expect(await status(server, payment.paymentId)).toMatchObject({
      status: 'pending',
      confirmations: 0,
      keyId: null,
      username,
      keySubmitted: false,
      receipt: null,
    });
    const early = await post(server, '/api/crypto/generate-key', { paymentId: payment.paymentId });
    expect(early.status).toBe(402);
    expect(await json(early)).toMatchObject({
      status: 'pending',
      confirmations: 0,
      requiredConfirmations: 3,
    });

    // The buyer's browser makes the key and sends only its public part with the proof.
    const keyFile = await submitBuyerKey(server.baseUrl, payment, new Date(clock));
    expect(await status(server, payment.paymentId)).toMatchObject({
      keySubmitted: true,
      keyId: keyFile.keyId,
    });
    // Not registered before the payment is confirmed: it cannot log in yet.
    expect((await login(server.baseUrl, keyFile)).status).not.toBe(200);

    const pay = await post(server, '/api/crypto/sandbox/pay', {
      paymentId: payment.paymentId,
      amount: payment.amount,
    });
    expect(pay.status).toBe(200);
    expect(await status(server, payment.paymentId)).toMatchObject({
      status: 'confirming',
      confirmations: 0,
    });
    tick(10_000);
    const one = await status(server, payment.paymentId);
    expect(one).toMatchObject({ status: 'confirming', confirmations: 1 });
    expect(one.transactionHash).toMatch(/^sandbox-tx-/);
    const stillEarly = await post(server, '/api/crypto/generate-key', {
      paymentId: payment.paymentId,
      transactionHash: one.transactionHash,
    });
    expect(stillEarly.status).toBe(402);
    expect(await json(stillEarly)).toMatchObject({ status: 'confirming', confirmations: 1 });

    tick(20_000);
    expect(await status(server, payment.paymentId)).toMatchObject({
      status: 'confirmed',
      confirmations: 3,
    });
    const generated = await post(server, '/api/crypto/generate-key', {
      paymentId: payment.paymentId,
    });
    expect(generated.status).toBe(200);
    const answer = (await generated.json()) as { keyId: string; receipt: Record<string, unknown> };
    const keyId = answer.keyId;
    expect(keyId).toBe(keyFile.keyId);
    expect(answer.receipt).toMatchObject({
      keyId,
      username,
      level: 'observer',
      tier: 'restricted',
      fingerprint: keyFile.fingerprint,
    });
    expect(await status(server, payment.paymentId)).toMatchObject({
      status: 'ready',
      keyId,
      receipt: answer.receipt,
    });
    // Asking again gives the same key, not a second one.
    const again = await post(server, '/api/crypto/generate-key', { paymentId: payment.paymentId });
    expect(await json(again)).toEqual(answer);
    // The old server-made download is gone.
    expect((await fetch(`${server.baseUrl}/api/crypto/download/${payment.paymentId}`)).status).toBe(
      404,
    );

    // The key logs in with the tier's level and the chosen name, like any admin-issued key.
    const session = await login(server.baseUrl, keyFile);
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({
      user: { keyId, username, permissions: { level: 'observer' } },
    });

    // Listed and revocable in the admin key list; the purchase is in the audit log without the
    // payment id or any private key.
    const token = await adminToken(server.baseUrl);
    const auth = { authorization: `Bearer ${token}` };
    const keys = await json(await fetch(`${server.baseUrl}/api/admin/keys`, { headers: auth }));
    expect(JSON.stringify(keys)).toContain(keyId);
    const audit = await fetch(`${server.baseUrl}/api/admin/audit`, { headers: auth });
    const auditText = await audit.text();
    expect(auditText).toContain('key.purchase');
    expect(auditText).toContain(keyId);
    expect(auditText).toContain('restricted');
    expect(auditText).not.toContain(payment.paymentId);
    expect(auditText).not.toContain('PrivateKey');
    const revoke = await fetch(`${server.baseUrl}/api/admin/keys/${keyId}`, {
      method: 'DELETE',
      headers: auth,
    });
    expect(revoke.status).toBe(200);
    expect((await login(server.baseUrl, keyFile)).status).toBe(401);

    // Nothing in the log names the payment id or key material.
    const logText = server.logs.text();
    expect(logText).not.toContain(payment.paymentId);
    expect(logText).not.toContain(JSON.stringify(keyFile.ecdsaPrivateKey));
  });

  it('registers nothing for a confirmed payment whose key was never sent, and says why', async () => {
    const payment = await confirmedPayment();
    const generated = await post(server, '/api/crypto/generate-key', {
      paymentId: payment.paymentId,
    });
    expect(generated.status).toBe(409);
    expect((await json(generated)).error).toMatch(/No key was sent for this payment/);
    // The key may still be sent after the payment confirmed; then it is registered.
    const keyFile = await submitBuyerKey(server.baseUrl, payment, new Date(clock));
    const again = await post(server, '/api/crypto/generate-key', { paymentId: payment.paymentId });
    expect(again.status).toBe(200);
    expect((await login(server.baseUrl, keyFile)).status).toBe(200);
  });

  it('accepts a key only with a proof of possession for this payment and for what was bought', async () => {
    const payment = await createPayment(server, 'BTC', 75);
    const other = await createPayment(server, 'BTC', 75);
    const now = new Date(clock);
    const send = (body: unknown) => post(server, '/api/crypto/purchase-key', body);
    const keyFile = await makeBuyerKey(payment.username, 'general', now);

    // Signed over another payment's challenge: no proof for this one.
    const replayed = await send(
      await purchaseKeyBody(payment.paymentId, keyFile, other.keyChallenge),
    );
    expect(replayed.status).toBe(400);
    expect((await json(replayed)).error).toMatch(/do not prove possession/);
    // Another name or a higher level than bought.
    for (const wrong of [
      await makeBuyerKey(buyerName(), 'general', now),
      await makeBuyerKey(payment.username, 'classified', now),
    ]) {
      const response = await send(
        await purchaseKeyBody(payment.paymentId, wrong, payment.keyChallenge),
      );
      expect(response.status).toBe(400);
      expect((await json(response)).error).toMatch(/does not match the order/);
    }
    // A private key in the body is refused by the schema.
    const withPrivate = {
      ...(await purchaseKeyBody(payment.paymentId, keyFile, payment.keyChallenge)),
      publicKey: keyFile,
    };
    expect((await send(withPrivate)).status).toBe(400);
    expect((await status(server, payment.paymentId)).keySubmitted).toBe(false);

    // The right key is accepted; sending it again is answered the same; another key is not.
    const body = await purchaseKeyBody(payment.paymentId, keyFile, payment.keyChallenge);
    expect((await send(body)).status).toBe(200);
    expect((await send(body)).status).toBe(200);
    const second = await makeBuyerKey(payment.username, 'general', now);
    const swapped = await send(
      await purchaseKeyBody(payment.paymentId, second, payment.keyChallenge),
    );
    expect(swapped.status).toBe(409);
    expect((await status(server, payment.paymentId)).keyId).toBe(keyFile.keyId);
  });

  it('lets the buyer name the key: the admin rule, and unique among keys and open orders', async () => {
    const taken = buyerName('Neo');
    await makeRegisteredKey(server.baseUrl, { username: taken });
    const before = await countPayments(server);
    const cases: [unknown, number, string][] = [
      [
        { currency: 'BTC', minAmountUsd: 75, username: taken.toUpperCase() },
        409,
        'This username is already taken; choose another',
      ],
      [
        { currency: 'BTC', minAmountUsd: 75, username: ' padded ' },
        400,
        PAYMENT_TEXT.invalidUsername,
      ],
      [{ currency: 'BTC', minAmountUsd: 75, username: '' }, 400, PAYMENT_TEXT.invalidUsername],
      [
        { currency: 'BTC', minAmountUsd: 75, username: 'x'.repeat(65) },
        400,
        PAYMENT_TEXT.invalidUsername,
      ],
      [
        { currency: 'BTC', minAmountUsd: 75, username: 'bad\u202ename' },
        400,
        PAYMENT_TEXT.invalidUsername,
      ],
    ];
    for (const [body, code, error] of cases) {
      const response = await post(server, '/api/crypto/generate-payment', body);
      expect(response.status, JSON.stringify(body)).toBe(code);
      expect(await json(response)).toEqual({ error });
    }
    expect(await countPayments(server)).toBe(before);
    const open = await createPayment(server, 'BTC', 75, buyerName('Trinity'));
    const clash = await post(server, '/api/crypto/generate-payment', {
      currency: 'ETH',
      minAmountUsd: 75,
      username: open.username,
    });
    expect(clash.status).toBe(409);
    // Once that order expires, the name is free again.
    tick(21 * 60_000);
    await server.payments.sweep();
    expect((await createPayment(server, 'ETH', 75, open.username)).username).toBe(open.username);
  });

  it('never confirms an underpayment, and lets it expire', async () => {
    const payment = await createPayment(server, 'ETH', 75);
    expect(payment.amount).toBe('0.01430000');
    expect(payment.requiredConfirmations).toBe(12);
    const pay = await post(server, '/api/crypto/sandbox/pay', {
      paymentId: payment.paymentId,
      amount: '0.0142',
    });
    expect(pay.status).toBe(200);
    tick(15 * 60_000);
    expect(await status(server, payment.paymentId)).toMatchObject({
      status: 'pending',
      confirmations: 0,
      paidAmount: '0.0142',
    });
    const key = await post(server, '/api/crypto/generate-key', { paymentId: payment.paymentId });
    expect(key.status).toBe(402);
    tick(5 * 60_000);
    expect((await status(server, payment.paymentId)).status).toBe('expired');
    const late = await post(server, '/api/crypto/generate-key', { paymentId: payment.paymentId });
    expect(late.status).toBe(410);
    expect(await json(late)).toEqual({ error: 'Payment expired' });
  });

  it('expires an unpaid invoice after 20 minutes and refuses payments to it', async () => {
    const payment = await createPayment(server, 'USDT', 1000);
    expect(payment.amount).toBe('1000.00');
    tick(20 * 60_000 - 1);
    expect((await status(server, payment.paymentId)).status).toBe('pending');
    tick(1);
    await server.payments.sweep();
    expect((await status(server, payment.paymentId)).status).toBe('expired');
    const pay = await post(server, '/api/crypto/sandbox/pay', {
      paymentId: payment.paymentId,
      amount: payment.amount,
    });
    expect(pay.status).toBe(410);
  });

  it('takes over a key generation whose process died, and still makes one key', async () => {
    const payment = await confirmedPayment();
    await submitBuyerKey(server.baseUrl, payment, new Date(clock));
    // A process claimed the generation and died before finishing it.
    await server.database.query(
      `UPDATE payments SET status = 'generating', generation_claim = 'dead-process',
         generation_started_at = $1 WHERE address = $2`,
      [new Date(clock), payment.address],
    );
    tick(30_000);
    expect((await status(server, payment.paymentId)).status).toBe('generating');
    tick(30_000);
    expect((await status(server, payment.paymentId)).status).toBe('confirmed');
    const generated = await post(server, '/api/crypto/generate-key', {
      paymentId: payment.paymentId,
    });
    expect(generated.status).toBe(200);
    expect(await status(server, payment.paymentId)).toMatchObject({ status: 'ready' });
  });

  it('answers bad input with clear 4xx errors and stores nothing for it', async () => {
    const before = await countPayments(server);
    const cases: [unknown, number, string][] = [
      [{ currency: 'PEPE', minAmountUsd: 75, username: 'n' }, 400, 'Unknown currency'],
      [{ currency: 'btc', minAmountUsd: 75, username: 'n' }, 400, 'Unknown currency'],
      [
        { currency: 'BTC', minAmountUsd: 80, username: 'n' },
        400,
        'Unknown tier: the amount must be 75, 250 or 1000 USD',
      ],
      [{ currency: 'BTC', minAmountUsd: 'seventy-five', username: 'n' }, 400, 'Invalid amount'],
      [{ currency: 'BTC', minAmountUsd: -75, username: 'n' }, 400, 'Invalid amount'],
      [
        { currency: 'BTC', minAmountUsd: 75, tier: 'classified', username: 'n' },
        400,
        'The tier does not match the amount',
      ],
      [{ currency: 'BTC', minAmountUsd: 75 }, 400, PAYMENT_TEXT.invalidUsername],
    ];
    for (const [body, code, error] of cases) {
      const response = await post(server, '/api/crypto/generate-payment', body);
      expect(response.status, JSON.stringify(body)).toBe(code);
      expect(await json(response)).toEqual({ error });
    }
    expect(await countPayments(server)).toBe(before);

    const malformed = await fetch(`${server.baseUrl}/api/crypto/payment-status/not-a-payment`);
    expect(malformed.status).toBe(400);
    expect(await json(malformed)).toEqual({ error: 'Invalid payment id' });
    const unknown = `pay_${'0'.repeat(64)}`;
    const missing = await fetch(`${server.baseUrl}/api/crypto/payment-status/${unknown}`);
    expect(missing.status).toBe(404);
    expect(await json(missing)).toEqual({ error: 'Payment not found' });
    expect((await post(server, '/api/crypto/generate-key', { paymentId: unknown })).status).toBe(
      404,
    );
    const unknownKey = await post(server, '/api/crypto/purchase-key', { paymentId: unknown });
    expect(unknownKey.status).toBe(400);
    expect((await post(server, '/api/crypto/purchase-key', { paymentId: 'nope' })).status).toBe(
      400,
    );

    const payment = await createPayment(server);
    const badAmounts: unknown[] = ['abc', '1e-3', '', -1, '0'];
    for (const amount of badAmounts) {
      const response = await post(server, '/api/crypto/sandbox/pay', {
        paymentId: payment.paymentId,
        amount,
      });
      expect(response.status, String(amount)).toBe(400);
    }
    expect(await status(server, payment.paymentId)).toMatchObject({
      status: 'pending',
      paidAmount: null,
    });
  });

  it('limits how many payments one address opens', async () => {
    const before = await countPayments(server);
    for (let i = 0; i < 8; i += 1) await createPayment(server);
    const flood = await post(server, '/api/crypto/generate-payment', {
      currency: 'BTC',
      minAmountUsd: 75,
      username: buyerName(),
    });
    expect(flood.status).toBe(429);
    expect(await json(flood)).toEqual({ error: 'Too many payment requests; wait a few minutes' });
    expect(await countPayments(server)).toBe(before + 8);
  });
});
