/**
 * Run by tor-daemon.test.ts inside a loopback-only network namespace (never directly): starts the
 * real server with the real tor, drives it over HTTP as an admin and prints what it observed as
 * one `RESULT {json}` line. tor keeps `DisableNetwork 1` throughout.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startServer, TEST_ADMIN_PASSWORD } from '../../support/server.js';

const dataDir = process.env.SCENARIO_DATA_DIR!;
const server = await startServer({
  backend: 'pglite',
  env: { DATA_DIR: dataDir, TOR_BIN: process.env.SCENARIO_TOR_BIN!, LOG_LEVEL: 'warn' },
  // The onion service's self-test would run every 300 ms while connected; it never is here.
  deps: { torSelfTestIntervalMs: 300 },
});
const result: Record<string, unknown> = {};
const interfaces = execFileSync('ip', ['-o', 'link', 'show'], { encoding: 'utf8' });
result.interfaces = interfaces.trim().split('\n').length;

try {
  const token = (
    (await (
      await fetch(`${server.baseUrl}/api/admin/authenticate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ password: TEST_ADMIN_PASSWORD }),
      })
    ).json()) as { sessionToken: string }
  ).sessionToken;
  const call = async (method: string, route: string) => {
    const response = await fetch(`${server.baseUrl}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const status = async () => (await call('GET', '/api/tor/status')).body;
  const waitFor = async (check: (body: Record<string, unknown>) => boolean, ms: number) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const body = await status();
      if (check(body)) return body;
      if (Date.now() > deadline) return body;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  result.before = await status();
  result.start = await call('POST', '/api/tor/start');
  result.afterStart = await waitFor((body) => body.hiddenServiceReady === true, 20_000);
  result.publicStatus = await (await fetch(`${server.baseUrl}/api/tor/status`)).json();
  result.torrc = readFileSync(path.join(dataDir, 'tor', 'torrc'), 'utf8');
  result.hostnameFile = readFileSync(
    path.join(dataDir, 'tor', 'hidden_service', 'hostname'),
    'utf8',
  );
  result.logs = (await call('GET', '/api/tor/logs')).body;
  // DisableNetwork 1: no circuit, so the onion service neither tests itself nor counts reachable.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  result.afterSelfTestRounds = await status();
  result.manualTest = await call('POST', '/api/tor/test-hidden-service');

  result.restart = await call('POST', '/api/tor/restart');
  result.afterRestart = await waitFor((body) => body.hiddenServiceReady === true, 20_000);

  // tor dies: the server starts it again (first backoff 1 s) with the same onion key.
  const pid = Number(execFileSync('pgrep', ['-n', '-x', 'tor'], { encoding: 'utf8' }).trim());
  process.kill(pid, 'SIGKILL');
  await waitFor((body) => body.running === false, 5000);
  result.afterCrash = await waitFor(
    (body) => body.running === true && body.hiddenServiceReady === true,
    30_000,
  );
  result.afterCrashLogs = (await call('GET', '/api/tor/logs')).body;

  result.stop = await call('POST', '/api/tor/stop');
  result.afterStop = await status();
  result.torProcessesAfterStop = (() => {
    try {
      return execFileSync('pgrep', ['-x', 'tor'], { encoding: 'utf8' }).trim().split('\n').length;
    } catch {
      return 0; // pgrep exits 1 when nothing matches
    }
  })();
} catch (error) {
  result.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
} finally {
  await server.stop();
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}
