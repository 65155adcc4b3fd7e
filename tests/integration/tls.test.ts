/** The server speaks HTTPS and WSS itself when TLS_CERT and TLS_KEY are set, and reports its fingerprint. */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSelfSignedCertificate } from '../support/certs.js';
import { startServer, type TestServer } from '../support/server.js';

describe('TLS', () => {
  let dir: string;
  let server: TestServer;
  let expected: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sc-tls-'));
    const certificate = makeSelfSignedCertificate(dir, '127.0.0.1');
    expected = certificate.fingerprint;
    server = await startServer({
      env: { TLS_CERT: certificate.cert, TLS_KEY: certificate.key },
    });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const getJson = (url: string) =>
    new Promise<unknown>((resolve, reject) => {
      request(url, { rejectUnauthorized: false }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve(JSON.parse(body)));
      })
        .on('error', reject)
        .end();
    });

  it('serves HTTPS with the fingerprint of its certificate', async () => {
    expect(server.baseUrl).toMatch(/^https:/);
    expect(await getJson(`${server.baseUrl}/api/certificate-info`)).toMatchObject({
      fingerprint: expected,
      source: 'tls',
      tls: true,
    });
  });

  it('accepts WSS on the chat socket', async () => {
    const socket = new WebSocket(`${server.baseUrl.replace('https', 'wss')}/chat-ws`, {
      rejectUnauthorized: false,
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    socket.close();
  });
});
