/**
 * The client's hashed files are counted apart from the rest of the HTTP limit: a visitor who has
 * used up its 1,000 requests a minute still loads the page's chunks, and the chunks have a bound
 * of their own (ASSET_REQUESTS_PER_MINUTE).
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSET_REQUESTS_PER_MINUTE, HTTP_REQUESTS_PER_MINUTE } from '../../server/app.js';
import { startServer, type TestServer } from '../support/server.js';

describe('the HTTP limit and the client files', () => {
  let server: TestServer;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sc-asset-limit-'));
    const clientDist = path.join(dataDir, 'client');
    await mkdir(path.join(clientDist, 'assets'), { recursive: true });
    await writeFile(path.join(clientDist, 'index.html'), '<!doctype html><div id="root"></div>');
    await writeFile(path.join(clientDist, 'assets', 'app-1234abcd.js'), 'console.log(1);');
    server = await startServer({
      env: { DATA_DIR: path.join(dataDir, 'data'), CLIENT_DIST: clientDist },
    });
  }, 120_000);
  afterAll(async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** One request from `remoteAddress`, in process (no sockets): its status. */
  const status = async (url: string, remoteAddress: string) =>
    (await server.app.inject({ method: 'GET', url, remoteAddress })).statusCode;

  it('serves the page chunks to a visitor past its request limit', async () => {
    const visitor = '198.51.100.7';
    for (let i = 0; i < HTTP_REQUESTS_PER_MINUTE; i++)
      expect(await status('/api/ping', visitor)).toBe(200);
    const refused = await server.app.inject({
      method: 'GET',
      url: '/api/ping',
      remoteAddress: visitor,
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: 'Too many requests' });

    expect(await status('/assets/app-1234abcd.js', visitor)).toBe(200);
    expect(await status('/api/ping', visitor)).toBe(429);
    // Another visitor is untouched.
    expect(await status('/api/ping', '198.51.100.8')).toBe(200);
  }, 120_000);

  it('bounds the chunks one visitor may fetch in a minute', async () => {
    const visitor = '198.51.100.9';
    for (let i = 0; i < ASSET_REQUESTS_PER_MINUTE; i++) {
      const code = await status('/assets/app-1234abcd.js', visitor);
      if (code !== 200) expect.fail(`request ${i + 1} answered ${code}`);
    }
    expect(await status('/assets/app-1234abcd.js', visitor)).toBe(429);
    // Its other requests have their own count.
    expect(await status('/api/ping', visitor)).toBe(200);
  }, 120_000);
});
