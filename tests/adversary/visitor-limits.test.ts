/**
 * One visitor, one name, every limit (DESIGN.md principle 7; SECURITY.md "visitor limits"). An
 * attacker with an IPv6 /64 holds 2^64 addresses, and a Tor client opens circuits at will; every
 * per-visitor limit counts the visitor (server/lib/visitor.ts: an IPv4 address, an IPv6 /64, an
 * onion circuit), never the exact address. The real server over real HTTP and WebSocket; behind
 * a trusted proxy (TRUST_PROXY) each request names its address in X-Forwarded-For, so one test
 * speaks from as many addresses of one /64 as it likes. Each test names the attack it stops and
 * shows the honest visitor next door (another /64, another circuit) still served.
 */
import { createHash } from 'node:crypto';
import net from 'node:net';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MAX_FAILED_ATTEMPTS } from '../../shared/constants.js';
import { RoomSchema, type Room } from '../../shared/protocol/http/rooms.js';
import { ACCESS_ATTEMPTS } from '../../server/features/rooms/index.js';
import { ONION_SOCKETS_PER_CIRCUIT } from '../../server/realtime/admission.js';
import { login, makeRegisteredKey } from '../support/keys.js';
import { startServer, TEST_ADMIN_PASSWORD, type TestServer } from '../support/server.js';
import { TestSocket } from '../support/ws-client.js';

/** Address `host` (1…0xffff) of the /64 `2001:db8:<net>:1::/64`. */
const inNet = (net64: number, host: number) =>
  `2001:db8:${net64.toString(16)}:1:${((host * 7919) & 0xffff).toString(16)}:0:${host.toString(16)}:1`;

describe('visitors behind one /64 share every limit', () => {
  let server: TestServer;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    server = await startServer({
      env: { TRUST_PROXY: 'true' },
      deps: {
        loginRatePerMinute: 10_000,
        keyLoginFailuresPerWindow: 1_000,
        roomCreationsPerTenMinutes: 1_000,
        anonymousRoomCreationsPerTenMinutes: 1_000,
      },
    });
  }, 120_000);
  afterAll(async () => {
    await server.stop();
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });

  const post = (path: string, body: unknown, from: string, headers: Record<string, string> = {}) =>
    fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': from, ...headers },
      body: JSON.stringify(body),
    });

  it('locks admin-password guessing from 120 addresses of one /64 after three guesses', async () => {
    const statuses: number[] = [];
    // The review's attack: 120 guesses, each from a fresh address of one /64.
    for (let i = 1; i <= 120; i += 1) {
      const answer = await post('/api/admin/authenticate', { password: `guess-${i}` }, inNet(1, i));
      statuses.push(answer.status);
    }
    const checked = statuses.filter((status) => status === 401).length;
    expect(checked).toBeLessThanOrEqual(ADMIN_MAX_FAILED_ATTEMPTS);
    expect(statuses.filter((status) => status === 429)).toHaveLength(120 - checked);
    // Even the right password, from yet another address of that /64, waits out the lock.
    const during = await post(
      '/api/admin/authenticate',
      { password: TEST_ADMIN_PASSWORD },
      inNet(1, 0xfff0),
    );
    expect(during.status).toBe(429);
    expect(((await during.json()) as { error: string }).error).toMatch(/locked/);
    // The admin at home, in another /64 (and at another IPv4 address), is not locked out.
    const home = await post(
      '/api/admin/authenticate',
      { password: TEST_ADMIN_PASSWORD },
      inNet(2, 1),
    );
    expect(home.status).toBe(200);
    const office = await post(
      '/api/admin/authenticate',
      { password: TEST_ADMIN_PASSWORD },
      '198.51.100.20',
    );
    expect(office.status).toBe(200);
  });

  it('counts room access-code guesses from every address of one /64 against one limit', async () => {
    const code = (digits: string) => createHash('sha256').update(digits).digest('hex');
    const created = await post(
      '/api/rooms',
      { name: 'vault', securityLevel: 'restricted', passwordHash: code('4821') },
      '198.51.100.30',
    );
    expect(created.status).toBe(200);
    const room: Room = RoomSchema.parse(await created.json());
    const guess = (digits: string, from: string) =>
      post(`/api/rooms/${room.secureId}/verify-password`, { password: code(digits) }, from);

    // The review's attack walked 4-digit codes from fresh addresses of one /64.
    const answers: { status: number; valid?: boolean }[] = [];
    for (let i = 0; i < 40; i += 1) {
      const answer = await guess(String(i).padStart(4, '0'), inNet(3, i + 1));
      answers.push({ status: answer.status, ...((await answer.json()) as { valid?: boolean }) });
    }
    const checked = answers.filter((answer) => answer.status === 200);
    expect(checked).toHaveLength(ACCESS_ATTEMPTS);
    expect(checked.every((answer) => answer.valid === false)).toBe(true);
    expect(answers.slice(ACCESS_ATTEMPTS).every((answer) => answer.status === 429)).toBe(true);
    // The right code from the same /64 is no longer even checked.
    expect((await guess('4821', inNet(3, 0xfff0))).status).toBe(429);
    // A member who knows the code, in another /64, enters.
    const honest = await guess('4821', inNet(4, 1));
    expect(honest.status).toBe(200);
    expect(await honest.json()).toMatchObject({ valid: true });
  });

  it('keeps a banned visitor out from every address of their /64, and lets the next /64 in', async () => {
    const owner = await makeRegisteredKey(server.baseUrl, { username: 'warden' });
    const token = (await login(server.baseUrl, owner)).body.sessionToken as string;
    const created = await post('/api/rooms', { name: 'hall' }, '198.51.100.40', {
      authorization: `Bearer ${token}`,
    });
    const room = RoomSchema.parse(await created.json());
    const join = async (from: string, who: { username: string; sessionToken?: string }) => {
      const socket = await TestSocket.connect(server.wsUrl(), {
        headers: { 'x-forwarded-for': from },
      });
      sockets.push(socket);
      socket.send({ type: 'join_room', roomId: room.secureId, ...who });
      const joined = await socket.next(
        (frame) => frame.type === 'room_joined' || frame.type === 'error',
      );
      return { socket, joined };
    };
    const warden = await join('198.51.100.40', { username: 'warden', sessionToken: token });
    expect(warden.joined.type).toBe('room_joined');
    const troll = await join(inNet(5, 1), { username: 'Agent201' });
    expect(troll.joined.type).toBe('room_joined');

    warden.socket.send({ type: 'ban_member', nodeId: troll.joined.nodeId, minutes: 30 });
    await troll.socket.nextOfType('removed_from_room');

    // The ban evasion: another address of the same /64 (privacy extensions give one at will).
    for (const from of [inNet(5, 2), inNet(5, 0xbeef), '2001:db8:5:1::1']) {
      const evasion = await join(from, { username: 'Agent202' });
      expect(evasion.joined).toMatchObject({
        type: 'error',
        message: expect.stringMatching(/^You are banned from this channel until /),
      });
    }
    // A neighbour in the next /64 was not banned.
    const neighbour = await join(inNet(6, 1), { username: 'Agent203' });
    expect(neighbour.joined.type).toBe('room_joined');
  });

  it("bans every open socket of the banned visitor's /64 from the room, and no one else's", async () => {
    const owner = await makeRegisteredKey(server.baseUrl, { username: 'keeper' });
    const token = (await login(server.baseUrl, owner)).body.sessionToken as string;
    const created = await post('/api/rooms', { name: 'porch' }, '198.51.100.50', {
      authorization: `Bearer ${token}`,
    });
    const room = RoomSchema.parse(await created.json());
    const join = async (from: string, who: { username: string; sessionToken?: string }) => {
      const socket = await TestSocket.connect(server.wsUrl(), {
        headers: { 'x-forwarded-for': from },
      });
      sockets.push(socket);
      socket.send({ type: 'join_room', roomId: room.secureId, ...who });
      const joined = await socket.nextOfType('room_joined');
      return { socket, nodeId: joined.nodeId as string };
    };
    const keeper = await join('198.51.100.50', { username: 'keeper', sessionToken: token });
    // The troll keeps a second tab open from another address of their /64 before the ban.
    const troll = await join(inNet(7, 1), { username: 'Agent301' });
    const trollTab = await join(inNet(7, 2), { username: 'Agent302' });
    // A key holder behind the same /64 is another identity; a neighbour is another visitor.
    const colleague = await makeRegisteredKey(server.baseUrl, { username: 'colleague' });
    const colleagueToken = (await login(server.baseUrl, colleague)).body.sessionToken as string;
    const keyed = await join(inNet(7, 3), { username: 'colleague', sessionToken: colleagueToken });
    const neighbour = await join(inNet(8, 1), { username: 'Agent303' });

    keeper.socket.send({ type: 'ban_member', nodeId: troll.nodeId, minutes: 30 });
    for (const tab of [troll, trollTab]) {
      expect(await tab.socket.nextOfType('removed_from_room')).toMatchObject({ action: 'ban' });
    }
    // The honest members stay in the room and go on talking: no removal reached them.
    neighbour.socket.send({ type: 'send_message', content: 'hi', encryptionType: 'PLAINTEXT' });
    await keyed.socket.next(
      (frame) =>
        frame.type === 'new_message' &&
        (frame.message as { content: string; isSystem: boolean }).content === 'hi',
    );
    for (const honest of [keyed, neighbour]) {
      expect(honest.socket.frames.some((frame) => frame.type === 'removed_from_room')).toBe(false);
    }
  });
});

describe('one Tor client with many circuits', () => {
  const open: WebSocket[] = [];
  let server: TestServer;
  afterEach(async () => {
    for (const socket of open.splice(0)) socket.terminate();
    await server.stop();
  });

  /** Opens a realtime socket through the onion entrance on `circuit`, as tor would: 101 or the refusal. */
  function onionUpgrade(
    entrance: { host: string; port: number },
    circuit: number,
  ): Promise<number> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket('ws://abcdefghijklmnop.onion/chat-ws', {
        createConnection: () => {
          const tcp = net.connect(entrance.port, entrance.host);
          tcp.write(`PROXY TCP6 fc00:dead:beef:4dad::0:${circuit.toString(16)} ::1 65535 80\r\n`);
          return tcp;
        },
      });
      socket.once('open', () => {
        open.push(socket);
        resolve(101);
      });
      socket.once('unexpected-response', (_request, response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      socket.once('error', reject);
    });
  }

  it('cannot fill the onion sockets with 20 circuits, and never takes clearnet slots', async () => {
    // The shipped ratio (MAX_ONION_SOCKETS 1000 to MAX_SOCKETS_PER_ADDRESS 50) at a tenth of the
    // size: at 50 sockets a circuit, 20 circuits used to fill every onion slot.
    server = await startServer({
      env: { MAX_ONION_SOCKETS: '100', MAX_SOCKETS_PER_ADDRESS: '50' },
    });
    const entrance = await server.onionEntrance.listen('127.0.0.1');
    let accepted = 0;
    for (let circuit = 1; circuit <= 20; circuit += 1) {
      const statuses = [];
      for (let i = 0; i < ONION_SOCKETS_PER_CIRCUIT + 2; i += 1)
        statuses.push(await onionUpgrade(entrance, circuit));
      expect(statuses.slice(0, ONION_SOCKETS_PER_CIRCUIT).every((status) => status === 101)).toBe(
        true,
      );
      expect(statuses.slice(ONION_SOCKETS_PER_CIRCUIT)).toEqual([429, 429]);
      accepted += ONION_SOCKETS_PER_CIRCUIT;
    }
    expect(accepted).toBe(20 * ONION_SOCKETS_PER_CIRCUIT);
    // Another Tor user, on their own circuit, still gets in.
    expect(await onionUpgrade(entrance, 0x1000)).toBe(101);
    // Clearnet visitors never count against the onion share.
    const clearnet = await TestSocket.connect(server.wsUrl());
    clearnet.close();
  });

  it('shares one admin-password lockout among all circuits', async () => {
    server = await startServer({ deps: { loginRatePerMinute: 10_000 } });
    const entrance = await server.onionEntrance.listen('127.0.0.1');
    const guess = (circuit: number, password: string) =>
      new Promise<number>((resolve, reject) => {
        const socket = net.connect(entrance.port, entrance.host);
        const body = JSON.stringify({ password });
        socket.write(`PROXY TCP6 fc00:dead:beef:4dad::0:${circuit.toString(16)} ::1 65535 80\r\n`);
        socket.write(
          `POST /api/admin/authenticate HTTP/1.1\r\nHost: abcdefghijklmnop.onion\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        );
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
        socket.once('end', () => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0)));
        socket.once('error', reject);
      });
    const statuses = [];
    // A fresh circuit for every guess.
    for (let circuit = 1; circuit <= 20; circuit += 1)
      statuses.push(await guess(circuit, `guess-${circuit}`));
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(
      ADMIN_MAX_FAILED_ATTEMPTS,
    );
    expect(statuses.slice(ADMIN_MAX_FAILED_ATTEMPTS).every((status) => status === 429)).toBe(true);
    // The operator on the clearnet is not locked out.
    const response = await fetch(`${server.baseUrl}/api/admin/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: TEST_ADMIN_PASSWORD }),
    });
    expect(response.status).toBe(200);
  });
});
