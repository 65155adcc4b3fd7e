/**
 * On a terminal the server logs human lines and no per-request lines at info (issue 33); off a
 * terminal, or with LOG_FORMAT=json, every request is a JSON line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.stop();
  server = null;
});

async function pingAndReadLogs(options: Parameters<typeof startServer>[0]): Promise<string[]> {
  server = await startServer(options);
  const answer = await fetch(`${server.baseUrl}/api/ping`);
  expect(answer.status).toBe(200);
  await server.app.close();
  return server.logs.lines;
}

describe('log format', () => {
  it('logs each request as JSON off a terminal', async () => {
    const lines = await pingAndReadLogs({ deps: { isInteractive: false } });
    const parsed = lines.map((line) => JSON.parse(line) as { msg?: string });
    expect(parsed.some((entry) => entry.msg === 'request completed')).toBe(true);
  });

  it('on a terminal writes human lines and leaves requests to debug', async () => {
    const lines = await pingAndReadLogs({ deps: { isInteractive: true } });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => /^\d\d:\d\d:\d\d [A-Z]+ /.test(line))).toBe(true);
    expect(lines.join('\n')).not.toContain('request completed');
  });

  it('on a terminal at LOG_LEVEL=debug shows the requests as human lines', async () => {
    const lines = await pingAndReadLogs({
      env: { LOG_LEVEL: 'debug' },
      deps: { isInteractive: true },
    });
    expect(lines.some((line) => /DEBUG request completed/.test(line))).toBe(true);
  });

  it('keeps JSON on a terminal with LOG_FORMAT=json', async () => {
    const lines = await pingAndReadLogs({
      env: { LOG_FORMAT: 'json' },
      deps: { isInteractive: true },
    });
    const parsed = lines.map((line) => JSON.parse(line) as { msg?: string });
    expect(parsed.some((entry) => entry.msg === 'request completed')).toBe(true);
  });
});
