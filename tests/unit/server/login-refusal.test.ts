/**
 * The early refusal of login verifications in front of Fastify's handler
 * (server/features/auth/login-refusal.ts) and the security headers it writes
 * (server/plugins/security-headers.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import helmet from 'helmet';
import { afterEach, describe, expect, it } from 'vitest';
import { TEXT } from '../../../shared/protocol/errors.js';
import { refuseBusyLoginsEarly, VERIFY_PATH } from '../../../server/features/auth/login-refusal.js';
import {
  contentSecurityPolicy,
  PERMISSIONS_POLICY,
  securityHeaderWriter,
} from '../../../server/plugins/security-headers.js';

const OPTIONS = { tls: false, allowedOrigins: ['http://example.onion'] };

/** A response stand-in that records what is written to it. */
function recordingResponse() {
  const headers = new Map<string, string>();
  const removed: string[] = [];
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.set(name.toLowerCase(), String(value));
      return response;
    },
    removeHeader(name: string) {
      removed.push(name.toLowerCase());
    },
  };
  return { headers, removed, response: response as unknown as ServerResponse };
}

describe('security headers', () => {
  it("writes helmet's headers, the policy for the request's host and the Permissions-Policy", () => {
    const expected = recordingResponse();
    helmet({
      contentSecurityPolicy: false,
      strictTransportSecurity: false,
      crossOriginEmbedderPolicy: false,
    })({} as IncomingMessage, expected.response, () => undefined);

    const write = securityHeaderWriter(OPTIONS);
    for (const host of ['a.example:3000', 'b.example', 'a.example:3000', undefined]) {
      const written = recordingResponse();
      write(written.response, host);
      for (const [name, value] of expected.headers) expect(written.headers.get(name)).toBe(value);
      expect(written.removed).toEqual(expected.removed);
      expect(written.headers.get('content-security-policy')).toBe(
        contentSecurityPolicy(OPTIONS, host),
      );
      expect(written.headers.get('permissions-policy')).toBe(PERMISSIONS_POLICY);
    }
  });

  it('keeps building the policy for hosts past the cache', () => {
    const write = securityHeaderWriter(OPTIONS);
    for (let index = 0; index < 200; index += 1) {
      const written = recordingResponse();
      write(written.response, `host-${index}.example`);
      expect(written.headers.get('content-security-policy')).toContain(
        `ws://host-${index}.example`,
      );
    }
  });
});

describe('early login refusal', () => {
  const servers: ReturnType<typeof createServer>[] = [];
  afterEach(async () => {
    await Promise.all(
      servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))),
    );
  });

  /** A server whose own handler answers 200 "handled", behind the early refusal. */
  async function serve(refusal: (visitor: string | null) => number | null, peerVisitor = true) {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      response.end('handled');
    });
    const upgrade = () => undefined;
    server.on('upgrade', upgrade);
    refuseBusyLoginsEarly(server, {
      admission: { refusal },
      writeSecurityHeaders: securityHeaderWriter(OPTIONS),
      visitorOf: peerVisitor ? (request) => request.socket.remoteAddress ?? null : () => null,
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    return { url: `http://127.0.0.1:${address.port}`, seen, server, upgrade };
  }

  it('answers 503 with Retry-After, the JSON error and the security headers while full', async () => {
    const visitors: (string | null)[] = [];
    const { url, seen } = await serve((visitor) => {
      visitors.push(visitor);
      return 7;
    });
    const response = await fetch(`${url}${VERIFY_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ keyId: 'x' }),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(response.headers.get('permissions-policy')).toBe(PERMISSIONS_POLICY);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.json()).toEqual({ error: TEXT.loginBusy });
    expect(seen).toEqual([]);
    expect(visitors).toEqual(['127.0.0.1']);
  });

  it('hands everything else to the server’s own handler', async () => {
    const { url, seen } = await serve((visitor) => (visitor === null ? 1 : null), true);
    expect((await fetch(`${url}${VERIFY_PATH}`, { method: 'POST', body: '{}' })).status).toBe(200);
    expect((await fetch(`${url}/api/auth/challenge`, { method: 'POST', body: '{}' })).status).toBe(
      200,
    );
    expect((await fetch(`${url}${VERIFY_PATH}`)).status).toBe(200);
    expect(seen).toEqual([`POST ${VERIFY_PATH}`, 'POST /api/auth/challenge', `GET ${VERIFY_PATH}`]);
  });

  it('checks only the global bound when the visitor cannot be told from the socket', async () => {
    const visitors: (string | null)[] = [];
    const { url } = await serve((visitor) => {
      visitors.push(visitor);
      return null;
    }, false);
    await fetch(`${url}${VERIFY_PATH}`, { method: 'POST', body: '{}' });
    expect(visitors).toEqual([null]);
  });

  it('leaves the other listeners alone and keeps one request listener', async () => {
    const { server, upgrade } = await serve(() => null);
    expect(server.listeners('request')).toHaveLength(1);
    expect(server.listeners('upgrade')).toEqual([upgrade]);
  });
});
