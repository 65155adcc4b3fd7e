/**
 * `GET /api/voice/ice-servers` (DESIGN.md "Voice"; docs/protocol.md): only for a socket in a room,
 * the public STUN defaults or `ICE_SERVERS`, and with `TURN_URL` + `TURN_SECRET` a TURN entry
 * whose credential is coturn's shared-secret scheme. The credentials are checked against a real
 * coturn (`turnserver`, Debian's coturn) on loopback running `deploy/coturn/turnserver.conf`: the
 * route's credential allocates a relay; a forged one, one for another name, and one past its
 * expiry are refused with 401; the relay refuses loopback and private peers (403).
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STUN_SERVERS } from '../../shared/constants.js';
import { IceServersResponseSchema } from '../../shared/protocol/http/voice.js';
import { startServer, type TestServer } from '../support/server.js';
import { startCoturn, tryAllocate, TurnSession, type Coturn } from '../support/turn-client.js';
import { TestSocket } from '../support/ws-client.js';

const TURN_SECRET = 'integration-turn-secret-7f3a9c';
const REALM = 'securechannel.test';

async function member(server: TestServer, username: string) {
  const socket = await TestSocket.connect(server.wsUrl());
  const roomId = (await server.rooms.defaultRoom()).secureId;
  socket.send({ type: 'join_room', roomId, username });
  const joined = await socket.nextOfType('room_joined');
  return { socket, nodeId: joined.nodeId as string, grant: joined.accessToken as string };
}

function iceServers(server: TestServer, grant: string | null) {
  return fetch(`${server.baseUrl}/api/voice/ice-servers`, {
    headers: grant === null ? {} : { 'x-room-access': grant },
  });
}

describe('ICE servers with the defaults', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('answers members of a room with the public STUN servers and refuses everyone else', async () => {
    for (const grant of [null, 'not-a-grant']) {
      const refused = await iceServers(server, grant);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: 'Only members of this channel can use voice' });
    }
    const alice = await member(server, 'Agent301');
    const response = await iceServers(server, alice.grant);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = IceServersResponseSchema.parse(await response.json());
    expect(body).toEqual({ iceServers: DEFAULT_STUN_SERVERS });
    // Two operators' servers, so that one being down leaves another (spec 000 §7 "with a fallback").
    const hosts = body.iceServers
      .flatMap((entry) => (Array.isArray(entry.urls) ? entry.urls : [entry.urls]))
      .map((url) => url.split(':')[1]);
    expect(new Set(hosts.map((host) => host?.split('.').slice(-2).join('.'))).size).toBe(2);

    // Once the socket has left, its grant opens nothing.
    alice.socket.close();
    await alice.socket.waitForClose();
    await expect
      .poll(async () => (await iceServers(server, alice.grant)).status, { timeout: 5000 })
      .toBe(403);
  });
});

describe('ICE servers with ICE_SERVERS and coturn', () => {
  let server: TestServer;
  let coturn: Coturn;
  let clockOffset = 0;
  const sockets: TestSocket[] = [];
  const custom = [
    { urls: 'stun:stun.example.org:3478' },
    { urls: ['turn:turn.example.org:3478'], username: 'static', credential: 'static-pass' },
  ];

  beforeAll(async () => {
    coturn = await startCoturn(TURN_SECRET, REALM);
    server = await startServer({
      deps: { now: () => Date.now() + clockOffset },
      env: {
        ICE_SERVERS: JSON.stringify(custom),
        TURN_URL: `turn:127.0.0.1:${coturn.port}?transport=udp`,
        TURN_SECRET,
        TURN_TTL: '120',
      },
    });
  }, 60_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await server?.stop();
    await coturn?.stop();
  });

  async function credentialsFor(username: string) {
    const joined = await member(server, username);
    sockets.push(joined.socket);
    const body = IceServersResponseSchema.parse(
      await (await iceServers(server, joined.grant)).json(),
    );
    return { ...joined, body, turn: body.iceServers.at(-1)! };
  }

  it('lists ICE_SERVERS and a TURN credential in the shared-secret scheme', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { body, turn, nodeId } = await credentialsFor('Agent311');
    const after = Math.floor(Date.now() / 1000);
    expect(body.iceServers.slice(0, 2)).toEqual(custom);
    expect(body.ttl).toBe(120);
    expect(turn.urls).toEqual([`turn:127.0.0.1:${coturn.port}?transport=udp`]);
    const [expiry, id] = (turn.username ?? '').split(':');
    expect(id).toBe(nodeId);
    expect(Number(expiry)).toBeGreaterThanOrEqual(before + 120);
    expect(Number(expiry)).toBeLessThanOrEqual(after + 120);
    expect(turn.credential).toBe(
      createHmac('sha1', TURN_SECRET)
        .update(turn.username ?? '')
        .digest('base64'),
    );
    expect(server.logs.text()).not.toContain(TURN_SECRET);
    expect(server.logs.text()).not.toContain(turn.credential);
  });

  it('hands out credentials coturn accepts, and coturn refuses forged and expired ones', async () => {
    const { turn } = await credentialsFor('Agent312');
    const username = turn.username ?? '';
    const password = turn.credential ?? '';
    expect(await tryAllocate('127.0.0.1', coturn.port, username, password)).toEqual({
      ok: true,
      errorCode: null,
    });

    // Another secret, another name with this password, a password one bit off: all refused.
    const forged = createHmac('sha1', 'not-the-secret-000000').update(username).digest('base64');
    const [expiry] = username.split(':');
    const otherName = `${expiry}:node_ffffffffffffffff`;
    const flipped = Buffer.from(password, 'base64');
    flipped[0] = flipped[0]! ^ 1;
    for (const [name, secret] of [
      [username, forged],
      [otherName, password],
      [username, flipped.toString('base64')],
    ] as const) {
      expect(await tryAllocate('127.0.0.1', coturn.port, name, secret)).toEqual({
        ok: false,
        errorCode: 401,
      });
    }

    // The shipped configuration relays to public addresses only: never to this machine or a LAN.
    const session = new TurnSession('127.0.0.1', coturn.port);
    try {
      expect((await session.allocate(username, password)).ok).toBe(true);
      for (const peer of [
        '127.0.0.1',
        '10.1.2.3',
        '192.168.1.10',
        '172.16.0.5',
        '169.254.169.254',
      ]) {
        expect(await session.createPermission(peer)).toEqual({ ok: false, errorCode: 403 });
      }
      expect(await session.createPermission('8.8.8.8')).toEqual({ ok: true, errorCode: null });
    } finally {
      session.close();
    }

    // A credential the route issued 121 s ago (TTL 120 s) has expired.
    clockOffset = -121_000;
    const old = await credentialsFor('Agent313');
    clockOffset = 0;
    expect(Number(old.turn.username?.split(':')[0])).toBeLessThan(Date.now() / 1000);
    expect(
      await tryAllocate(
        '127.0.0.1',
        coturn.port,
        old.turn.username ?? '',
        old.turn.credential ?? '',
      ),
    ).toEqual({ ok: false, errorCode: 401 });
  });
});
