/**
 * Every per-visitor limit counts the visitor (server/lib/visitor.ts), not the exact address: an
 * IPv6 /64 is one visitor, an IPv4-mapped address is its IPv4. Real HTTP and WebSocket against the
 * real server behind a trusted proxy (TRUST_PROXY): each request names its client address in
 * X-Forwarded-For, so the tests speak from many addresses of one /64, and from the next /64 to
 * show the honest visitor still served. (Admin lockout, room codes, bans and onion circuits:
 * tests/adversary/visitor-limits.test.ts.)
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { bytesToNumbers } from '../../shared/crypto/bytes.js';
import { createKeyFile, signChallenge } from '../../shared/crypto/key-file.js';
import { DEFAULT_UPLOAD_QUOTAS } from '../../server/features/images/quota.js';
import { makeRegisteredKey } from '../support/keys.js';
import { startServer, type TestServer } from '../support/server.js';
import { TestSocket } from '../support/ws-client.js';

const servers: TestServer[] = [];
const sockets: TestSocket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  for (const server of servers.splice(0)) await server.stop();
});

/** Address `host` of the /64 `2001:db8:<net64>:7::/64`, written in varied forms. */
const inNet = (net64: number, host: number) =>
  host % 2 === 0
    ? `2001:db8:${net64.toString(16)}:7::${host.toString(16)}`
    : `2001:0db8:${net64.toString(16).padStart(4, '0')}:0007:${host.toString(16)}:0:0:1`;

async function start(env: Record<string, string> = {}, deps = {}) {
  const server = await startServer({ env: { TRUST_PROXY: 'loopback', ...env }, deps });
  servers.push(server);
  return server;
}

/** Opens a realtime socket as `from`: 101, or the refusal's status. */
async function upgrade(server: TestServer, from: string): Promise<number> {
  try {
    sockets.push(
      await TestSocket.connect(server.wsUrl(), { headers: { 'x-forwarded-for': from } }),
    );
    return 101;
  } catch (error) {
    const status = /Unexpected server response: (\d+)/.exec(String(error))?.[1];
    if (!status) throw error;
    return Number(status);
  }
}

describe('per-visitor limits count the /64', { timeout: 120_000 }, () => {
  it('caps realtime sockets per /64 and per IPv4, mapped or not', async () => {
    const server = await start({ MAX_SOCKETS_PER_ADDRESS: '2' });
    expect(await upgrade(server, inNet(1, 1))).toBe(101);
    expect(await upgrade(server, inNet(1, 2))).toBe(101);
    // A third address of the same /64 is the same visitor.
    expect(await upgrade(server, inNet(1, 3))).toBe(429);
    // The next /64 is another visitor.
    expect(await upgrade(server, inNet(2, 1))).toBe(101);
    // An IPv4 visitor is the same whether written as IPv4 or as IPv4-mapped IPv6.
    expect(await upgrade(server, '203.0.113.5')).toBe(101);
    expect(await upgrade(server, '::ffff:203.0.113.5')).toBe(101);
    expect(await upgrade(server, '::ffff:cb00:7105')).toBe(429);
    expect(await upgrade(server, '203.0.113.6')).toBe(101);
  });

  it('holds the upload quota of a /64, whichever of its addresses uploads', async () => {
    const server = await start();
    const roomId = (await server.rooms.defaultRoom()).secureId;
    let callsign = 300;
    const member = async () => {
      const socket = await TestSocket.connect(server.wsUrl());
      sockets.push(socket);
      callsign += 1;
      socket.send({ type: 'join_room', roomId, username: `Ghost${callsign}` });
      return String((await socket.nextOfType('room_joined')).accessToken);
    };
    const form = new FormData();
    form.append('roomId', roomId);
    form.append('encryptedImage', new Blob([randomBytes(1024)]), 'image.bin');
    const encoded = new Response(form);
    const contentType = encoded.headers.get('content-type')!;
    const body = Buffer.from(await encoded.arrayBuffer());
    const upload = async (grant: string, from: string) =>
      (
        await fetch(`${server.baseUrl}/api/secure-upload`, {
          method: 'POST',
          headers: { 'content-type': contentType, 'x-room-access': grant, 'x-forwarded-for': from },
          body,
        })
      ).status;

    // Members (sockets) hold 6 images each; the visitor behind them holds 12 in all.
    const perMember = DEFAULT_UPLOAD_QUOTAS.member.count;
    const perVisitor = DEFAULT_UPLOAD_QUOTAS.address.count;
    let host = 1;
    const statuses: number[] = [];
    for (let uploaded = 0; uploaded < perVisitor;) {
      const grant = await member();
      for (let i = 0; i < perMember && uploaded < perVisitor; i += 1, uploaded += 1)
        statuses.push(await upload(grant, inNet(3, host++)));
    }
    expect(statuses.every((status) => status === 200)).toBe(true);
    // A fresh socket (its member quota untouched) from a fresh address of the /64: refused.
    const fresh = await member();
    expect(await upload(fresh, inNet(3, 0xfff1))).toBe(429);
    // The same socket uploading from the next /64 is another visitor's upload.
    expect(await upload(fresh, inNet(4, 1))).toBe(200);
  });

  it('counts payments opened from one /64 against one flood limit', async () => {
    const server = await start(
      { PAYMENT_PROVIDER: 'sandbox' },
      { paymentCreationsPerTenMinutes: 3 },
    );
    const open = async (from: string) =>
      (
        await fetch(`${server.baseUrl}/api/crypto/generate-payment`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
          body: JSON.stringify({ currency: 'BTC', minAmountUsd: 250, username: `buyer ${from}` }),
        })
      ).status;
    const statuses = [];
    for (let host = 1; host <= 5; host += 1) statuses.push(await open(inNet(5, host)));
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(await open(inNet(6, 1))).toBe(200);
  });

  it("counts failed key logins against a key from one /64 as one visitor's", async () => {
    const server = await start({}, { keyLoginFailuresPerWindow: 3, loginRatePerMinute: 1000 });
    const victim = await makeRegisteredKey(server.baseUrl, { username: 'victim64' });
    const forger = await createKeyFile({ username: 'victim64', level: 'user', validityDays: 30 });
    const post = async (path: string, body: unknown, from: string) => {
      const response = await fetch(`${server.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    /** A verification for the victim's key signed with another key: always a failure. */
    const forgedLogin = async (from: string) => {
      const challenge = (await post('/api/auth/challenge', { keyId: victim.keyId }, from)).body
        .challenge as string;
      const signatures = await signChallenge(forger, challenge);
      return (
        await post(
          '/api/auth/verify',
          {
            keyId: victim.keyId,
            challenge,
            dilithiumSignature: bytesToNumbers(signatures.dilithiumSignature),
            ecdsaSignature: bytesToNumbers(signatures.ecdsaSignature),
          },
          from,
        )
      ).status;
    };
    const statuses = [];
    for (let host = 1; host <= 5; host += 1) statuses.push(await forgedLogin(inNet(7, host)));
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    // Someone in the next /64 is still checked (and fails on their own account).
    expect(await forgedLogin(inNet(8, 1))).toBe(401);
  });

  it('bans a bot from its whole /64, and not the next /64', async () => {
    const server = await start();
    const roomId = (await server.rooms.defaultRoom()).secureId;
    const connect = async (from: string) => {
      const socket = await TestSocket.connect(server.wsUrl(), {
        headers: { 'x-forwarded-for': from },
      });
      sockets.push(socket);
      return socket;
    };
    const bot = await connect(inNet(9, 1));
    bot.send({ type: 'join_room', roomId, username: 'Shadow64' });
    await bot.nextOfType('room_joined');
    for (let i = 0; i < 36; i += 1)
      bot.send({ type: 'send_message', content: `spam ${i}`, encryptionType: 'PLAINTEXT' });
    const challenge = await bot.nextOfType('bot_challenge');
    for (let i = 0; i < 3; i += 1)
      bot.send({
        type: 'bot_challenge_response',
        challengeId: challenge.challengeId,
        answer: '-1',
      });
    expect(await bot.waitForClose()).toBe(4008);

    // Back from another address of the /64: still the banned visitor.
    const again = await connect(inNet(9, 2));
    expect(await again.nextOfType('bot_detected')).toBeTruthy();
    expect(await again.waitForClose()).toBe(4008);
    // The next /64 joins.
    const neighbour = await connect(inNet(10, 1));
    neighbour.send({ type: 'join_room', roomId, username: 'Ghost64' });
    expect(await neighbour.nextOfType('room_joined')).toBeTruthy();
  });
});
