/**
 * Connection privacy and the pinnable server identity (issue: privacy check, proxy awareness,
 * server identity): `GET /api/privacy/check` against a local fake of the lookup service, the
 * TRUST_PROXY forms, and `GET /api/certificate-info` with and without a certificate.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpPrivacyLookup } from '../../server/features/privacy/index.js';
import {
  serverIdentityFingerprint,
  verifyCertificateChallenge,
} from '../../shared/crypto/server-identity.js';
import { hexToBytes } from '../../shared/crypto/bytes.js';
import {
  CertificateInfoSchema,
  ConnectionPrivacySchema,
  type ConnectionPrivacy,
} from '../../shared/protocol/http/privacy.js';
import { freshDatabase } from '../support/database.js';
import { makeSelfSignedCertificate } from '../support/certs.js';
import { startServer, type TestServer } from '../support/server.js';
import {
  startFakeLookup,
  vpnApiAnswer,
  type FakeLookupServer,
} from '../fixtures/fakes/ip-lookup-server.js';
import { HAS_POSTGRES } from '../support/services.js';

const LOOKUP_KEY = 'lookup-key-7f3a9c2e51d8b046';

const VPN_IP = '203.0.113.10';
const TOR_IP = '203.0.113.20';
const PROXY_IP = '203.0.113.30';
const HANG_IP = '203.0.113.40';
const FAIL_IP = '203.0.113.50';
const RELAY_IP = '203.0.113.60';

async function checkAs(
  server: TestServer,
  forwardedFor: string | null,
  extra: Record<string, string> = {},
): Promise<ConnectionPrivacy> {
  const response = await fetch(`${server.baseUrl}/api/privacy/check`, {
    headers: { ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}), ...extra },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return ConnectionPrivacySchema.parse(await response.json());
}

const FAILURE = {
  isVPN: false,
  isProxy: false,
  isTor: false,
  isHosting: false,
  service: null,
  location: { city: 'Unknown', country: 'Unknown' },
  org: 'Unknown',
  ip: 'Unknown',
  source: 'failed',
};

describe('GET /api/privacy/check with a lookup service', () => {
  let lookup: FakeLookupServer;
  let server: TestServer;

  beforeAll(async () => {
    lookup = await startFakeLookup((ip) => {
      if (ip === VPN_IP)
        return { kind: 'answer', body: vpnApiAnswer({ ip, vpn: true, org: 'Mullvad VPN AB' }) };
      if (ip === TOR_IP) return { kind: 'answer', body: vpnApiAnswer({ ip, tor: true }) };
      if (ip === PROXY_IP)
        return { kind: 'answer', body: vpnApiAnswer({ ip, proxy: true, org: 'Open Proxy Ltd' }) };
      if (ip === RELAY_IP) return { kind: 'answer', body: vpnApiAnswer({ ip, relay: true }) };
      if (ip === HANG_IP) return { kind: 'hang' };
      if (ip === FAIL_IP) return { kind: 'status', status: 500 };
      return { kind: 'answer', body: vpnApiAnswer({ ip, city: 'Lyon', country: 'France' }) };
    });
    server = await startServer({
      env: {
        PRIVACY_LOOKUP_URL: lookup.url,
        PRIVACY_LOOKUP_KEY: LOOKUP_KEY,
        TRUST_PROXY: 'loopback',
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await lookup?.close();
  });

  it('reports a VPN with its operator, and sends the access key only to the lookup service', async () => {
    const result = await checkAs(server, VPN_IP);
    expect(result).toMatchObject({
      isVPN: true,
      isProxy: false,
      isTor: false,
      isHosting: false,
      service: 'Mullvad VPN AB',
      location: { city: 'Amsterdam', country: 'Netherlands' },
      org: 'Mullvad VPN AB',
      ip: VPN_IP,
      source: 'lookup',
    });
    expect(lookup.requests.find((request) => request.ip === VPN_IP)?.key).toBe(LOOKUP_KEY);
    expect(JSON.stringify(result)).not.toContain(LOOKUP_KEY);
  });

  it('reports Tor, a proxy and a private relay from the answer', async () => {
    expect(await checkAs(server, TOR_IP)).toMatchObject({
      isTor: true,
      isVPN: false,
      source: 'lookup',
    });
    expect(await checkAs(server, PROXY_IP)).toMatchObject({
      isProxy: true,
      service: 'Open Proxy Ltd',
    });
    expect(await checkAs(server, RELAY_IP)).toMatchObject({ isProxy: true });
  });

  it('reports a direct connection with its location', async () => {
    expect(await checkAs(server, '198.51.100.7')).toMatchObject({
      isVPN: false,
      isProxy: false,
      isTor: false,
      isHosting: false,
      service: null,
      location: { city: 'Lyon', country: 'France' },
      ip: '198.51.100.7',
      source: 'lookup',
    });
  });

  it('gives the failure result on a 500, and never a 5xx to the browser', async () => {
    expect(await checkAs(server, FAIL_IP)).toMatchObject(FAILURE);
  });

  it('looks an address up once for repeated and concurrent checks', async () => {
    const ip = '198.51.100.99';
    await Promise.all([checkAs(server, ip), checkAs(server, ip), checkAs(server, ip)]);
    await checkAs(server, ip);
    expect(lookup.requests.filter((request) => request.ip === ip)).toHaveLength(1);
  });

  it('looks up again once the 5-minute cache has expired', async () => {
    let offset = 0;
    const clocked = await startServer({
      env: {
        PRIVACY_LOOKUP_URL: lookup.url,
        PRIVACY_LOOKUP_KEY: LOOKUP_KEY,
        TRUST_PROXY: 'loopback',
      },
      deps: { now: () => Date.now() + offset },
    });
    try {
      const ip = '198.51.100.123';
      await checkAs(clocked, ip);
      offset = 299_000;
      await checkAs(clocked, ip);
      expect(lookup.requests.filter((request) => request.ip === ip)).toHaveLength(1);
      offset = 301_000;
      await checkAs(clocked, ip);
      expect(lookup.requests.filter((request) => request.ip === ip)).toHaveLength(2);
    } finally {
      await clocked.stop();
    }
  });

  it('counts a request over the onion service as Tor without a lookup', async () => {
    const before = lookup.requests.length;
    const host = `${'a'.repeat(56)}.onion`;
    const body = await new Promise<string>((resolve, reject) => {
      // fetch() does not let a caller set Host; tor's forwarded requests carry the onion name.
      const url = new URL(`${server.baseUrl}/api/privacy/check`);
      httpRequest(
        { host: url.hostname, port: url.port, path: url.pathname, headers: { host } },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve(text));
        },
      )
        .on('error', reject)
        .end();
    });
    expect(ConnectionPrivacySchema.parse(JSON.parse(body))).toMatchObject({
      isTor: true,
      source: 'onion',
    });
    expect(lookup.requests.length).toBe(before);
  });

  it('never writes the access key or the looked-up addresses into the log', () => {
    const log = server.logs.text();
    expect(log).not.toContain(LOOKUP_KEY);
    expect(log).not.toContain(VPN_IP);
  });
});

describe('GET /api/privacy/check when the lookup times out', () => {
  it('gives the failure result', async () => {
    const lookup = await startFakeLookup(() => ({ kind: 'hang' }));
    const server = await startServer({
      env: { TRUST_PROXY: 'loopback' },
      deps: {
        privacyLookup: new HttpPrivacyLookup({ url: lookup.url, key: LOOKUP_KEY, timeoutMs: 200 }),
      },
    });
    try {
      expect(await checkAs(server, HANG_IP)).toMatchObject(FAILURE);
    } finally {
      await server.stop();
      await lookup.close();
    }
  });
});

describe('GET /api/privacy/check without a lookup service', () => {
  it('answers from what the server knows and says the lookup is not configured', async () => {
    const server = await startServer({ env: { TRUST_PROXY: 'loopback' } });
    try {
      expect(await checkAs(server, '198.51.100.7')).toMatchObject({
        isVPN: false,
        isTor: false,
        ip: '198.51.100.7',
        source: 'not-configured',
      });
      expect(await checkAs(server, null)).toMatchObject({ ip: '127.0.0.1', source: 'local' });
    } finally {
      await server.stop();
    }
  });
});

describe('TRUST_PROXY decides whose X-Forwarded-For counts', () => {
  // The test server's peer is always 127.0.0.1: a trusted proxy for some forms, not for others.
  it.each([
    ['false', '127.0.0.1'],
    ['true', '198.51.100.7'],
    ['1', '198.51.100.7'],
    ['loopback', '198.51.100.7'],
    ['127.0.0.1', '198.51.100.7'],
    ['127.0.0.0/8,::1', '198.51.100.7'],
    ['10.0.0.0/8', '127.0.0.1'],
    ['linklocal', '127.0.0.1'],
    ['uniquelocal', '127.0.0.1'],
  ])('TRUST_PROXY=%s resolves the caller as %s', async (trustProxy, expected) => {
    const server = await startServer({ env: { TRUST_PROXY: trustProxy } });
    try {
      const result = await checkAs(server, '198.51.100.7');
      expect(result.ip).toBe(expected);
    } finally {
      await server.stop();
    }
  });

  it('with a hop count, takes the address the nearest proxies saw, not one a client wrote', async () => {
    const server = await startServer({ env: { TRUST_PROXY: '1' } });
    try {
      const result = await checkAs(server, '6.6.6.6, 198.51.100.7');
      expect(result.ip).toBe('198.51.100.7');
    } finally {
      await server.stop();
    }
  });
});

describe('GET /api/certificate-info', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('without TLS reports the fingerprint of the server identity key, never null', async () => {
    const info = CertificateInfoSchema.parse(
      await (await fetch(`${server.baseUrl}/api/certificate-info`)).json(),
    );
    expect(info.source).toBe('identity');
    expect(info.tls).toBe(false);
    expect(info.fingerprint).toBe(serverIdentityFingerprint(hexToBytes(info.identityKey)));
    expect(info.signature).toBeUndefined();
  });

  it('signs a challenge with the identity key, and the signature binds the challenge', async () => {
    const challenge = 'c0ffee'.repeat(6) + '00112233445566778899aabbccddeeff';
    const info = CertificateInfoSchema.parse(
      await (await fetch(`${server.baseUrl}/api/certificate-info?challenge=${challenge}`)).json(),
    );
    expect(info.challenge).toBe(challenge);
    const signed = {
      challenge,
      fingerprint: info.fingerprint,
      identityKey: info.identityKey,
      signature: info.signature ?? '',
    };
    expect(verifyCertificateChallenge(signed)).toBe(true);
    expect(verifyCertificateChallenge({ ...signed, challenge: '00'.repeat(32) })).toBe(false);
    expect(verifyCertificateChallenge({ ...signed, fingerprint: 'ab'.repeat(32) })).toBe(false);
  });

  it.each(['xyz', 'ab', 'A'.repeat(64), '0'.repeat(33), '0'.repeat(130)])(
    'refuses the malformed challenge %s with 400',
    async (challenge) => {
      const response = await fetch(`${server.baseUrl}/api/certificate-info?challenge=${challenge}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toHaveProperty('error');
    },
  );

  it('never writes the identity secret into the log', () => {
    expect(server.logs.text()).not.toMatch(/secretKey/);
  });
});

describe.runIf(HAS_POSTGRES)('server identity across processes and restarts', () => {
  it('is the same for two servers on one PostgreSQL database, and survives a restart', async () => {
    const db = await freshDatabase('postgres');
    const { buildServer } = await import('../../server/app.js');
    const { testConfig } = await import('../support/server.js');
    const identities: string[] = [];
    try {
      for (let i = 0; i < 3; i += 1) {
        const server = await buildServer(testConfig(), {
          database: db.database,
          announce: () => undefined,
          logStream: new (await import('node:stream')).PassThrough(),
        });
        const response = await server.app.inject({ url: '/api/certificate-info' });
        identities.push(CertificateInfoSchema.parse(response.json()).identityKey);
        await server.app.close();
      }
    } finally {
      await db.cleanup();
    }
    expect(new Set(identities).size).toBe(1);
  });
});

describe('GET /api/certificate-info with a certificate served by a proxy in front', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'sc-proxy-cert-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reports the certificate fingerprint while the server itself speaks HTTP', async () => {
    const { cert, fingerprint: expected } = makeSelfSignedCertificate(dir, 'example.test');
    const server = await startServer({ env: { TLS_CERT: cert } });
    try {
      expect(server.baseUrl).toMatch(/^http:/);
      const info = CertificateInfoSchema.parse(
        await (
          await fetch(`${server.baseUrl}/api/certificate-info?challenge=${'ab'.repeat(16)}`)
        ).json(),
      );
      expect(info).toMatchObject({ fingerprint: expected, source: 'tls', tls: false });
      expect(
        verifyCertificateChallenge({
          challenge: 'ab'.repeat(16),
          fingerprint: info.fingerprint,
          identityKey: info.identityKey,
          signature: info.signature ?? '',
        }),
      ).toBe(true);
    } finally {
      await server.stop();
    }
  });
});
