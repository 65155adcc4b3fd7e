/** The server speaks HTTPS and WSS itself when TLS_CERT and TLS_KEY are set, and reports its fingerprint. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';

describe('TLS', () => {
  let dir: string;
  let server: TestServer;
  let expected: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sc-tls-'));
    const cert = path.join(dir, 'cert.pem');
    const key = path.join(dir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    const output = execFileSync('openssl', [
      'x509',
      '-in',
      cert,
      '-noout',
      '-fingerprint',
      '-sha256',
    ]).toString();
    expected = output.split('=')[1]!.trim().replaceAll(':', '').toLowerCase();
    server = await startServer({ env: { TLS_CERT: cert, TLS_KEY: key } });
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
