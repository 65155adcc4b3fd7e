/**
 * The bounded queue of login verifications (issue 22, target 2) over real HTTP: past the bound,
 * per visitor (address) and for everyone together, a verification is refused at once with 503 and
 * Retry-After, and a place comes back once an answer has gone out. A verification takes its place
 * once its whole body has arrived (issue 31), so the test holds places with complete verifications
 * that a verify worker keeps waiting until the test releases them
 * (tests/fixtures/fakes/held-verify-worker.mjs); the bounds are tiny (1 per visitor, 2 in all) so
 * that every answer is determined, with no timing.
 *
 * Then slow clients (issue 31): requests that send headers and part of a body, or part of their
 * headers, and then nothing, take no place, do not stop an honest login from the same address,
 * and are cut at the server's deadlines (shortened here), while a chat socket stays open.
 */
import { request, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyFile } from '../../shared/crypto/key-file-schema.js';
import { TEXT } from '../../shared/protocol/errors.js';
import { login, makeRegisteredKey } from '../support/keys.js';
import { startServer, type TestServer } from '../support/server.js';
import { TestSocket } from '../support/ws-client.js';

interface Answer {
  status: number;
  retryAfter: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

const INVALID_BODY = JSON.stringify({ keyId: 'nope' });

const HELD_WORKER = new URL('../fixtures/fakes/held-verify-worker.mjs', import.meta.url);
/** While present, the held worker answers (held-verify-worker.mjs); while absent, it holds. */
const RELEASE_FILE = path.join(tmpdir(), `held-verify-release-${process.pid}`);
const releaseHeld = () => writeFileSync(RELEASE_FILE, '');
const holdVerifications = () => rmSync(RELEASE_FILE, { force: true });

describe('login verification queue', () => {
  let server: TestServer;
  let port: number;
  let key: KeyFile;
  const held: ClientRequest[] = [];

  beforeAll(async () => {
    server = await startServer({
      deps: {
        loginRatePerMinute: 10_000,
        loginVerification: {
          workers: 1,
          maxPending: 2,
          maxPendingPerVisitor: 1,
          workerUrl: HELD_WORKER,
        },
      },
    });
    port = Number(new URL(server.baseUrl).port);
    key = await makeRegisteredKey(server.baseUrl, { username: 'held' });
  });
  afterAll(async () => {
    releaseHeld();
    for (const pending of held) pending.destroy();
    await server.stop();
    // Once the server has stopped, nothing reads the file.
    holdVerifications();
  });

  /** A whole verify request from `address` (its body is refused as invalid once admitted). */
  const verifyFrom = (address: string, body = INVALID_BODY) =>
    new Promise<Answer>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          localAddress: address,
          method: 'POST',
          path: '/api/auth/verify',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              retryAfter: response.headers['retry-after'],
              headers: response.headers,
              body: text,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  /**
   * A complete verification from `address`, for a fresh challenge and signatures of the right
   * sizes: it reaches the verify worker, which holds it until `release` (then 401).
   */
  const holdFrom = async (address: string) => {
    const challenge = await fetch(`${server.baseUrl}/api/auth/challenge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ keyId: key.keyId }),
    });
    const body = JSON.stringify({
      keyId: key.keyId,
      challenge: ((await challenge.json()) as { challenge: string }).challenge,
      dilithiumSignature: Array<number>(3309).fill(0),
      ecdsaSignature: Array<number>(64).fill(0),
    });
    const req = request({
      host: '127.0.0.1',
      port,
      localAddress: address,
      method: 'POST',
      path: '/api/auth/verify',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    req.on('error', () => undefined);
    const answered = new Promise<number>((resolve) =>
      req.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      }),
    );
    req.end(body);
    held.push(req);
    return { answered };
  };

  /** Polls until the server has admitted the held request: the next one is then refused. */
  const refusedFrom = async (address: string) => {
    let answer: Answer | null = null;
    await expect
      .poll(async () => {
        answer = await verifyFrom(address);
        return answer.status;
      })
      .toBe(503);
    return answer as unknown as Answer;
  };

  it('refuses a second verification from one visitor with 503 and Retry-After', async () => {
    holdVerifications();
    const first = await holdFrom('127.0.0.1');
    const refused = await refusedFrom('127.0.0.1');
    expect(refused.retryAfter).toMatch(/^[1-9]\d*$/);
    expect(JSON.parse(refused.body)).toEqual({ error: TEXT.loginBusy });
    // Refused in front of Fastify, with the headers every answer carries.
    expect(refused.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(refused.headers['content-security-policy']).toContain("default-src 'self'");
    expect(refused.headers['permissions-policy']).toContain('camera=()');
    expect(refused.headers['x-content-type-options']).toBe('nosniff');
    expect(refused.headers['x-frame-options']).toBe('SAMEORIGIN');

    // Another visitor still has room under the global bound.
    expect((await verifyFrom('127.0.0.2')).status).toBe(400);

    // Once the first has its answer, its place is free again.
    releaseHeld();
    expect(await first.answered).toBe(401);
    await expect.poll(async () => (await verifyFrom('127.0.0.1')).status).toBe(400);
  });

  it('refuses everyone once the global bound is reached', async () => {
    holdVerifications();
    const a = await holdFrom('127.0.0.3');
    await refusedFrom('127.0.0.3');
    const b = await holdFrom('127.0.0.4');
    await refusedFrom('127.0.0.4');
    const refused = await verifyFrom('127.0.0.5');
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toMatch(/^[1-9]\d*$/);

    releaseHeld();
    expect(await a.answered).toBe(401);
    expect(await b.answered).toBe(401);
    await expect.poll(async () => (await verifyFrom('127.0.0.5')).status).toBe(400);
  });

  it('does not count a verification whose body has not all arrived', async () => {
    const body = INVALID_BODY;
    const partial = request({
      host: '127.0.0.1',
      port,
      localAddress: '127.0.0.6',
      method: 'POST',
      path: '/api/auth/verify',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    partial.on('error', () => undefined);
    held.push(partial);
    partial.write(body.slice(0, 5));
    // Its visitor's one place is still free: a whole request from the same address is answered.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await verifyFrom('127.0.0.6')).status).toBe(400);
    expect((await verifyFrom('127.0.0.6')).status).toBe(400);
  });
});

/** Shortened deadlines, so that the test sees the cuts in seconds. */
const TIMEOUTS = { headersMs: 1_000, requestMs: 2_000, idleSocketMs: 5_000, keepAliveMs: 1_000 };

describe('slow clients against the login routes', () => {
  let server: TestServer;
  let port: number;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    server = await startServer({
      deps: {
        loginRatePerMinute: 10_000,
        // Before issue 31, a visitor's first two idle requests took both of its places.
        loginVerification: { maxPending: 4, maxPendingPerVisitor: 2 },
        httpTimeouts: TIMEOUTS,
      },
    });
    port = Number(new URL(server.baseUrl).port);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await server.stop();
  });

  /** A raw connection from 127.0.0.1 that writes `text` and then nothing; resolves when closed. */
  const idle = (text: string) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: '127.0.0.1' });
    sockets.push(socket);
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    const closed = new Promise<{ answer: string; at: number }>((resolve) =>
      socket.on('close', () => resolve({ answer, at: Date.now() })),
    );
    socket.write(text);
    return closed;
  };
  const partialBody = (path: string) =>
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
    'Content-Length: 15000\r\n\r\n{"keyId":';

  it('logs an honest visitor in while its address holds idle partial requests, then cuts them', async () => {
    const started = Date.now();
    const bodies = Array.from({ length: 24 }, (_, i) =>
      idle(partialBody(i % 3 === 0 ? '/api/auth/challenge' : '/api/auth/verify')),
    );
    const headers = Array.from({ length: 8 }, () =>
      idle('POST /api/auth/verify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-'),
    );
    const chat = await TestSocket.connect(server.wsUrl(), { localAddress: '127.0.0.1' });

    // Same address, after the idle requests have arrived.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const key = await makeRegisteredKey(server.baseUrl, { username: 'honest' });
    const result = await login(server.baseUrl, key);
    expect(result.status).toBe(200);

    // Each idle request is closed within its deadline (plus the check interval and some slack),
    // bodies with 408 Request Timeout.
    const cut = await Promise.all([...bodies, ...headers]);
    for (const { at } of cut) expect(at - started).toBeLessThan(TIMEOUTS.requestMs + 3_000);
    for (const { answer } of cut.slice(0, bodies.length)) expect(answer).toMatch(/^HTTP\/1\.1 408/);

    // A chat socket is not an HTTP request: past every deadline it still answers.
    expect(Date.now() - started).toBeGreaterThan(TIMEOUTS.requestMs);
    expect(chat.closeCode).toBeNull();
    chat.send({ type: 'no_such_frame' });
    expect((await chat.next((frame) => frame.type === 'error')).type).toBe('error');
    chat.close();
  });

  it('lets a whole login through once there is room', async () => {
    const key = await makeRegisteredKey(server.baseUrl, { username: 'queued' });
    const result = await login(server.baseUrl, key);
    expect(result.status).toBe(200);
  });
});
