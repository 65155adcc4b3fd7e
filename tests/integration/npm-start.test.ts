/**
 * `npm start` (scripts/start.mjs) runs the server compiled to JavaScript (dist-server/, issue 22
 * target 6): it builds what is missing or stale, serves the app on the embedded database, and
 * drains on SIGTERM.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, startServerProcess, type ServerProcess } from '../support/processes.js';

describe('npm start', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sc-npm-start-'));
  let server: ServerProcess | null = null;

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the compiled server on the embedded database and stops cleanly on SIGTERM', async () => {
    server = await startServerProcess(
      { DATA_DIR: dataDir, HOST: '127.0.0.1', ADMIN_PASSWORD: 'npm-start-test-password' },
      120_000,
      ['scripts/start.mjs'],
    );
    expect(existsSync(path.join(ROOT, 'dist-server/server/main.js'))).toBe(true);
    // The staleness check says the compiled server is up to date with server/ and shared/.
    const { isServerBuildStale } = (await import(path.join(ROOT, 'scripts/build-server.mjs'))) as {
      isServerBuildStale: () => boolean;
    };
    expect(isServerBuildStale()).toBe(false);

    const ping = await fetch(`${server.url}/api/ping`);
    expect(ping.status).toBe(200);
    expect(server.output()).toContain('"database":"pglite"');

    const code = await server.stop('SIGTERM');
    server = null;
    expect(code).toBe(0);
  }, 180_000);
});
