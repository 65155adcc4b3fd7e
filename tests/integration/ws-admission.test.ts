/**
 * Realtime admission (issue 15, item 3): a browser page on another site cannot open sockets, and
 * one address cannot hold more than its share of sockets. Both are refused with an HTTP answer
 * before the upgrade.
 */
import type { IncomingHttpHeaders } from 'node:http';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { type MemoryAccessGrantStore } from '../../server/features/rooms/index.js';
import { startServer, type TestServer } from '../support/server.js';
import { TestSocket } from '../support/ws-client.js';
import { deletePrefix, REDIS_TEST_URL, testPrefix } from '../support/redis.js';
import { connectRedis } from '../../server/redis/connect.js';

const servers: TestServer[] = [];
const sockets: TestSocket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  for (const server of servers.splice(0)) await server.stop();
});

async function start(env: Record<string, string> = {}) {
  const server = await startServer({ env });
  servers.push(server);
  return server;
}

/** The HTTP status, headers and body of a refused upgrade, or 101 when the socket opened. */
function upgradeStatus(
  url: string,
  options: WebSocket.ClientOptions = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options);
    socket.once('open', () => {
      socket.close();
      resolve({ status: 101, headers: {}, body: '' });
    });
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
      );
    });
    socket.once('error', (error) => reject(error));
  });
}

describe('realtime origin check', () => {
  it('refuses a page from another site on both paths with 403 before the upgrade', async () => {
    const server = await start();
    for (const path of ['/chat-ws', '/ws']) {
      const refused = await upgradeStatus(server.wsUrl(path), {
        headers: { origin: 'https://evil.example' },
      });
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body)).toEqual({ error: 'Origin not allowed' });
    }
    expect(server.hub.connectionCount()).toBe(0);
  });

  it('lets the served origin, a configured origin and non-browser clients in', async () => {
    const server = await start({ ALLOWED_ORIGINS: 'https://chat.example, http://abcdefxyz.onion' });
    const own = new URL(server.baseUrl).origin;
    for (const origin of [own, 'https://chat.example', 'http://abcdefxyz.onion']) {
      expect((await upgradeStatus(server.wsUrl(), { headers: { origin } })).status).toBe(101);
    }
    expect((await upgradeStatus(server.wsUrl())).status).toBe(101);
    expect(
      (await upgradeStatus(server.wsUrl(), { headers: { origin: 'https://chat.example.evil' } }))
        .status,
    ).toBe(403);
  });
});

/** Headers of an answer that describe its transport, body or request count, not its security. */
const NOT_SECURITY = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'content-type',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
]);

describe('refused upgrades', () => {
  it('carry the security headers of an HTTP error answer, with the same {error} body', async () => {
    const server = await start({ MAX_SOCKETS_PER_ADDRESS: '1' });
    // An HTTP error answered by Fastify: its headers, but for transport and body, are the
    // security headers (server/plugins/security-headers.ts).
    const httpError = await fetch(`${server.baseUrl}/api/no-such-route`);
    expect(httpError.status).toBe(404);
    const expected = Object.fromEntries(
      [...httpError.headers].filter(([name]) => !NOT_SECURITY.has(name)),
    );
    expect(expected).toHaveProperty('content-security-policy');
    expect(expected).toHaveProperty('permissions-policy');
    expect(expected).toHaveProperty('x-content-type-options', 'nosniff');

    sockets.push(await TestSocket.connect(server.wsUrl()));
    const refusals = [
      await upgradeStatus(server.wsUrl(), { headers: { origin: 'https://evil.example' } }),
      await upgradeStatus(server.wsUrl('/ws')),
      await upgradeStatus(server.wsUrl('/elsewhere')),
    ];
    expect(refusals.map((refused) => refused.status)).toEqual([403, 429, 404]);
    for (const refused of refusals) {
      const security = Object.fromEntries(
        Object.entries(refused.headers).filter(([name]) => !NOT_SECURITY.has(name)),
      );
      expect(security).toEqual(expected);
      expect(refused.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Object.keys(JSON.parse(refused.body) as object)).toEqual(['error']);
    }
  });
});

describe('per-address socket cap', () => {
  it('refuses sockets over the cap from one address with 429 and frees a slot when one closes', async () => {
    const server = await start({ MAX_SOCKETS_PER_ADDRESS: '3' });
    for (let i = 0; i < 3; i += 1) sockets.push(await TestSocket.connect(server.wsUrl()));
    const refused = await upgradeStatus(server.wsUrl('/ws'));
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({ error: 'Too many connections from this address' });

    // Another address of this machine has its own allowance.
    const other = await TestSocket.connect(server.wsUrl(), { localAddress: '127.0.0.2' });
    sockets.push(other);
    other.send({ type: 'request_user_list', roomId: 'x' });
    expect(await other.nextOfType('error')).toBeTruthy();

    // Closing one frees its slot.
    sockets.shift()!.close();
    await expect.poll(() => upgradeStatus(server.wsUrl()).then((r) => r.status)).toBe(101);
  });

  it('counts concurrent upgrades atomically', async () => {
    const server = await start({ MAX_SOCKETS_PER_ADDRESS: '5' });
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        TestSocket.connect(server.wsUrl()).then(
          (socket) => (sockets.push(socket), 'open'),
          () => 'refused',
        ),
      ),
    );
    expect(results.filter((result) => result === 'open')).toHaveLength(5);
    expect(server.hub.connectionCount()).toBe(5);
  });
});

describe('room access grants', () => {
  it('hands a socket the same grant on every re-join, so a join flood does not grow the store', async () => {
    const server = await start();
    const roomId = (await server.rooms.defaultRoom()).secureId;
    const grants = server.shared.grants as MemoryAccessGrantStore;
    const before = grants.size;
    const socket = await TestSocket.connect(server.wsUrl());
    sockets.push(socket);
    const tokens = new Set<unknown>();
    // Below the join-flood signal (6 joins in 30 s) so that no challenge interrupts.
    for (let i = 0; i < 5; i += 1) {
      socket.send({ type: 'join_room', roomId, username: 'Unit77' });
      tokens.add((await socket.nextOfType('room_joined')).accessToken);
    }
    expect(tokens.size).toBe(1);
    expect(grants.size).toBe(before + 1);

    // Another socket gets its own grant.
    const other = await TestSocket.connect(server.wsUrl());
    sockets.push(other);
    other.send({ type: 'join_room', roomId, username: 'Unit78' });
    expect((await other.nextOfType('room_joined')).accessToken).not.toBe([...tokens][0]);
    expect(grants.size).toBe(before + 2);
  });
});

describe('anonymous room creation', () => {
  it('holds a service-wide cap on rooms made without a key, below the per-address limit', async () => {
    const server = await startServer({ deps: { anonymousRoomCreationsPerTenMinutes: 3 } });
    servers.push(server);
    const create = (name: string) =>
      fetch(`${server.baseUrl}/api/rooms`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name, isPrivate: false, securityLevel: 'public' }),
      });
    for (let i = 0; i < 3; i += 1) expect((await create(`open-${i}`)).status).toBe(200);
    const refused = await create('one-too-many');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: 'Too many new channels right now. Try again in a few minutes.',
    });
    expect(
      (await server.rooms.listRooms({ includeLocked: false })).map((room) => room.name),
    ).not.toContain('one-too-many');
  });
});

describe('upgrades taken before the HTTP framework', () => {
  /** What the global limit has left for this client, as an HTTP answer reports it. */
  async function remaining(baseUrl: string): Promise<number> {
    const response = await fetch(`${baseUrl}/api/service-status`);
    await response.arrayBuffer();
    return Number(response.headers.get('x-ratelimit-remaining'));
  }

  it('counts every upgrade against the global request limit, in the same store as HTTP', async () => {
    const server = await start();
    const before = await remaining(server.baseUrl);
    for (let i = 0; i < 2; i += 1) sockets.push(await TestSocket.connect(server.wsUrl()));
    // Two upgrades and the request itself.
    expect(await remaining(server.baseUrl)).toBe(before - 3);
  });

  it('refuses an upgrade past the global request limit with 429, {error} and Retry-After', async () => {
    const server = await start();
    let left = await remaining(server.baseUrl);
    while (left > 0) {
      const batch = Math.min(left, 50);
      await Promise.all(
        Array.from({ length: batch }, () =>
          fetch(`${server.baseUrl}/api/service-status`).then((r) => r.arrayBuffer()),
        ),
      );
      left -= batch;
    }
    const socket = new WebSocket(server.wsUrl());
    const response = await new Promise<{ status: number; retryAfter: string | null; body: string }>(
      (resolve, reject) => {
        socket.once('open', () => reject(new Error('opened past the limit')));
        socket.once('unexpected-response', (_request, answer) => {
          let body = '';
          answer.on('data', (chunk: Buffer) => (body += chunk.toString()));
          answer.on('end', () =>
            resolve({
              status: answer.statusCode ?? 0,
              retryAfter: answer.headers['retry-after'] ?? null,
              body,
            }),
          );
        });
        socket.once('error', reject);
      },
    );
    expect(response.status).toBe(429);
    expect(JSON.parse(response.body)).toEqual({ error: 'Too many requests' });
    expect(Number(response.retryAfter)).toBeGreaterThan(0);
    expect(server.hub.connectionCount()).toBe(0);
  });

  it('shares the count with every process on Redis', async () => {
    const prefix = testPrefix();
    const env = { REDIS_URL: REDIS_TEST_URL, REDIS_PREFIX: prefix };
    const [one, two] = [await start(env), await start(env)] as [TestServer, TestServer];
    try {
      const before = await remaining(two.baseUrl);
      sockets.push(await TestSocket.connect(one.wsUrl()));
      expect(await remaining(two.baseUrl)).toBe(before - 2);
    } finally {
      const redis = await connectRedis(REDIS_TEST_URL, prefix);
      await deletePrefix(redis, prefix);
      await redis.close();
    }
  });

  it('counts sockets per forwarded address when the proxy is trusted, as HTTP sees it', async () => {
    const server = await start({ MAX_SOCKETS_PER_ADDRESS: '1', TRUST_PROXY: 'loopback' });
    const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
    sockets.push(await TestSocket.connect(server.wsUrl(), from('203.0.113.1')));
    sockets.push(await TestSocket.connect(server.wsUrl(), from('203.0.113.2')));
    expect((await upgradeStatus(server.wsUrl(), from('203.0.113.1'))).status).toBe(429);
    expect(server.hub.connectionCount()).toBe(2);
  });

  it('ignores forwarding headers from a client that is not a trusted proxy', async () => {
    const server = await start({ MAX_SOCKETS_PER_ADDRESS: '1' });
    sockets.push(
      await TestSocket.connect(server.wsUrl(), { headers: { 'x-forwarded-for': '203.0.113.1' } }),
    );
    const refused = await upgradeStatus(server.wsUrl(), {
      headers: { 'x-forwarded-for': '203.0.113.2' },
    });
    expect(refused.status).toBe(429);
  });

  it('answers an upgrade to any other path with 404 and accepts a query on a realtime path', async () => {
    const server = await start();
    const other = await upgradeStatus(server.wsUrl('/api/service-status'));
    expect(other.status).toBe(404);
    expect(JSON.parse(other.body)).toEqual({ error: 'Not found' });
    expect((await upgradeStatus(server.wsUrl('/ws?v=1'))).status).toBe(101);
    expect(server.hub.connectionCount()).toBeLessThanOrEqual(1);
  });
});
