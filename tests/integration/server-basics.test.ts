/** Ping, OpenAPI, metrics, security headers, the SPA fallback and log redaction. */
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PingSchema } from '../../shared/protocol/http/system.js';
import { startServer, type TestServer } from '../support/server.js';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';

describe('server basics', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { METRICS_TOKEN } });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('answers /api/ping with ok and the time', async () => {
    const response = await fetch(`${server.baseUrl}/api/ping`);
    expect(response.status).toBe(200);
    expect(PingSchema.parse(await response.json()).ok).toBe(true);
  });

  it('publishes an OpenAPI document generated from the route schemas', async () => {
    const document = (await (await fetch(`${server.baseUrl}/api/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/ping',
        '/api/default-room',
        '/api/rooms',
        '/api/rooms/{idOrSecureId}',
      ]),
    );
  });

  it('protects /metrics with the bearer token', async () => {
    expect((await fetch(`${server.baseUrl}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${server.baseUrl}/metrics`, {
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.status).toBe(401);
    const ok = await fetch(`${server.baseUrl}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(ok.status).toBe(200);
    const text = await ok.text();
    expect(text).toContain('securechannel_ws_connections');
    expect(text).toContain('securechannel_http_request_duration_seconds');
  });

  it('answers every request of a burst, paced, and counts the ones that waited', async () => {
    const burst = 64;
    const agent = new Agent({ keepAlive: true, maxSockets: burst });
    const ping = () =>
      new Promise<number>((resolve, reject) => {
        request(`${server.baseUrl}/api/ping`, { agent }, (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        })
          .on('error', reject)
          .end();
      });
    try {
      // The connections first, then every request on them at once.
      await Promise.all(Array.from({ length: burst }, ping));
      const statuses = await Promise.all(Array.from({ length: burst }, ping));
      expect(statuses).toEqual(Array.from({ length: burst }, () => 200));
    } finally {
      agent.destroy();
    }
    const metrics = await (
      await fetch(`${server.baseUrl}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      })
    ).text();
    const deferred = /^securechannel_http_requests_deferred_total (\d+)$/m.exec(metrics);
    expect(Number(deferred?.[1])).toBeGreaterThan(0);
    expect(metrics).toMatch(/^securechannel_http_requests_waiting 0$/m);
  });

  it('sends security headers with a strict content security policy', async () => {
    const response = await fetch(`${server.baseUrl}/api/ping`);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('answers unknown API paths with 404 and an error body, not the page', async () => {
    const response = await fetch(`${server.baseUrl}/api/does-not-exist`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'Not found' });
  });

  it('serves the client page for client routes', async () => {
    const response = await fetch(`${server.baseUrl}/chat/${'a'.repeat(64)}`);
    // The page is served when the client is built (npm test builds it first).
    expect([200, 503]).toContain(response.status);
    if (response.status === 200) expect(await response.text()).toContain('<div id="root">');
  });

  it('answers malformed JSON bodies with 400 and an error body', async () => {
    const response = await fetch(`${server.baseUrl}/api/rooms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(await response.json()).toHaveProperty('error');
  });

  it('refuses prototype-poisoning keys and bad syntax in large JSON bodies too', async () => {
    const padding = 'x'.repeat(6000);
    const post = (body: string) =>
      fetch(`${server.baseUrl}/api/auth/verify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    for (const body of [
      `{"pad":"${padding}","__proto__":{"admin":true}}`,
      `{"pad":"${padding}","\\u005f_proto__":{"admin":true}}`,
      `{"pad":"${padding}","constructor":{"prototype":{"admin":true}}}`,
      `{"pad":"${padding}",`,
    ]) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect(await response.json()).toHaveProperty('error');
    }
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    // A large, clean body is parsed and reaches validation.
    const clean = await post(`{"keyId":"SCK${'0'.repeat(32)}","pad":"${padding}"}`);
    expect(clean.status).toBe(400);
    expect(JSON.stringify(await clean.json())).not.toMatch(/prototype|JSON/);
  });

  it('never logs bearer tokens or query values', async () => {
    await fetch(`${server.baseUrl}/room/${'b'.repeat(64)}?auth=invite-secret-value`, {
      headers: { authorization: 'Bearer session-secret-value' },
    });
    const logs = server.logs.text();
    expect(logs).toContain('/room/');
    expect(logs).not.toContain('invite-secret-value');
    expect(logs).not.toContain('session-secret-value');
  });
});

describe('metrics without a token', () => {
  it('is off unless METRICS_TOKEN is set', async () => {
    const server = await startServer();
    try {
      expect((await fetch(`${server.baseUrl}/metrics`)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});
