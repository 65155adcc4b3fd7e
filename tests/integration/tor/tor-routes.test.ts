/**
 * The /api/tor routes over real HTTP, with TOR_BIN pointing at the fake tor
 * (tests/fixtures/fake-tor/fake-tor.mjs: a local control port, no network). Covers connect and
 * disconnect through the server, the bridges (good, bad, commented and injection lines, and what
 * reaches the torrc), tor being unavailable, a port in use, and permissions: a visitor gets 401
 * and a non-admin key 403 on every route that changes tor.
 */
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOR_TEXT } from '../../../shared/protocol/http/tor.js';
import { login, makeRegisteredKey } from '../../support/keys.js';
import { startServer, TEST_ADMIN_PASSWORD } from '../../support/server.js';
import type { ServerDeps } from '../../../server/app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test walks JSON answers it asserts on field by field
type JsonObject = Record<string, any>;

const FAKE_TOR = path.resolve(import.meta.dirname, '../../fixtures/fake-tor/fake-tor.mjs');
const FINGERPRINT = 'A'.repeat(40);

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function torServer(env: Record<string, string> = {}, deps: ServerDeps = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sc-tor-routes-'));
  const server = await startServer({
    env: {
      DATA_DIR: dataDir,
      TOR_BIN: FAKE_TOR,
      TOR_SOCKS_PORT: String(await freePort()),
      TOR_CONTROL_PORT: String(await freePort()),
      ...env,
    },
    deps,
  });
  const adminToken = (
    (await (
      await fetch(`${server.baseUrl}/api/admin/authenticate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ password: TEST_ADMIN_PASSWORD }),
      })
    ).json()) as { sessionToken: string }
  ).sessionToken;
  const call = async (
    method: string,
    route: string,
    body?: unknown,
    token: string | null = adminToken,
  ) => {
    const response = await fetch(`${server.baseUrl}${route}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: (await response.json()) as JsonObject };
  };
  const torrc = () => readFileSync(path.join(dataDir, 'tor', 'torrc'), 'utf8');
  const cleanup = async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { server, call, torrc, cleanup, dataDir };
}

describe('tor routes with a fake tor', () => {
  let ctx: Awaited<ReturnType<typeof torServer>>;
  // Nothing may use the network: bridge addresses are documentation ones (192.0.2.0/24), never tested.
  beforeAll(async () => {
    ctx = await torServer();
  });
  afterAll(async () => {
    await ctx.cleanup();
  });

  it('connects and disconnects through the control port, with circuits, bandwidth and the onion address', async () => {
    const { call } = ctx;
    expect((await call('GET', '/api/tor/status')).body).toMatchObject({
      state: 'stopped',
      running: false,
    });

    const connect = await call('POST', '/api/tor/connect', {});
    expect(connect.status).toBe(200);
    expect(connect.body).toMatchObject({
      success: true,
      onionAddress: expect.stringMatching(/\.onion$/),
    });

    let status: JsonObject = {};
    await expect
      .poll(async () => (status = (await call('GET', '/api/tor/status')).body).connected, {
        timeout: 15_000,
      })
      .toBe(true);
    expect(status).toMatchObject({
      state: 'connected',
      running: true,
      circuits: 2,
      bootstrapProgress: 100,
      controlPortOpen: true,
      socksPortOpen: true,
      hiddenServiceReady: true,
      onionAddress: connect.body.onionAddress,
    });
    expect(status.bandwidth.read).toBeGreaterThan(0);

    const disconnect = await call('POST', '/api/tor/disconnect');
    expect(disconnect.body).toMatchObject({ success: true });
    await expect
      .poll(async () => (await call('GET', '/api/tor/status')).body.state, { timeout: 5000 })
      .toBe('disconnected');
    const after = (await call('GET', '/api/tor/status')).body;
    expect(after).toMatchObject({ connected: false, circuits: 0, running: true });

    // Through tor's SOCKS port only once connected: disconnected means the self-test refuses.
    expect((await call('POST', '/api/tor/test-hidden-service')).body.success).toBe(false);
    expect((await call('GET', '/api/tor/logs')).body.logs.join('\n')).toContain('DisableNetwork');
  });

  it('imports good lines, skips blank, comment, bad and injection lines, and writes only good ones', async () => {
    const { call, torrc } = ctx;
    const config = [
      '# my bridges',
      '',
      `obfs4 192.0.2.10:443 ${FINGERPRINT} cert=AbCdEf+/= iat-mode=0`,
      `Bridge snowflake 192.0.2.3:80 ${'B'.repeat(40)} fingerprint=${'B'.repeat(40)} url=https://snowflake-broker.example/`,
      `meek 192.0.2.20:80 ${'C'.repeat(40)} url=https://meek.example/ front=cdn.example`,
      'vanilla 192.0.2.1:443 ' + FINGERPRINT,
      'obfs4 not-an-address ' + FINGERPRINT,
      'obfs4 192.0.2.11:443 tooShort',
      `obfs4 192.0.2.12:443 ${FINGERPRINT}\rExitPolicy accept *:*`,
      `obfs4 192.0.2.13:443 ${FINGERPRINT} cert=x\\`,
      `obfs4 192.0.2.14:443 ${FINGERPRINT} #comment`,
      `obfs4 192.0.2.15:443 ${FINGERPRINT} cert="quoted"`,
      `obfs4 192.0.2.16:443 ${FINGERPRINT} ControlPort 0.0.0.0:9051`,
      '   # indented comment',
    ].join('\n');
    const imported = await call('POST', '/api/tor/bridges/import', { config });
    expect(imported.status).toBe(200);
    expect(imported.body.imported).toBe(3);
    expect(imported.body.rejected).toBe(8);
    expect(imported.body.bridges.map((bridge: { type: string }) => bridge.type)).toEqual([
      'obfs4',
      'snowflake',
      'meek',
    ]);
    expect(
      imported.body.bridges.every((bridge: { country: string }) => bridge.country === 'Unknown'),
    ).toBe(true);

    const text = torrc();
    const bridgeLines = text.split('\n').filter((line) => line.startsWith('Bridge '));
    expect(bridgeLines).toEqual([
      `Bridge obfs4 192.0.2.10:443 ${FINGERPRINT} cert=AbCdEf+/= iat-mode=0`,
      `Bridge snowflake 192.0.2.3:80 ${'B'.repeat(40)} fingerprint=${'B'.repeat(40)} url=https://snowflake-broker.example/`,
      `Bridge meek_lite 192.0.2.20:80 ${'C'.repeat(40)} url=https://meek.example/ front=cdn.example`,
    ]);
    expect(text).toMatch(/^UseBridges 1$/m);
    expect(text).toMatch(/^ClientTransportPlugin obfs4,meek_lite exec \/usr\/bin\/obfs4proxy$/m);
    expect(text).toMatch(/^ClientTransportPlugin snowflake exec \/usr\/bin\/snowflake-client$/m);
    expect(text).not.toMatch(/accept|0\.0\.0\.0|quoted|#comment/);
    expect(text.match(/^ControlPort /gm)).toHaveLength(1);
    expect(text).toMatch(/^DisableNetwork 1$/m);

    // Importing the same lines again adds nothing.
    expect((await call('POST', '/api/tor/bridges/import', { config })).body.imported).toBe(0);
  });

  it('answers an import without a valid bridge with the spec’s text', async () => {
    const response = await ctx.call('POST', '/api/tor/bridges/import', {
      config: '# only comments\n\nobfs4 nowhere nothing\n',
    });
    expect(response).toEqual({ status: 400, body: { error: TOR_TEXT.noValidBridges } });
  });

  it('adds, tests and removes a bridge; address and fingerprint are required', async () => {
    const { call, torrc } = ctx;
    expect(
      await call('POST', '/api/tor/bridges', { type: 'obfs4', address: '', fingerprint: '' }),
    ).toEqual({
      status: 400,
      body: { error: TOR_TEXT.addressAndFingerprintRequired },
    });
    expect(
      (
        await call('POST', '/api/tor/bridges', {
          address: '127.0.0.1:1\nExitPolicy accept *:*',
          fingerprint: FINGERPRINT,
        })
      ).status,
    ).toBe(400);

    // A local listener stands in for a reachable bridge.
    const listener = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => listener.listen({ host: '127.0.0.1', port: 0 }, resolve));
    const openPort = (listener.address() as net.AddressInfo).port;
    const added = await call('POST', '/api/tor/bridges', {
      type: 'obfs4',
      address: `127.0.0.1:${openPort}`,
      fingerprint: 'd'.repeat(40),
      args: 'cert=abc iat-mode=0',
      country: 'Iceland',
    });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({
      fingerprint: 'D'.repeat(40),
      country: 'Iceland',
      active: true,
    });
    expect(torrc()).toContain(
      `Bridge obfs4 127.0.0.1:${openPort} ${'D'.repeat(40)} cert=abc iat-mode=0`,
    );

    const tested = await call('POST', `/api/tor/bridges/${added.body.id}/test`);
    expect(tested.body).toMatchObject({ success: true });
    await new Promise((resolve) => listener.close(resolve));
    expect((await call('POST', `/api/tor/bridges/${added.body.id}/test`)).body).toMatchObject({
      success: false,
    });

    expect((await call('DELETE', `/api/tor/bridges/${added.body.id}`)).body).toEqual({
      success: true,
    });
    expect(torrc()).not.toContain(`127.0.0.1:${openPort}`);
    expect((await call('DELETE', `/api/tor/bridges/${added.body.id}`)).status).toBe(404);
    const list = await call('GET', '/api/tor/bridges');
    expect(list.body.bridges.some((bridge: { id: string }) => bridge.id === added.body.id)).toBe(
      false,
    );
  });

  it('refuses every changing route to a visitor (401) and to a non-admin key (403), and keeps status readable', async () => {
    const { server, call } = ctx;
    const userKey = await makeRegisteredKey(server.baseUrl, { level: 'user' });
    const userToken = (await login(server.baseUrl, userKey)).body.sessionToken as string;
    const bridgeId = (await call('GET', '/api/tor/bridges')).body.bridges[0].id as string;
    const routes: [string, string, unknown?][] = [
      ['POST', '/api/tor/connect', {}],
      ['POST', '/api/tor/disconnect'],
      ['POST', '/api/tor/test-hidden-service'],
      ['POST', '/api/tor/start'],
      ['POST', '/api/tor/stop'],
      ['POST', '/api/tor/restart'],
      ['GET', '/api/tor/logs'],
      ['GET', '/api/tor/bridges'],
      ['POST', '/api/tor/bridges', { address: '192.0.2.50:443', fingerprint: FINGERPRINT }],
      ['POST', '/api/tor/bridges/import', { config: `obfs4 192.0.2.51:443 ${FINGERPRINT}` }],
      ['POST', `/api/tor/bridges/${bridgeId}/test`],
      ['DELETE', `/api/tor/bridges/${bridgeId}`],
    ];
    const before = (await call('GET', '/api/tor/bridges')).body.bridges.length;
    for (const [method, route, body] of routes) {
      expect((await call(method, route, body, null)).status, `${method} ${route} visitor`).toBe(
        401,
      );
      expect(
        (await call(method, route, body, 'not-a-token')).status,
        `${method} ${route} bad token`,
      ).toBe(401);
      expect(
        (await call(method, route, body, userToken)).status,
        `${method} ${route} user key`,
      ).toBe(403);
    }
    expect((await call('GET', '/api/tor/bridges')).body.bridges.length).toBe(before);

    // Status: a visitor and a user key read the spec 000 fields, not the admin ones.
    for (const token of [null, userToken]) {
      const status = await call('GET', '/api/tor/status', undefined, token);
      expect(status.status).toBe(200);
      expect(status.body).not.toHaveProperty('running');
      expect(status.body).toHaveProperty('onionAddress');
    }

    // An admin key may do what the admin console session may.
    const adminKey = await makeRegisteredKey(server.baseUrl, { level: 'admin' });
    const adminKeyToken = (await login(server.baseUrl, adminKey)).body.sessionToken as string;
    expect((await call('GET', '/api/tor/logs', undefined, adminKeyToken)).status).toBe(200);
    const audit = (await call('GET', '/api/admin/audit')).body;
    expect(JSON.stringify(audit)).toContain('tor.connect');
  });

  it('restarts tor and keeps the onion address (the key stays in DATA_DIR/tor)', async () => {
    const { call, server } = ctx;
    const first = (await call('POST', '/api/tor/start')).body.onionAddress as string;
    const restarted = await call('POST', '/api/tor/restart');
    expect(restarted.body).toMatchObject({ success: true, onionAddress: first });
    expect(server.tor.logs.last().join('\n')).toContain('exiting cleanly');
  });
});

describe('bridges tested by the server while tor runs', () => {
  it('tests every bridge on its own every interval while tor runs, never dialling a documentation address', async () => {
    const ctx = await torServer({}, { bridgeTestIntervalMs: 300 });
    // A local listener stands in for a reachable bridge.
    const listener = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => listener.listen({ host: '127.0.0.1', port: 0 }, resolve));
    try {
      const openPort = (listener.address() as net.AddressInfo).port;
      const { call } = ctx;
      const local = await call('POST', '/api/tor/bridges', {
        type: 'obfs4',
        address: `127.0.0.1:${openPort}`,
        fingerprint: 'e'.repeat(40),
      });
      const documentation = await call('POST', '/api/tor/bridges', {
        type: 'obfs4',
        address: '192.0.2.44:443',
        fingerprint: 'f'.repeat(40),
      });
      const lastTests = async () =>
        Object.fromEntries(
          ((await call('GET', '/api/tor/bridges')).body.bridges as JsonObject[]).map((bridge) => [
            bridge.id,
            bridge.lastTest,
          ]),
        );
      // tor stopped: nothing is tested.
      await new Promise((resolve) => setTimeout(resolve, 900));
      expect(await lastTests()).toEqual({ [local.body.id]: null, [documentation.body.id]: null });

      expect((await call('POST', '/api/tor/start')).body).toMatchObject({ success: true });
      await expect
        .poll(async () => (await lastTests())[local.body.id]?.success, { timeout: 15_000 })
        .toBe(true);
      const tests = await lastTests();
      expect(tests[documentation.body.id]).toMatchObject({
        success: false,
        message: expect.stringContaining('documentation address'),
      });
      // The next round sees the listener gone.
      await new Promise((resolve) => listener.close(resolve));
      await expect
        .poll(async () => (await lastTests())[local.body.id]?.success, { timeout: 15_000 })
        .toBe(false);
    } finally {
      listener.close();
      await ctx.call('POST', '/api/tor/stop');
      await ctx.cleanup();
    }
  });

  it('shows every visitor the public status only: connected, bandwidth, reachability and the onion address', async () => {
    const ctx = await torServer();
    try {
      await ctx.call('POST', '/api/tor/connect', {});
      let visible: JsonObject = {};
      await expect
        .poll(
          async () =>
            (visible = (await ctx.call('GET', '/api/tor/status', undefined, null)).body).connected,
          { timeout: 15_000 },
        )
        .toBe(true);
      expect(Object.keys(visible).sort()).toEqual(
        [
          'bandwidth',
          'bootstrapProgress',
          'circuits',
          'connected',
          'hiddenServiceReachable',
          'onionAddress',
          'state',
        ].sort(),
      );
      expect(visible.onionAddress).toMatch(/^[a-z2-7]{56}\.onion$/);
    } finally {
      await ctx.call('POST', '/api/tor/stop');
      await ctx.cleanup();
    }
  });
});

describe('the onion service tests itself while connected', () => {
  // The fake tor relays its own onion address to the torrc's HiddenServicePort target with tor's
  // PROXY line; a `fake-unreachable` file in the HiddenServiceDir makes it refuse, as tor does
  // when the service's descriptor cannot be found.
  it(
    'reports hiddenServiceReachable from its own test through tor, to admins and visitors',
    { timeout: 90_000 },
    async () => {
      const ctx = await torServer({}, { torSelfTestIntervalMs: 300 });
      const { call } = ctx;
      const visitorStatus = async () =>
        (await call('GET', '/api/tor/status', undefined, null)).body;
      const marker = path.join(ctx.dataDir, 'tor', 'hidden_service', 'fake-unreachable');
      try {
        expect((await call('POST', '/api/tor/start')).body).toMatchObject({ success: true });
        // Running but disconnected (DisableNetwork 1): never tested, never reachable.
        await new Promise((resolve) => setTimeout(resolve, 1200));
        expect((await call('GET', '/api/tor/status')).body).toMatchObject({
          state: 'disconnected',
          hiddenServiceReachable: false,
          hiddenServiceCheckedAt: null,
        });

        // Connected: the first test runs with the circuit, without anyone pressing TOR TEST.
        await call('POST', '/api/tor/connect', {});
        await expect
          .poll(async () => (await visitorStatus()).hiddenServiceReachable, { timeout: 15_000 })
          .toBe(true);
        const admin = (await call('GET', '/api/tor/status')).body;
        expect(admin).toMatchObject({ connected: true, hiddenServiceReachable: true });
        const checkedAt = Date.parse(admin.hiddenServiceCheckedAt as string);
        expect(Date.now() - checkedAt).toBeLessThan(15_000);
        // The test went through the onion entrance into the app, as a visitor's request does.
        expect((await visitorStatus()).onionAddress).toMatch(/^[a-z2-7]{56}\.onion$/);

        // The service stops answering through tor: the next rounds say so.
        writeFileSync(marker, '');
        await expect
          .poll(async () => (await visitorStatus()).hiddenServiceReachable, { timeout: 15_000 })
          .toBe(false);
        const later = (await call('GET', '/api/tor/status')).body;
        expect(later.connected).toBe(true);
        expect(Date.parse(later.hiddenServiceCheckedAt as string)).toBeGreaterThan(checkedAt);
        expect((await call('POST', '/api/tor/test-hidden-service')).body).toMatchObject({
          success: false,
          message: 'The onion service did not answer through Tor',
        });

        unlinkSync(marker);
        await expect
          .poll(async () => (await visitorStatus()).hiddenServiceReachable, { timeout: 15_000 })
          .toBe(true);
        expect((await call('POST', '/api/tor/test-hidden-service')).body).toMatchObject({
          success: true,
          message: 'The onion service answered through Tor',
        });
        expect(ctx.server.logs.text()).toContain('the onion service answers through Tor');

        // Disconnected: nothing claims the service is reachable any more.
        await call('POST', '/api/tor/disconnect');
        expect((await call('GET', '/api/tor/status')).body).toMatchObject({
          connected: false,
          hiddenServiceReachable: false,
          hiddenServiceCheckedAt: null,
        });
      } finally {
        await call('POST', '/api/tor/stop');
        await ctx.cleanup();
      }
    },
  );
});

describe('tor routes when tor cannot run', () => {
  it(
    'reports tor unavailable with a clear message, never a crash',
    { timeout: 90_000 },
    async () => {
      const ctx = await torServer({ TOR_BIN: '/nonexistent/tor' });
      try {
        const status = await ctx.call('GET', '/api/tor/status');
        expect(status.body).toMatchObject({
          state: 'unavailable',
          running: false,
          message: TOR_TEXT.unavailable,
        });
        expect(await ctx.call('POST', '/api/tor/start')).toEqual({
          status: 503,
          body: { error: TOR_TEXT.unavailable },
        });
        expect((await ctx.call('POST', '/api/tor/connect', {})).status).toBe(503);
      } finally {
        await ctx.cleanup();
      }
    },
  );

  it('says which port is already in use', { timeout: 90_000 }, async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen({ host: '127.0.0.1', port: 0 }, resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    const ctx = await torServer({ TOR_CONTROL_PORT: String(port) });
    try {
      expect(await ctx.call('POST', '/api/tor/start')).toEqual({
        status: 409,
        body: { error: `Control port ${port} is already in use` },
      });
      expect((await ctx.call('GET', '/api/tor/status')).body.message).toBe(
        `Control port ${port} is already in use`,
      );
    } finally {
      await ctx.cleanup();
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
