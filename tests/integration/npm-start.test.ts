/**
 * `npm start` (scripts/start.sh, then scripts/start.mjs) runs the server compiled to JavaScript
 * (dist-server/, issue 22 target 6): it builds what is missing or stale, serves the app on the
 * embedded database, and drains on SIGTERM; on one CPU, Node runs with --single-threaded-gc.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

  it('starts Node with --single-threaded-gc on one CPU, and as it is on more', () => {
    const script = path.join(dataDir, 'print-node-args.mjs');
    writeFileSync(script, 'console.log(JSON.stringify(process.execArgv))\n');
    const startWith = (prefix: string[], args: string[]) => {
      const [command = 'sh', ...rest] = [...prefix, 'sh', 'scripts/start.sh', ...args];
      const output = execFileSync(command, rest, {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', NODE: process.execPath },
        encoding: 'utf8',
      });
      return JSON.parse(output) as string[];
    };
    // taskset gives the process one CPU, as a one-CPU machine or a container's CPU set would.
    expect(startWith(['taskset', '-c', '0'], [script])).toEqual(['--single-threaded-gc']);
    expect(startWith(['taskset', '-c', '0'], ['--expose-gc', script])).toEqual([
      '--single-threaded-gc',
      '--expose-gc',
    ]);
    if (os.availableParallelism() > 1) expect(startWith([], [script])).toEqual([]);
  });
});
