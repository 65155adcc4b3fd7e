/**
 * The bounded queue of login verifications (issue 22, target 2) over real HTTP: past the bound,
 * per visitor (address) and for everyone together, a verification is refused at once with 503 and
 * Retry-After, and a place comes back once an answer has gone out. A verification holds its place
 * from its headers on, so the test holds places by sending headers and only part of a body; the
 * bounds are tiny (1 per visitor, 2 in all) so that every answer is determined, with no timing.
 */
import { request, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT } from '../../shared/protocol/errors.js';
import { login, makeRegisteredKey } from '../support/keys.js';
import { startServer, type TestServer } from '../support/server.js';

interface Answer {
  status: number;
  retryAfter: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

const INVALID_BODY = JSON.stringify({ keyId: 'nope' });

describe('login verification queue', () => {
  let server: TestServer;
  let port: number;
  const held: ClientRequest[] = [];

  beforeAll(async () => {
    server = await startServer({
      deps: {
        loginRatePerMinute: 10_000,
        loginVerification: { workers: 1, maxPending: 2, maxPendingPerVisitor: 1 },
      },
    });
    port = Number(new URL(server.baseUrl).port);
  });
  afterAll(async () => {
    for (const pending of held) pending.destroy();
    await server.stop();
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

  /** A verify request from `address` whose body never ends: it holds a place until finished. */
  const holdFrom = (address: string) => {
    const body = INVALID_BODY;
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
    req.write(body.slice(0, 5));
    held.push(req);
    return { finish: () => req.end(body.slice(5)), answered };
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
    const first = holdFrom('127.0.0.1');
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
    first.finish();
    expect(await first.answered).toBe(400);
    await expect.poll(async () => (await verifyFrom('127.0.0.1')).status).toBe(400);
  });

  it('refuses everyone once the global bound is reached', async () => {
    const a = holdFrom('127.0.0.3');
    await refusedFrom('127.0.0.3');
    const b = holdFrom('127.0.0.4');
    await refusedFrom('127.0.0.4');
    const refused = await verifyFrom('127.0.0.5');
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toMatch(/^[1-9]\d*$/);

    a.finish();
    b.finish();
    expect(await a.answered).toBe(400);
    expect(await b.answered).toBe(400);
    await expect.poll(async () => (await verifyFrom('127.0.0.5')).status).toBe(400);
  });

  it('lets a whole login through once there is room', async () => {
    const key = await makeRegisteredKey(server.baseUrl, { username: 'queued' });
    const result = await login(server.baseUrl, key);
    expect(result.status).toBe(200);
  });
});
