/**
 * Key login failure texts, page by page (docs/decisions.md "Key login failure texts"): the key
 * authentication page follows spec 000 §5 ('Authentication verification failed' where the server
 * gave no error text), the landing page spec 001 §8 ('Authentication failed'); both show the
 * server's own text when it gives one, and 'Failed to get authentication challenge' for any
 * challenge failure. The login runs for real against a fake `fetch`.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LoginError } from '../../../client/features/auth/auth-api.js';
import { loginWithKeyFile } from '../../../client/features/auth/key-login.js';
import {
  keyPageLoginFailureText,
  landingLoginFailureText,
} from '../../../client/features/auth/login-failure-text.js';
import { createKeyFile } from '../../../shared/crypto/key-file.js';
import type { KeyFile } from '../../../shared/crypto/key-file-schema.js';
import { TEXT } from '../../../shared/protocol/errors.js';

const CHALLENGE = {
  challenge: 'securechannel-login:test:1:abcd',
  nonce: 'abcd',
  timestamp: new Date(0).toISOString(),
  expiresAt: new Date(120_000).toISOString(),
};
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A server whose challenge and verification answer as given. */
function fakeServer(challenge: () => Response, verify: () => Response) {
  vi.stubGlobal(
    'fetch',
    vi.fn((path: string) =>
      Promise.resolve(path === '/api/auth/challenge' ? challenge() : verify()),
    ),
  );
}

async function failure(): Promise<unknown> {
  return loginWithKeyFile(keyFile, {
    openSocket: overHttp,
    sleep: () => Promise.resolve(),
  }).then(
    () => {
      throw new Error('the login succeeded');
    },
    (error: unknown) => error,
  );
}

/** No socket to be had: the login takes the HTTP routes (the socket's own tests: socket-login.test.ts). */
const overHttp = () => Promise.resolve(null);

let keyFile: KeyFile;
beforeAll(async () => {
  keyFile = await createKeyFile({ username: 'texts', level: 'user', validityDays: 1 });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('key login failure texts', () => {
  it('a verification refused without an error text: each page its own spec text', async () => {
    fakeServer(
      () => json(CHALLENGE),
      () => new Response('<html>Bad Gateway</html>', { status: 502 }),
    );
    const error = await failure();
    expect(error).toBeInstanceOf(LoginError);
    expect(keyPageLoginFailureText(error)).toBe('Authentication verification failed');
    expect(landingLoginFailureText(error)).toBe('Authentication failed');
  });

  it('a verification refused with the server error text: both pages show it', async () => {
    fakeServer(
      () => json(CHALLENGE),
      () => json({ error: 'Signature verification failed' }, 401),
    );
    const error = await failure();
    expect(keyPageLoginFailureText(error)).toBe('Signature verification failed');
    expect(landingLoginFailureText(error)).toBe('Signature verification failed');
  });

  it('a network failure at verification counts as no server text', async () => {
    let calls = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        calls++ === 0 ? Promise.resolve(json(CHALLENGE)) : Promise.reject(new TypeError('offline')),
      ),
    );
    const error = await failure();
    expect(keyPageLoginFailureText(error)).toBe('Authentication verification failed');
    expect(landingLoginFailureText(error)).toBe('Authentication failed');
  });

  it('a challenge failure reads the same on both pages, whatever the server said', async () => {
    fakeServer(
      () => json({ error: 'Key not found' }, 404),
      () => json({}),
    );
    const error = await failure();
    expect(keyPageLoginFailureText(error)).toBe('Failed to get authentication challenge');
    expect(landingLoginFailureText(error)).toBe('Failed to get authentication challenge');
  });

  it('a verification answer without a session token', async () => {
    fakeServer(
      () => json(CHALLENGE),
      () => json({ ok: true }),
    );
    const error = await failure();
    expect(keyPageLoginFailureText(error)).toBe(TEXT.noSessionToken);
    expect(landingLoginFailureText(error)).toBe(TEXT.noSessionToken);
  });

  it('a failure that is not a login error: the default of spec 001 §8', () => {
    const error = new Error('crypto worker crashed');
    expect(keyPageLoginFailureText(error)).toBe('Failed to authenticate with the provided key');
    expect(landingLoginFailureText(error)).toBe('Failed to authenticate with the provided key');
  });
});
