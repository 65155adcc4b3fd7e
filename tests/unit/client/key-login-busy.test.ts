/**
 * The key login when the server's login queue is full (issue 22, target 2): a 503 with
 * Retry-After is told to the page and the same signed verification is sent again after that many
 * seconds (and up to one more); after LOGIN_BUSY_RETRIES such answers the login fails with the server's text.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LoginError } from '../../../client/features/auth/auth-api.js';
import { LOGIN_BUSY_RETRIES, loginWithKeyFile } from '../../../client/features/auth/key-login.js';
import { createKeyFile } from '../../../shared/crypto/key-file.js';
import type { KeyFile } from '../../../shared/crypto/key-file-schema.js';
import { TEXT } from '../../../shared/protocol/errors.js';

const CHALLENGE = {
  challenge: 'securechannel-login:test:1:abcd',
  nonce: 'abcd',
  timestamp: new Date(0).toISOString(),
  expiresAt: new Date(120_000).toISOString(),
};
const session = (keyId: string) => ({
  sessionToken: 't'.repeat(64),
  expiresAt: new Date(86_400_000).toISOString(),
  user: {
    keyId,
    username: 'queued',
    secureId: `SCK_${keyId.slice(3, 11).toUpperCase()}`,
    permissions: { level: 'user', capabilities: ['chat'] },
    expires: null,
  },
});

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
const busy = () => json({ error: TEXT.loginBusy }, 503, { 'retry-after': '3' });

/** Answers the challenge, then the verifications in `verifies` order; records the bodies sent. */
function fakeServer(verifies: Array<() => Response>) {
  const sent: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((path: string, init: { body?: string }) => {
      if (path === '/api/auth/challenge') return Promise.resolve(json(CHALLENGE));
      sent.push(init.body ?? '');
      const next = verifies.shift();
      if (!next) throw new Error('unexpected verification');
      return Promise.resolve(next());
    }),
  );
  return sent;
}

/** No socket to be had: the login takes the HTTP routes (the socket's own tests: socket-login.test.ts). */
const overHttp = () => Promise.resolve(null);

let keyFile: KeyFile;
beforeAll(async () => {
  keyFile = await createKeyFile({ username: 'queued', level: 'user', validityDays: 1 });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('key login while the login queue is full', () => {
  it('says so, waits Retry-After and sends the same verification again', async () => {
    const sent = fakeServer([busy, busy, () => json(session(keyFile.keyId))]);
    const told: Array<[number, number]> = [];
    const waited: number[] = [];
    const result = await loginWithKeyFile(keyFile, {
      openSocket: overHttp,
      onBusy: (seconds, triesLeft) => told.push([seconds, triesLeft]),
      sleep: (ms) => {
        waited.push(ms);
        return Promise.resolve();
      },
    });
    expect(result.sessionToken).toBe('t'.repeat(64));
    expect(told).toEqual([
      [3, LOGIN_BUSY_RETRIES - 1],
      [3, LOGIN_BUSY_RETRIES - 2],
    ]);
    // Retry-After, plus up to a second so that refused logins do not all return together.
    expect(waited).toHaveLength(2);
    for (const ms of waited) {
      expect(ms).toBeGreaterThanOrEqual(3000);
      expect(ms).toBeLessThan(4000);
    }
    expect(sent).toHaveLength(3);
    expect(new Set(sent).size).toBe(1);
  });

  it('gives up with the server text after the last try', async () => {
    fakeServer(Array.from({ length: LOGIN_BUSY_RETRIES + 1 }, () => busy));
    const error = await loginWithKeyFile(keyFile, {
      openSocket: overHttp,
      sleep: () => Promise.resolve(),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoginError);
    expect((error as LoginError).message).toBe(TEXT.loginBusy);
  });

  it('does not retry a 503 without Retry-After (a service shut down)', async () => {
    const sent = fakeServer([() => json({ error: TEXT.serviceUnavailable }, 503)]);
    const onBusy = vi.fn();
    await expect(
      loginWithKeyFile(keyFile, {
        openSocket: overHttp,
        onBusy,
        sleep: () => Promise.resolve(),
      }),
    ).rejects.toThrow(TEXT.serviceUnavailable);
    expect(onBusy).not.toHaveBeenCalled();
    expect(sent).toHaveLength(1);
  });
});
