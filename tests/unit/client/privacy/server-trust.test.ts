/**
 * Pinning the server (spec 000 §4 "Certificate status", §8 "Certificate mismatch"): the browser's
 * verdict on certificate-info answers made by the server's own ServerIdentity, the page's one
 * check, the block on requests and sockets after a failure, and RESET_CERTIFICATES.
 */
import { describe, expect, it, vi } from 'vitest';
import { ServerIdentity } from '../../../../server/features/privacy/index.js';
import { generateServerIdentity } from '../../../../shared/crypto/server-identity.js';
import { type CertificateInfo } from '../../../../shared/protocol/http/privacy.js';
import {
  evaluateCertificate,
  isCertificateOk,
  isLocalhost,
  parsePins,
} from '../../../../client/lib/privacy/certificate-pinning.js';
import { ServerTrust, type ServerTrustDeps } from '../../../../client/lib/privacy/server-trust.js';
import { ChatSocket, type WebSocketLike } from '../../../../client/lib/realtime/chat-socket.js';

const origin = 'https://chat.example';
const hostname = 'chat.example';
const now = Date.parse('2030-01-01T00:00:00Z');
const challenge = '5a'.repeat(32);

const realServer = new ServerIdentity(generateServerIdentity(), null);
const otherServer = new ServerIdentity(generateServerIdentity(), null);

function answer(server: ServerIdentity, forChallenge = challenge): CertificateInfo {
  return server.describe(forChallenge);
}

describe('evaluateCertificate', () => {
  it('skips the check on localhost, 127.0.0.1 and ::1', () => {
    for (const host of ['localhost', '127.0.0.1', '[::1]', '::1']) {
      expect(isLocalhost(host)).toBe(true);
      const verdict = evaluateCertificate({
        origin,
        hostname: host,
        info: null,
        challenge,
        pins: [],
        now,
      });
      expect(verdict.status).toBe('localhost');
      expect(isCertificateOk(verdict.status)).toBe(true);
    }
    expect(isLocalhost('127.0.0.2')).toBe(false);
  });

  it('pins fingerprint and identity on first use, accepts them again, refuses another server', () => {
    const info = answer(realServer);
    const pinned = evaluateCertificate({ origin, hostname, info, challenge, pins: [], now });
    expect(pinned.status).toBe('pinned');
    expect(pinned.pins).toEqual([
      {
        origin,
        fingerprint: info.fingerprint,
        identityKey: info.identityKey,
        pinnedAt: '2030-01-01T00:00:00.000Z',
      },
    ]);
    expect(
      evaluateCertificate({ origin, hostname, info, challenge, pins: pinned.pins, now }).status,
    ).toBe('valid');
    const swapped = evaluateCertificate({
      origin,
      hostname,
      info: answer(otherServer),
      challenge,
      pins: pinned.pins,
      now,
    });
    expect(swapped.status).toBe('invalid');
    expect(isCertificateOk(swapped.status)).toBe(false);
    expect(swapped.pins).toEqual(pinned.pins);
  });

  it('refuses a replayed signature over an old challenge, a forged one, and a lying fingerprint', () => {
    const old = answer(realServer, 'ab'.repeat(32));
    expect(
      evaluateCertificate({ origin, hostname, info: old, challenge, pins: [], now }).status,
    ).toBe('invalid');
    const echoed = { ...old, challenge };
    expect(
      evaluateCertificate({ origin, hostname, info: echoed, challenge, pins: [], now }).status,
    ).toBe('invalid');
    const unsigned: CertificateInfo = { ...answer(realServer) };
    delete unsigned.signature;
    expect(
      evaluateCertificate({ origin, hostname, info: unsigned, challenge, pins: [], now }).status,
    ).toBe('invalid');
    // The real identity's signature paired with another fingerprint (a relay that swaps it).
    const lying = { ...answer(realServer), fingerprint: otherServer.describe(null).fingerprint };
    expect(
      evaluateCertificate({ origin, hostname, info: lying, challenge, pins: [], now }).status,
    ).toBe('invalid');
  });

  it('refuses the same fingerprint under another identity key', () => {
    const pins = [
      {
        origin,
        fingerprint: answer(realServer).fingerprint,
        identityKey: answer(otherServer).identityKey,
        pinnedAt: '2030-01-01T00:00:00.000Z',
      },
    ];
    expect(
      evaluateCertificate({ origin, hostname, info: answer(realServer), challenge, pins, now })
        .status,
    ).toBe('invalid');
  });

  it('keeps pins per origin, and trusts nothing without an answer', () => {
    const pins = [
      {
        origin: 'https://other.example',
        fingerprint: 'a'.repeat(64),
        pinnedAt: '2030-01-01T00:00:00.000Z',
      },
    ];
    expect(
      evaluateCertificate({ origin, hostname, info: answer(realServer), challenge, pins, now })
        .status,
    ).toBe('pinned');
    const none = evaluateCertificate({ origin, hostname, info: null, challenge, pins, now });
    expect(none.status).toBe('unavailable');
    expect(isCertificateOk(none.status)).toBe(false);
  });

  it('reads malformed stored pins as none', () => {
    expect(parsePins(null)).toEqual([]);
    expect(parsePins('not json')).toEqual([]);
    expect(
      parsePins('[{"origin":"x","fingerprint":"nothex","pinnedAt":"2030-01-01T00:00:00.000Z"}]'),
    ).toEqual([]);
  });
});

function trustWith(answers: { current: ServerIdentity | 'down' }, initial: string | null = null) {
  let stored: string | null = initial;
  const fetchInfo = vi.fn(async (asked: string) => {
    if (answers.current === 'down') throw new Error('offline');
    return answers.current.describe(asked);
  });
  let counter = 0;
  const deps: ServerTrustDeps = {
    now: () => now,
    location: { hostname, origin },
    storage: {
      read: () => stored,
      write: (text) => {
        stored = text;
      },
      clear: () => {
        stored = null;
      },
    },
    fetchInfo,
    newChallenge: () => (counter++).toString(16).padStart(64, '0'),
  };
  return { trust: new ServerTrust(deps), fetchInfo, stored: () => stored };
}

describe('ServerTrust', () => {
  it('checks once per page with a fresh challenge, and pins on first use', async () => {
    const answers = { current: realServer as ServerIdentity | 'down' };
    const { trust, fetchInfo, stored } = trustWith(answers);
    expect(await Promise.all([trust.verify(), trust.verify()])).toEqual(['pinned', 'pinned']);
    expect(await trust.isTrusted()).toBe(true);
    expect(fetchInfo).toHaveBeenCalledTimes(1);
    expect(parsePins(stored())).toHaveLength(1);
  });

  it('after a changed identity trusts nothing until RESET_CERTIFICATES pins the new one', async () => {
    const answers = { current: realServer as ServerIdentity | 'down' };
    const first = trustWith(answers);
    await first.trust.verify();
    // The next page load, against a server whose identity changed.
    answers.current = otherServer;
    const next = trustWith(answers, first.stored());
    expect(await next.trust.verify()).toBe('invalid');
    expect(await next.trust.isTrusted()).toBe(false);
    expect(await next.trust.reset()).toBe('pinned');
    expect(await next.trust.isTrusted()).toBe(true);
    expect(parsePins(next.stored())[0]?.identityKey).toBe(otherServer.describe(null).identityKey);
  });

  it('trusts nothing while the server does not answer, and asks again next time', async () => {
    const answers = { current: 'down' as ServerIdentity | 'down' };
    const { trust, fetchInfo } = trustWith(answers);
    expect(await trust.verify()).toBe('unavailable');
    answers.current = realServer;
    expect(await trust.verify()).toBe('pinned');
    expect(fetchInfo).toHaveBeenCalledTimes(2);
  });
});

describe('ChatSocket waits for the server check before it opens', () => {
  function fakeSocketFactory() {
    const opened: string[] = [];
    const createSocket = (url: string): WebSocketLike => {
      opened.push(url);
      return {
        readyState: 0,
        send: () => undefined,
        close: () => undefined,
        onopen: null,
        onclose: null,
        onmessage: null,
        onerror: null,
      };
    };
    return { opened, createSocket };
  }

  it('never opens a socket to a server whose check failed', async () => {
    vi.useFakeTimers();
    try {
      const { opened, createSocket } = fakeSocketFactory();
      const socket = new ChatSocket({
        url: 'wss://chat.example/chat-ws',
        createSocket,
        beforeOpen: async () => false,
      });
      socket.start();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(opened).toEqual([]);
      expect(socket.getStatus()).toBe('disconnected');
    } finally {
      vi.useRealTimers();
    }
  });

  it('opens only once the check has passed', async () => {
    vi.useFakeTimers();
    try {
      const { opened, createSocket } = fakeSocketFactory();
      let pass: (value: boolean) => void = () => undefined;
      const socket = new ChatSocket({
        url: 'wss://chat.example/chat-ws',
        createSocket,
        beforeOpen: () => new Promise<boolean>((resolve) => (pass = resolve)),
      });
      socket.start();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(opened).toEqual([]);
      pass(true);
      await vi.advanceTimersByTimeAsync(0);
      expect(opened).toEqual(['wss://chat.example/chat-ws']);
    } finally {
      vi.useRealTimers();
    }
  });
});
