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
  ipinfoAnswer,
  startFakeExitList,
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
  notChecked: ['vpn', 'proxy', 'hosting', 'location', 'tor'],
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

  it('reports a VPN and its network, never the network as the VPN service, and sends the access key only to the lookup service', async () => {
    const result = await checkAs(server, VPN_IP);
    expect(result).toMatchObject({
      isVPN: true,
      isProxy: false,
      isTor: false,
      isHosting: false,
      // vpnapi.io names the network's AS organisation, not the VPN service.
      service: null,
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
      service: null,
      org: 'Open Proxy Ltd',
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
      notChecked: [],
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
        notChecked: ['vpn', 'proxy', 'hosting', 'location', 'tor'],
      });
      expect(await checkAs(server, null)).toMatchObject({ ip: '127.0.0.1', source: 'local' });
    } finally {
      await server.stop();
    }
  });
});

describe('GET /api/privacy/check with PRIVACY_LOOKUP_PROVIDER=ipinfo', () => {
  it("reads the spec's answer shape, names the VPN service, and sends the key as token", async () => {
    const lookup = await startFakeLookup((ip) => {
      if (ip === VPN_IP) {
        return {
          kind: 'answer',
          body: ipinfoAnswer({
            ip,
            vpn: true,
            service: 'Mullvad',
            org: 'AS39351 31173 Services AB',
          }),
        };
      }
      if (ip === TOR_IP) return { kind: 'answer', body: ipinfoAnswer({ ip, tor: true }) };
      if (ip === PROXY_IP) return { kind: 'answer', body: ipinfoAnswer({ ip, hosting: true }) };
      if (ip === FAIL_IP) return { kind: 'answer', body: '["not", "an", "answer"]' };
      return { kind: 'answer', body: ipinfoAnswer({ ip, relay: true }) };
    });
    const server = await startServer({
      env: {
        PRIVACY_LOOKUP_URL: lookup.url,
        PRIVACY_LOOKUP_KEY: LOOKUP_KEY,
        PRIVACY_LOOKUP_PROVIDER: 'ipinfo',
        TRUST_PROXY: 'loopback',
      },
    });
    try {
      expect(await checkAs(server, VPN_IP)).toMatchObject({
        isVPN: true,
        isTor: false,
        service: 'Mullvad',
        org: 'AS39351 31173 Services AB',
        location: { city: 'Zurich', country: 'CH' },
        ip: VPN_IP,
        source: 'lookup',
        notChecked: [],
      });
      const sent = lookup.requests.find((request) => request.ip === VPN_IP);
      expect(sent).toMatchObject({ token: LOOKUP_KEY, key: null });
      expect(await checkAs(server, TOR_IP)).toMatchObject({ isTor: true, service: null });
      expect(await checkAs(server, PROXY_IP)).toMatchObject({ isHosting: true, isVPN: false });
      expect(await checkAs(server, RELAY_IP)).toMatchObject({ isProxy: true });
      expect(server.logs.text()).not.toContain(LOOKUP_KEY);
    } finally {
      await server.stop();
      await lookup.close();
    }
  });
});

describe("GET /api/privacy/check with tor's exit list and no lookup service", () => {
  const EXIT_IP = '198.51.100.201';
  const LATER_EXIT_IP = '198.51.100.202';

  it('recognises Tor from the exit list, says which parts were not checked, and refreshes the list hourly', async () => {
    const list = await startFakeExitList(`${EXIT_IP}\n203.0.113.9\n`);
    let offset = 0;
    const server = await startServer({
      env: { TRUST_PROXY: 'loopback', TOR_EXIT_LIST_URL: list.url },
      deps: { now: () => Date.now() + offset },
    });
    try {
      await expect.poll(() => list.fetches, { timeout: 10_000 }).toBe(1);
      expect(await checkAs(server, EXIT_IP)).toMatchObject({
        isTor: true,
        isVPN: false,
        ip: EXIT_IP,
        source: 'not-configured',
        notChecked: ['vpn', 'proxy', 'hosting', 'location'],
      });
      expect(await checkAs(server, '198.51.100.7')).toMatchObject({
        isTor: false,
        source: 'not-configured',
        notChecked: ['vpn', 'proxy', 'hosting', 'location'],
      });
      expect(await checkAs(server, LATER_EXIT_IP)).toMatchObject({ isTor: false });

      // Within the hour the list is not fetched again; after it, it is.
      list.body = `ExitNode 0011\nExitAddress ${LATER_EXIT_IP} 2030-01-01 00:00:00\n`;
      offset = 59 * 60_000;
      await checkAs(server, LATER_EXIT_IP);
      expect(list.fetches).toBe(1);
      offset = 61 * 60_000;
      await checkAs(server, LATER_EXIT_IP);
      await expect.poll(() => list.fetches, { timeout: 10_000 }).toBe(2);
      await expect
        .poll(async () => (await checkAs(server, LATER_EXIT_IP)).isTor, { timeout: 10_000 })
        .toBe(true);
      expect((await checkAs(server, EXIT_IP)).isTor).toBe(false);
    } finally {
      await server.stop();
      await list.close();
    }
  });

  it('adds the exit list to a lookup that does not see Tor', async () => {
    const list = await startFakeExitList(`${EXIT_IP}\n`);
    const lookup = await startFakeLookup((ip) => ({ kind: 'answer', body: vpnApiAnswer({ ip }) }));
    const server = await startServer({
      env: {
        TRUST_PROXY: 'loopback',
        TOR_EXIT_LIST_URL: list.url,
        PRIVACY_LOOKUP_URL: lookup.url,
        PRIVACY_LOOKUP_KEY: LOOKUP_KEY,
      },
    });
    try {
      await expect.poll(() => list.fetches, { timeout: 10_000 }).toBe(1);
      expect(await checkAs(server, EXIT_IP)).toMatchObject({ isTor: true, source: 'lookup' });
    } finally {
      await server.stop();
      await list.close();
      await lookup.close();
    }
  });

  it('fetches no exit list when TOR_EXIT_LIST_URL is unset outside production, and says Tor was not checked', async () => {
    const server = await startServer({ env: { TRUST_PROXY: 'loopback' } });
    try {
      expect(await checkAs(server, EXIT_IP)).toMatchObject({
        isTor: false,
        notChecked: ['vpn', 'proxy', 'hosting', 'location', 'tor'],
      });
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
