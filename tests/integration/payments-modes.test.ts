/**
 * Which payment mode a server runs in, and what each mode answers (issue 31; DESIGN.md
 * principle 11 and "Payments"), over real HTTP. The servers listen on 127.0.0.1 (port 0); the
 * configured HOST alone decides the mode when PAYMENT_PROVIDER is unset.
 *
 * - PAYMENT_PROVIDER unset on a network address: no key sales. Availability says so; every other
 *   purchase route answers 503 `Key purchases are not available on this server` before reading
 *   its input; the sandbox pay and IPN routes do not exist; nothing is stored.
 * - PAYMENT_PROVIDER=none on loopback: the same.
 * - PAYMENT_PROVIDER=sandbox on a network address: the operator's explicit choice works, with a
 *   warning at start-up.
 * Each server states its mode in one start-up line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PAYMENT_TEXT,
  PurchaseAvailabilitySchema,
  type GeneratePaymentResponse,
} from '../../shared/protocol/http/payments.js';
import { buyerName, submitBuyerKey } from '../support/purchase.js';
import { startServer, type TestServer } from '../support/server.js';

const START = Date.parse('2026-04-01T09:00:00.000Z');
const PAYMENT_ID = `pay_${'ab'.repeat(32)}`;
const REFUSED = { status: 503, body: { error: PAYMENT_TEXT.purchasesUnavailable } };

async function send(
  server: TestServer,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: response.status, body: text };
  }
}

async function countRows(server: TestServer, table: 'payments' | 'keys'): Promise<number> {
  const rows = await server.database.query<{ count: string }>(
    `SELECT count(*)::text AS count FROM ${table}`,
  );
  return Number(rows[0]!.count);
}

/** The start-up lines that state the payment mode (pino JSON lines with `paymentMode`). */
function modeLines(server: TestServer): { level: number; paymentMode: string; msg: string }[] {
  return server.logs.lines
    .map((line) => JSON.parse(line) as { level: number; paymentMode?: string; msg: string })
    .filter((line): line is { level: number; paymentMode: string; msg: string } =>
      Boolean(line.paymentMode),
    );
}

async function availability(server: TestServer) {
  const response = await fetch(`${server.baseUrl}/api/crypto/availability`);
  expect(response.status).toBe(200);
  return PurchaseAvailabilitySchema.parse(await response.json());
}

describe('a fresh install on a network address (PAYMENT_PROVIDER unset) sells no keys', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { HOST: '0.0.0.0', ALLOW_INSECURE_HTTP: '1' } });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('says so on GET /api/crypto/availability and in one start-up line', async () => {
    expect(await availability(server)).toEqual({ available: false, provider: 'none' });
    const lines = modeLines(server);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ paymentMode: 'disabled', level: 30 });
    expect(lines[0]!.msg).toContain('PAYMENT_PROVIDER is unset');
  });

  it('answers every purchase route with 503 before reading its input, and stores nothing', async () => {
    const answers = {
      prices: await send(server, 'GET', '/api/crypto/prices'),
      create: await send(server, 'POST', '/api/crypto/generate-payment', {
        currency: 'BTC',
        minAmountUsd: 75,
      }),
      // Bad input too: the refusal comes before any parsing.
      createBadBody: await send(server, 'POST', '/api/crypto/generate-payment', { x: 1 }),
      status: await send(server, 'GET', `/api/crypto/payment-status/${PAYMENT_ID}`),
      statusBadId: await send(server, 'GET', '/api/crypto/payment-status/nonsense'),
      generateKey: await send(server, 'POST', '/api/crypto/generate-key', {
        paymentId: PAYMENT_ID,
      }),
      purchaseKey: await send(server, 'POST', '/api/crypto/purchase-key', {
        paymentId: PAYMENT_ID,
      }),
    };
    for (const [route, answer] of Object.entries(answers)) expect(answer, route).toEqual(REFUSED);
    // The simulated chain and the processor's callback do not exist in this mode.
    const pay = await send(server, 'POST', '/api/crypto/sandbox/pay', {
      paymentId: PAYMENT_ID,
      amount: '1',
    });
    expect(pay.status).toBe(404);
    const ipn = await send(server, 'POST', '/api/crypto/ipn', { payment_id: 1 });
    expect(ipn.status).toBe(404);
    expect(await countRows(server, 'payments')).toBe(0);
    expect(await countRows(server, 'keys')).toBe(0);
  });
});

describe('PAYMENT_PROVIDER=none on loopback', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { PAYMENT_PROVIDER: 'none' } });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('sells no keys either, and says it was chosen', async () => {
    expect(await availability(server)).toEqual({ available: false, provider: 'none' });
    expect(
      await send(server, 'POST', '/api/crypto/generate-payment', {
        currency: 'ETH',
        minAmountUsd: 250,
      }),
    ).toEqual(REFUSED);
    expect((await send(server, 'POST', '/api/crypto/sandbox/pay', {})).status).toBe(404);
    expect(await countRows(server, 'payments')).toBe(0);
    expect(modeLines(server)).toEqual([
      expect.objectContaining({
        paymentMode: 'disabled',
        msg: 'key purchase: disabled (PAYMENT_PROVIDER=none): this server sells no keys',
      }),
    ]);
  });
});

describe('PAYMENT_PROVIDER=sandbox chosen explicitly on a network address', () => {
  let server: TestServer;
  let clock = START;
  beforeAll(async () => {
    server = await startServer({
      env: {
        HOST: '0.0.0.0',
        ALLOW_INSECURE_HTTP: '1',
        PAYMENT_PROVIDER: 'sandbox',
        SANDBOX_CONFIRMATION_SECONDS: '1',
      },
      deps: { now: () => clock },
    });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('warns at start-up that anyone can get a key', async () => {
    expect(await availability(server)).toEqual({ available: true, provider: 'sandbox' });
    const lines = modeLines(server);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ paymentMode: 'sandbox', level: 40 });
    expect(lines[0]!.msg).toContain('reachable from the network');
  });

  it('still takes an honest sandbox payment to a registered key', async () => {
    const keysBefore = await countRows(server, 'keys');
    const created = await send(server, 'POST', '/api/crypto/generate-payment', {
      currency: 'BTC',
      minAmountUsd: 75,
      username: buyerName(),
    });
    expect(created.status).toBe(200);
    const payment = created.body as GeneratePaymentResponse;
    expect(payment.sandbox).toBe(true);
    const keyFile = await submitBuyerKey(server.baseUrl, payment, new Date(clock));
    const pay = await send(server, 'POST', '/api/crypto/sandbox/pay', {
      paymentId: payment.paymentId,
      amount: payment.amount,
    });
    expect(pay.status).toBe(200);
    clock += 10_000;
    const status = await send(server, 'GET', `/api/crypto/payment-status/${payment.paymentId}`);
    expect(status.body).toMatchObject({ status: 'confirmed', confirmations: 3 });
    const key = await send(server, 'POST', '/api/crypto/generate-key', {
      paymentId: payment.paymentId,
    });
    expect(key.status).toBe(200);
    expect((key.body as { keyId: string }).keyId).toBe(keyFile.keyId);
    expect(await countRows(server, 'payments')).toBe(1);
    expect(await countRows(server, 'keys')).toBe(keysBefore + 1);
  });
});
