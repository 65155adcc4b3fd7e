/**
 * A free key on a network-facing fresh install (issue 31; DESIGN.md principle 11 and
 * "Payments"), over real HTTP against the real server.
 *
 * Until issue 31, PAYMENT_PROVIDER defaulted to the sandbox chain wherever the server listened,
 * so anyone who reached a fresh install got a registered `user` key in about 30 seconds:
 * generate-payment, "SIMULATE PAYMENT" (POST /api/crypto/sandbox/pay), three confirmations,
 * generate-key, download (now: her own key's public part, then generate-key registers it).
 * Mallory runs that script against:
 *
 * - fresh installs with PAYMENT_PROVIDER unset whose HOST is a network address (0.0.0.0, ::, a
 *   LAN address), or a loopback address that a proxy forwards the network to (TRUST_PROXY, as
 *   deploy/env.example sets up; TLS_CERT alone counts too, tests/unit/server/config.test.ts);
 * - a server that ran the old default, where she paid a sandbox invoice in time, after its
 *   operator set PAYMENT_PROVIDER=none or chose NOWPayments.
 *
 * Each test names what it proves: every step is refused, no payment row is written, and no key
 * is registered. The servers listen on 127.0.0.1 (port 0) here; HOST is what their configuration
 * says, and it alone decides the payment mode.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { PAYMENT_TEXT, type GeneratePaymentResponse } from '../../shared/protocol/http/payments.js';
import { buildServer } from '../../server/app.js';
import type { Database } from '../../server/db/connect.js';
import { freshDatabase, type TestDatabase } from '../support/database.js';
import { captureLogs } from '../support/logs.js';
import { submitBuyerKey } from '../support/purchase.js';
import { startServer, testConfig, type TestServer } from '../support/server.js';

const START = Date.parse('2026-04-01T09:00:00.000Z');
const UNKNOWN_PAYMENT = `pay_${'0'.repeat(64)}`;

interface Answer {
  status: number;
  error: unknown;
}

async function call(baseUrl: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let error: unknown = text;
  try {
    error = (JSON.parse(text) as { error?: unknown }).error;
  } catch {
    // The key file itself would not be JSON with an error: keep the text.
  }
  return { status: response.status, error };
}

async function count(database: Database, table: 'payments' | 'keys'): Promise<number> {
  const rows = await database.query<{ count: string }>(
    `SELECT count(*)::text AS count FROM ${table}`,
  );
  return Number(rows[0]!.count);
}

/**
 * Mallory's script: the old 30-second path to a key, every step tried whatever the one before
 * answered (with a made-up payment id when she got none). Returns each step's answer.
 */
async function tryFreeKey(baseUrl: string, wait: () => void): Promise<Record<string, Answer>> {
  const created = await fetch(`${baseUrl}/api/crypto/generate-payment`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ currency: 'BTC', minAmountUsd: 1000, username: 'mallory' }),
  });
  const createdBody = (await created.json()) as Record<string, unknown>;
  const paymentId =
    typeof createdBody.paymentId === 'string' ? createdBody.paymentId : UNKNOWN_PAYMENT;
  const amount = typeof createdBody.amount === 'string' ? createdBody.amount : '1';
  const pay = await call(baseUrl, '/api/crypto/sandbox/pay', { paymentId, amount });
  wait();
  const status = await call(baseUrl, `/api/crypto/payment-status/${paymentId}`);
  const purchaseKey = await call(baseUrl, '/api/crypto/purchase-key', { paymentId });
  const generate = await call(baseUrl, '/api/crypto/generate-key', { paymentId });
  return {
    create: { status: created.status, error: createdBody.error },
    pay,
    status,
    purchaseKey,
    generate,
  };
}

const REFUSED = { status: 503, error: PAYMENT_TEXT.purchasesUnavailable };

describe('a free key on a network-facing fresh install', () => {
  let clock = START;
  let server: TestServer | null = null;
  afterEach(async () => {
    await server?.stop();
    server = null;
  });

  it.each([
    ['HOST=0.0.0.0', { HOST: '0.0.0.0' }],
    ['HOST=::', { HOST: '::' }],
    ['HOST=192.168.1.20', { HOST: '192.168.1.20' }],
    ['HOST=127.0.0.1 behind a proxy (TRUST_PROXY)', { HOST: '127.0.0.1', TRUST_PROXY: 'loopback' }],
  ])(
    'refuses every step of the simulated-payment path on %s, writes no payment and registers no key',
    async (_name, where) => {
      // ALLOW_INSECURE_HTTP only lets plain HTTP start on a network address in the test; it has
      // no say in payments.
      server = await startServer({
        env: { ALLOW_INSECURE_HTTP: '1', SANDBOX_CONFIRMATION_SECONDS: '1', ...where },
        deps: { now: () => clock },
      });
      const keysBefore = await count(server.database, 'keys');

      const answers = await tryFreeKey(server.baseUrl, () => {
        clock += 60_000;
      });

      expect(answers).toEqual({
        create: REFUSED,
        // The simulated chain does not exist here at all.
        pay: { status: 404, error: expect.any(String) },
        status: REFUSED,
        purchaseKey: REFUSED,
        generate: REFUSED,
      });
      expect(await count(server.database, 'payments')).toBe(0);
      expect(await count(server.database, 'keys')).toBe(keysBefore);
      expect(server.logs.text()).toContain('key purchase: disabled');
    },
  );
});

describe('a sandbox payment made before the operator turned the sandbox off', () => {
  let clock = START;
  let database: TestDatabase | null = null;
  afterAll(async () => {
    await database?.cleanup();
  });

  /** A server on `shared`'s database, listening on 127.0.0.1; HOST comes from `env`. */
  async function serve(shared: TestDatabase, env: Record<string, string>) {
    const server = await buildServer(testConfig(env), {
      announce: () => undefined,
      now: () => clock,
      database: shared.database,
      logStream: captureLogs().stream,
    });
    const baseUrl = await server.app.listen({ port: 0, host: '127.0.0.1' });
    return { baseUrl, close: () => server.app.close() };
  }

  it('yields no key once the server sells no keys, nor once it sells them through NOWPayments', async () => {
    database = await freshDatabase('pglite');
    // The old default on a network address: Mallory opens and pays a sandbox invoice, and waits
    // for its confirmations, but has not asked for the key yet when the operator upgrades.
    const old = await serve(database, {
      HOST: '0.0.0.0',
      ALLOW_INSECURE_HTTP: '1',
      PAYMENT_PROVIDER: 'sandbox',
      SANDBOX_CONFIRMATION_SECONDS: '1',
    });
    const created = await fetch(`${old.baseUrl}/api/crypto/generate-payment`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ currency: 'BTC', minAmountUsd: 1000, username: 'mallory' }),
    });
    const payment = (await created.json()) as GeneratePaymentResponse;
    expect(created.status).toBe(200);
    // Her own key's public part is with the payment: only the registration is left.
    await submitBuyerKey(old.baseUrl, payment, new Date(clock));
    const pay = await call(old.baseUrl, '/api/crypto/sandbox/pay', {
      paymentId: payment.paymentId,
      amount: payment.amount,
    });
    expect(pay.status).toBe(200);
    clock += 60_000;
    const confirmed = await fetch(`${old.baseUrl}/api/crypto/payment-status/${payment.paymentId}`);
    expect(await confirmed.json()).toMatchObject({ status: 'confirmed' });
    await old.close();

    // Upgraded, PAYMENT_PROVIDER unset on the same address: no sales at all.
    const disabled = await serve(database, { HOST: '0.0.0.0', ALLOW_INSECURE_HTTP: '1' });
    const claim = { paymentId: payment.paymentId };
    expect(await call(disabled.baseUrl, '/api/crypto/generate-key', claim)).toEqual(REFUSED);
    expect(await call(disabled.baseUrl, '/api/crypto/purchase-key', claim)).toEqual(REFUSED);
    await disabled.close();

    // A real processor now: the sandbox payment is not one of its payments.
    const real = await serve(database, {
      HOST: '0.0.0.0',
      ALLOW_INSECURE_HTTP: '1',
      PAYMENT_PROVIDER: 'nowpayments',
      PAYMENT_API_KEY: 'test-api-key',
      PAYMENT_IPN_SECRET: 'test-ipn-secret',
      // Never contacted: the payment is refused before the processor would be asked.
      PAYMENT_API_URL: 'http://127.0.0.1:9/v1',
    });
    const notFound = { status: 404, error: PAYMENT_TEXT.paymentNotFound };
    expect(await call(real.baseUrl, `/api/crypto/payment-status/${payment.paymentId}`)).toEqual(
      notFound,
    );
    expect(await call(real.baseUrl, '/api/crypto/generate-key', claim)).toEqual(notFound);
    expect(
      (await call(real.baseUrl, '/api/crypto/purchase-key', { ...claim, publicKey: null })).status,
    ).toBe(400);
    expect(
      (
        await call(real.baseUrl, '/api/crypto/sandbox/pay', {
          paymentId: payment.paymentId,
          amount: payment.amount,
        })
      ).status,
    ).toBe(404);
    await real.close();

    expect(await count(database.database, 'keys')).toBe(0);
  });
});
