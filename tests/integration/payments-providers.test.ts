/**
 * The key purchase against things outside the machine, each replaced by a local fake over real
 * HTTP (DESIGN.md "Payments"): the NOWPayments API and its signed IPN callbacks, and the price
 * feed. Also: two server instances on one PostgreSQL database racing to generate a key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../server/app.js';
import { openDatabase } from '../../server/db/connect.js';
import { PriceFeed } from '../../server/features/payments/price-feed.js';
import { signIpnBody } from '../../server/features/payments/index.js';
import { PAYMENT_CURRENCIES, PRICE_REFRESH_MS } from '../../shared/constants.js';
import {
  currencyOffer,
  PAYMENT_TEXT,
  PricesResponseSchema,
  type GeneratePaymentResponse,
  type PaymentCurrency,
} from '../../shared/protocol/http/payments.js';
import {
  answerQuote,
  fakeServer,
  sendJson,
  testMarket,
  type FakeServer,
} from '../fixtures/fakes/nowpayments.js';
import { createThrowawayPostgres } from '../support/database.js';
import { captureLogs } from '../support/logs.js';
import { login } from '../support/keys.js';
import { buyerName, submitBuyerKey } from '../support/purchase.js';
import { startServer, testConfig, type TestServer } from '../support/server.js';
import { HAS_POSTGRES } from '../support/services.js';

function post(baseUrl: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

const API_KEY = 'np-test-api-key';
const IPN_SECRET = 'np-test-ipn-secret';

describe('the NOWPayments adapter against a local fake of its API', () => {
  let fake: FakeServer;
  let server: TestServer;
  let clock = Date.parse('2026-03-01T12:00:00.000Z');
  /** What the fake reports for its one payment. */
  const remote = { status: 'waiting', actuallyPaid: 0, payinHash: null as string | null };
  /** The fake's quotes: USD per coin, minimums in coins, a currency it refuses, an outage. */
  const market = testMarket();

  beforeAll(async () => {
    fake = await fakeServer((request, response) => {
      if (request.headers['x-api-key'] !== API_KEY) {
        sendJson(response, 403, { message: 'Invalid api key' });
        return;
      }
      if (request.method === 'POST' && request.path === '/v1/payment') {
        const body = JSON.parse(request.body) as Record<string, unknown>;
        sendJson(response, 201, {
          payment_id: 5077125051,
          payment_status: 'waiting',
          pay_address: 'bc1qfakeaddressfornowpaymentstests000000',
          price_amount: body.price_amount,
          price_currency: body.price_currency,
          pay_amount: 0.00123456,
          pay_currency: body.pay_currency,
          order_id: body.order_id,
          payin_extra_id: null,
          created_at: '2026-03-01T12:00:00.000Z',
        });
        return;
      }
      if (answerQuote(market, request, response)) return;
      if (request.method === 'GET' && request.path === '/v1/payment/5077125051') {
        sendJson(response, 200, {
          payment_id: 5077125051,
          payment_status: remote.status,
          pay_address: 'bc1qfakeaddressfornowpaymentstests000000',
          pay_amount: 0.00123456,
          actually_paid: remote.actuallyPaid,
          pay_currency: 'btc',
          payin_hash: remote.payinHash,
        });
        return;
      }
      sendJson(response, 404, { message: 'not found' });
    });
    server = await startServer({
      env: {
        PAYMENT_PROVIDER: 'nowpayments',
        PAYMENT_API_KEY: API_KEY,
        PAYMENT_IPN_SECRET: IPN_SECRET,
        PAYMENT_API_URL: `${fake.url}/v1`,
        PAYMENT_CALLBACK_URL: 'https://chat.example/api/crypto/ipn',
      },
      deps: { now: () => clock },
    });
  });
  afterAll(async () => {
    await server.stop();
    await fake.close();
  });

  it('creates the payment at the processor, follows its status, and refuses a forged IPN', async () => {
    const created = await post(server.baseUrl, '/api/crypto/generate-payment', {
      currency: 'BTC',
      minAmountUsd: 1000,
      username: buyerName(),
    });
    expect(created.status).toBe(200);
    const payment = (await created.json()) as GeneratePaymentResponse;
    expect(payment).toMatchObject({
      address: 'bc1qfakeaddressfornowpaymentstests000000',
      amount: '0.00123456',
      tier: 'classified',
      sandbox: false,
    });
    const sent = JSON.parse(
      fake.requests.find((request) => request.path === '/v1/payment')!.body,
    ) as Record<string, unknown>;
    expect(sent).toMatchObject({
      price_amount: 1000,
      price_currency: 'usd',
      pay_currency: 'btc',
      ipn_callback_url: 'https://chat.example/api/crypto/ipn',
    });
    // The processor learns the payment's reference, never its id.
    expect(JSON.stringify(sent)).not.toContain(payment.paymentId);

    // No sandbox chain in this mode.
    const sandbox = await post(server.baseUrl, '/api/crypto/sandbox/pay', {
      paymentId: payment.paymentId,
      amount: payment.amount,
    });
    expect(sandbox.status).toBe(404);

    const statusOf = async () =>
      (await (
        await fetch(`${server.baseUrl}/api/crypto/payment-status/${payment.paymentId}`)
      ).json()) as Record<string, unknown>;
    expect(await statusOf()).toMatchObject({ status: 'pending' });

    // Polled at most once per 10 s.
    remote.status = 'confirming';
    remote.actuallyPaid = 0.00123456;
    remote.payinHash = 'f'.repeat(64);
    expect(await statusOf()).toMatchObject({ status: 'pending', processorStatus: 'waiting' });
    clock += 10_000;
    // The processor counts no confirmations: its own state is what the page shows.
    expect(await statusOf()).toMatchObject({
      status: 'confirming',
      transactionHash: 'f'.repeat(64),
      confirmations: 0,
      processorStatus: 'confirming',
    });

    // A forged notification (wrong secret, or the body altered after signing) changes nothing.
    const ipn = {
      payment_id: 5077125051,
      payment_status: 'finished',
      pay_address: 'bc1qfakeaddressfornowpaymentstests000000',
      pay_amount: 0.00123456,
      actually_paid: 0.00123456,
      order_id: 'whatever',
    };
    const forged = await post(server.baseUrl, '/api/crypto/ipn', ipn, {
      'x-nowpayments-sig': signIpnBody(ipn, 'not-the-secret'),
    });
    expect(forged.status).toBe(401);
    const altered = await post(
      server.baseUrl,
      '/api/crypto/ipn',
      { ...ipn, actually_paid: 1 },
      { 'x-nowpayments-sig': signIpnBody(ipn, IPN_SECRET) },
    );
    expect(altered.status).toBe(401);
    const unsigned = await post(server.baseUrl, '/api/crypto/ipn', ipn);
    expect(unsigned.status).toBe(401);
    expect(await statusOf()).toMatchObject({ status: 'confirming' });
    const early = await post(server.baseUrl, '/api/crypto/generate-key', {
      paymentId: payment.paymentId,
    });
    expect(early.status).toBe(402);
    // The buyer's browser sends its key's public part while the payment confirms.
    const keyFile = await submitBuyerKey(server.baseUrl, payment, new Date(clock));

    // The genuine one, its keys in any order, confirms the payment.
    const reordered = Object.fromEntries(Object.entries(ipn).reverse());
    const genuine = await post(server.baseUrl, '/api/crypto/ipn', reordered, {
      'x-nowpayments-sig': signIpnBody(ipn, IPN_SECRET),
    });
    expect(genuine.status).toBe(200);
    expect(await genuine.json()).toEqual({ ok: true });
    expect(await statusOf()).toMatchObject({
      status: 'confirmed',
      confirmations: 3, // BTC needs 3; the processor counts them
      processorStatus: 'finished',
    });
    // The same notification again changes nothing and says so.
    const replay = await post(server.baseUrl, '/api/crypto/ipn', ipn, {
      'x-nowpayments-sig': signIpnBody(ipn, IPN_SECRET),
    });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({
      ok: true,
      note: 'The payment already reached this state; nothing changed',
    });
    expect(await statusOf()).toMatchObject({ status: 'confirmed', processorStatus: 'finished' });
    const key = await post(server.baseUrl, '/api/crypto/generate-key', {
      paymentId: payment.paymentId,
    });
    expect(key.status).toBe(200);
    expect(await key.json()).toMatchObject({
      keyId: keyFile.keyId,
      receipt: { level: 'user', username: payment.username },
    });
    expect((await login(server.baseUrl, keyFile)).status).toBe(200);

    // A late notification cannot move the payment backwards.
    const late = { ...ipn, payment_status: 'waiting' };
    const lateResponse = await post(server.baseUrl, '/api/crypto/ipn', late, {
      'x-nowpayments-sig': signIpnBody(late, IPN_SECRET),
    });
    expect(lateResponse.status).toBe(200);
    expect(await lateResponse.json()).toMatchObject({ note: PAYMENT_TEXT.ipnNothingChanged });
    expect(await statusOf()).toMatchObject({ status: 'ready', processorStatus: 'finished' });
    // Our API key travelled only in its header.
    expect(fake.requests.every((request) => request.headers['x-api-key'] === API_KEY)).toBe(true);
    expect(server.logs.text()).not.toContain(API_KEY);
  });

  it('quotes every listed currency from the processor’s estimate and minimum, and disables what it cannot invoice, with the reason', async () => {
    clock += PRICE_REFRESH_MS;
    const prices = PricesResponseSchema.parse(
      await (await fetch(`${server.baseUrl}/api/crypto/prices`)).json(),
    );
    expect(prices.currencies.map((entry) => entry.currency)).toEqual([...PAYMENT_CURRENCIES]);
    expect(prices.simulated).toBe(false);
    const entry = (currency: PaymentCurrency) =>
      prices.currencies.find((candidate) => candidate.currency === currency);
    expect(entry('BTC')).toMatchObject({
      available: true,
      source: 'processor',
      priceUsd: 100_000,
      minAmount: 0.0001,
    });
    // XRP: the processor's minimum (300 XRP, 150 USD) is above the cheapest tier only.
    expect(entry('XRP')).toMatchObject({ available: true, minUsd: 150 });
    expect(currencyOffer(entry('XRP'), 75)).toEqual({
      available: false,
      reason: "Below the payment processor's minimum for XRP (about 150 USD)",
    });
    expect(currencyOffer(entry('XRP'), 250).available).toBe(true);
    expect(entry('ZEC')).toMatchObject({
      available: false,
      reason: PAYMENT_TEXT.processorCannotQuote,
    });
    const asked = fake.requests.filter((request) => request.path.startsWith('/v1/estimate'));
    expect(asked.some((request) => request.path.includes('currency_to=xmr'))).toBe(true);
    expect(asked.every((request) => request.path.includes('amount=75'))).toBe(true);
    expect(
      fake.requests.some((request) => request.path.startsWith('/v1/min-amount?currency_from=sol')),
    ).toBe(true);

    // What the picker disables is refused with the same reason, before the processor is asked.
    const invoices = () => fake.requests.filter((request) => request.path === '/v1/payment').length;
    const before = invoices();
    const below = await post(server.baseUrl, '/api/crypto/generate-payment', {
      currency: 'XRP',
      minAmountUsd: 75,
      username: buyerName(),
    });
    expect(below.status).toBe(409);
    expect(await below.json()).toEqual({
      error: "Below the payment processor's minimum for XRP (about 150 USD)",
    });
    const refused = await post(server.baseUrl, '/api/crypto/generate-payment', {
      currency: 'ZEC',
      minAmountUsd: 250,
      username: buyerName(),
    });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: PAYMENT_TEXT.processorCannotQuote });
    expect(invoices()).toBe(before);

    // The processor down: every currency disabled with the reason, asked again 10 s later.
    market.down = true;
    clock += PRICE_REFRESH_MS;
    const down = PricesResponseSchema.parse(
      await (await fetch(`${server.baseUrl}/api/crypto/prices`)).json(),
    );
    expect(
      down.currencies.every(
        (candidate) =>
          !candidate.available && candidate.reason === PAYMENT_TEXT.providerUnavailable,
      ),
    ).toBe(true);
    const whileDown = await post(server.baseUrl, '/api/crypto/generate-payment', {
      currency: 'BTC',
      minAmountUsd: 75,
      username: buyerName(),
    });
    expect(whileDown.status).toBe(409);
    expect(await whileDown.json()).toEqual({ error: PAYMENT_TEXT.providerUnavailable });
    market.down = false;
    clock += 10_000;
    const back = PricesResponseSchema.parse(
      await (await fetch(`${server.baseUrl}/api/crypto/prices`)).json(),
    );
    expect(back.currencies.find((candidate) => candidate.currency === 'BTC')?.available).toBe(true);
  });
});

describe.runIf(HAS_POSTGRES)('the price feed', () => {
  let failing = false;
  let clock = Date.parse('2026-03-01T12:00:00.000Z');
  let feed: FakeServer;
  let server: TestServer;

  beforeAll(async () => {
    feed = await fakeServer((request, response) => {
      if (failing) {
        sendJson(response, 500, { error: 'down' });
        return;
      }
      if (!request.path.includes('vs_currencies=usd')) {
        sendJson(response, 400, { error: 'vs_currencies missing' });
        return;
      }
      sendJson(response, 200, { bitcoin: { usd: 100_000 }, ethereum: { usd: 5000 } });
    });
    server = await startServer({
      backend: 'postgres',
      env: { PRICE_FEED_URL: `${feed.url}/api/v3/simple/price` },
      deps: { now: () => clock },
    });
  });
  afterAll(async () => {
    await server.stop();
    await feed.close();
  });

  it('serves the feed prices, then the fallback minimums when the feed fails', async () => {
    const prices = async () =>
      (await (await fetch(`${server.baseUrl}/api/crypto/prices`)).json()) as Record<
        string,
        unknown
      >;
    expect(await prices()).toMatchObject({
      bitcoin: { price: 100_000, minAmount: 0.00075 },
      ethereum: { price: 5000, minAmount: 0.015 },
      fallback: false,
    });
    const invoice = (await (
      await post(server.baseUrl, '/api/crypto/generate-payment', {
        currency: 'BTC',
        minAmountUsd: 250,
        username: buyerName(),
      })
    ).json()) as GeneratePaymentResponse;
    expect(invoice.amount).toBe('0.00250000');

    // Cached for 60 s: a failing feed is not asked again before then.
    failing = true;
    clock += 59_000;
    expect((await prices()).fallback).toBe(false);
    clock += 1_000;
    expect(await prices()).toMatchObject({
      bitcoin: { price: null, minAmount: 0.0005 },
      ethereum: { price: null, minAmount: 0.0143 },
      fallback: true,
    });
    expect(feed.requests).toHaveLength(2);
  });

  it('serves the fallback when the feed does not answer in time', async () => {
    const silent = await fakeServer(() => undefined);
    try {
      const feed = new PriceFeed({ url: silent.url, now: Date.now, timeoutMs: 200 });
      expect(await feed.prices()).toMatchObject({
        bitcoin: { price: null, minAmount: 0.0005 },
        ethereum: { price: null, minAmount: 0.0143 },
        fallback: true,
      });
    } finally {
      await silent.close();
    }
  });
});

describe.runIf(HAS_POSTGRES)('two server instances on one PostgreSQL database', () => {
  type Instance = {
    built: Awaited<ReturnType<typeof buildServer>>;
    database: Awaited<ReturnType<typeof openDatabase>>;
    address: string;
  };
  const instances: Instance[] = [];
  let drop: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    const throwaway = await createThrowawayPostgres();
    drop = throwaway.drop;
    for (let i = 0; i < 2; i += 1) {
      const database = await openDatabase({ databaseUrl: throwaway.url, dataDir: '' });
      const built = await buildServer(
        testConfig({ DATABASE_URL: throwaway.url, SANDBOX_CONFIRMATION_SECONDS: '1' }),
        { database, logStream: captureLogs().stream, announce: () => undefined },
      );
      const address = await built.app.listen({ port: 0, host: '127.0.0.1' });
      instances.push({ built, database, address });
    }
  });
  afterAll(async () => {
    for (const instance of instances) {
      await instance.built.app.close();
      await instance.database.close();
    }
    await drop();
  });

  it('make one key when generate-key races on both', async () => {
    const [a, b] = instances as [Instance, Instance];
    const payment = (await (
      await post(a.address, '/api/crypto/generate-payment', {
        currency: 'USDT',
        minAmountUsd: 75,
        username: buyerName(),
      })
    ).json()) as GeneratePaymentResponse;
    await post(b.address, '/api/crypto/sandbox/pay', {
      paymentId: payment.paymentId,
      amount: payment.amount,
    });
    await submitBuyerKey(b.address, payment);
    // Six confirmations, one a second: wait for the state, not for a time.
    for (;;) {
      const state = (await (
        await fetch(`${a.address}/api/crypto/payment-status/${payment.paymentId}`)
      ).json()) as { status: string };
      if (state.status === 'confirmed') break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const answers = await Promise.all(
      [a, b, a, b].map((instance) =>
        post(instance.address, '/api/crypto/generate-key', { paymentId: payment.paymentId }),
      ),
    );
    const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as {
      keyId: string;
    }[];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(bodies.map((body) => body.keyId)).size).toBe(1);
    const keys = await a.database.query<{ count: string }>(
      'SELECT count(*)::text AS count FROM keys',
    );
    expect(keys[0]!.count).toBe('1');
    const audit = await a.database.query<{ count: string }>(
      "SELECT count(*)::text AS count FROM audit_log WHERE action = 'key.purchase'",
    );
    expect(audit[0]!.count).toBe('1');
  });
});
