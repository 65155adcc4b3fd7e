/**
 * A key bought or minted by anyone against a room whose creator required the access code from
 * everyone (issue 31; SECURITY.md "key holders and locked rooms"). Spec 000 §4 lets key holders
 * into every room without its code; a creator may turn that off for their room. Then a key is
 * worth nothing there: the attacker, holding a valid user key of their own, tries every door the
 * server has — the room list, join_room bare, join_room with a made-up grant or the grant of a
 * room their key did open, the node list, the room's images — and finds each one shut, while the
 * members who entered with the code never see them. Over real HTTP and WebSocket, on one process
 * with a key bought on the sandbox chain, and across two processes on PostgreSQL and Redis (the
 * room row, the grants and the member list then come from the shared stores).
 */
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createKeyFile } from '../../shared/crypto/key-file.js';
import type { KeyFile } from '../../shared/crypto/key-file-schema.js';
import { VerifyResponseSchema } from '../../shared/protocol/http/auth.js';
import type { GeneratePaymentResponse } from '../../shared/protocol/http/payments.js';
import { RoomSchema, type Room } from '../../shared/protocol/http/rooms.js';
import { login, makeRegisteredKey } from '../support/keys.js';
import type { ServerProcess } from '../support/processes.js';
import { buyerName, submitBuyerKey } from '../support/purchase.js';
import { startServer, type TestServer } from '../support/server.js';
import { HAS_POSTGRES, HAS_REDIS } from '../support/services.js';
import { TestSocket } from '../support/ws-client.js';
import { startProcessesOnRedis, type ProcessesOnRedis } from '../support/cluster.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const CODE = 'only-the-invited-know-this';
const REFUSED = { type: 'error', message: 'Access code required' };

/** Everything a client can do against rooms on one server, as one caller. */
function roomClient(baseUrl: string, sockets: TestSocket[]) {
  const wsUrl = `${baseUrl.replace('http', 'ws')}/chat-ws`;
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${baseUrl}${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', ...init.headers },
    });
  return {
    call,
    async createRoom(body: Record<string, unknown>): Promise<Room> {
      const response = await call('/api/rooms', { method: 'POST', body: JSON.stringify(body) });
      expect(response.status).toBe(200);
      return RoomSchema.parse(await response.json());
    },
    async grant(room: Room, code: string, headers: Record<string, string> = {}) {
      const response = await call(`/api/rooms/${room.secureId}/verify-password`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ password: sha256(code) }),
      });
      return ((await response.json()) as { accessToken: string | null }).accessToken;
    },
    async join(room: Room, frame: Record<string, unknown>) {
      const socket = await TestSocket.connect(wsUrl);
      sockets.push(socket);
      // A key holder's username comes from their key; the frame still carries one.
      socket.send({ type: 'join_room', roomId: room.secureId, username: 'Agent300', ...frame });
      const joined = await socket.next(
        (candidate) => candidate.type === 'room_joined' || candidate.type === 'error',
        20_000,
      );
      return { socket, joined };
    },
  };
}

describe('a purchased key against a code-for-everyone room, on one process', () => {
  let server: TestServer;
  let clock = Date.now();
  const sockets: TestSocket[] = [];
  let client: ReturnType<typeof roomClient>;
  /** The attacker's key: bought on the sandbox chain like any customer's. */
  let bought: KeyFile;
  let boughtToken: string;

  beforeAll(async () => {
    server = await startServer({
      env: { SANDBOX_CONFIRMATION_SECONDS: '10' },
      deps: { now: () => clock, loginRatePerMinute: 1000, roomCreationsPerTenMinutes: 1000 },
    });
    client = roomClient(server.baseUrl, sockets);
    bought = await buyKey(server, (ms) => (clock += ms));
    boughtToken = VerifyResponseSchema.parse(
      (await login(server.baseUrl, bought)).body,
    ).sessionToken;
  });
  afterAll(async () => {
    await server.stop();
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });

  it('a purchased key opens none of the doors of a room whose creator required the code', async () => {
    const asAttacker = { authorization: `Bearer ${boughtToken}` };
    const room = await client.createRoom({
      name: 'invited only',
      isPrivate: true,
      securityLevel: 'top_secret',
      passwordHash: sha256(CODE),
      codeRequiredForKeyHolders: true,
    });
    // A room of spec 000 §4's default, which the key does open: its grant is the attacker's.
    const keyed = await client.createRoom({
      name: 'keys welcome',
      isPrivate: true,
      securityLevel: 'classified',
      passwordHash: sha256('another code'),
    });
    const { joined: openedByKey } = await client.join(keyed, { sessionToken: boughtToken });
    expect(openedByKey.type).toBe('room_joined');
    const keyedGrant = String(openedByKey.accessToken);

    // An invited member inside, who entered with the code.
    const { socket: member, joined } = await client.join(room, {
      username: 'Agent301',
      accessToken: await client.grant(room, CODE),
    });
    expect(joined.type).toBe('room_joined');
    await member.nextOfType('user_list_update');
    const image = await upload(server.baseUrl, room, String(joined.accessToken));

    // The room list does not show it.
    const listed = (await (await client.call('/api/rooms', { headers: asAttacker })).json()) as {
      id: string;
    }[];
    expect(listed.map((candidate) => candidate.id)).toContain(keyed.id);
    expect(listed.map((candidate) => candidate.id)).not.toContain(room.id);

    // join_room: bare, with a made-up grant, with the grant of the room the key opened, with a
    // wrong code's (null) grant.
    for (const accessToken of [undefined, 'A'.repeat(32), keyedGrant, null]) {
      const { joined: attempt } = await client.join(room, {
        sessionToken: boughtToken,
        ...(accessToken === undefined ? {} : { accessToken }),
      });
      expect(attempt).toMatchObject(REFUSED);
    }
    expect(await client.grant(room, 'a guess', asAttacker)).toBeNull();

    // The node list, of the room and relay-wide, and the room's image.
    const nodes = await client.call(`/api/connected-ips?roomId=${room.secureId}`, {
      headers: { ...asAttacker, 'x-room-access': keyedGrant },
    });
    expect(nodes.status).toBe(403);
    const everywhere = (await (
      await client.call('/api/connected-ips', { headers: asAttacker })
    ).json()) as { ips: { roomId: string }[] };
    expect(everywhere.ips.some((node) => node.roomId === room.id)).toBe(false);
    const imageAnswer = await fetch(`${server.baseUrl}${image}`, {
      headers: { ...asAttacker, 'x-room-access': keyedGrant },
    });
    expect(imageAnswer.status).toBe(403);

    // The member never saw anyone else arrive.
    member.send({ type: 'request_user_list' });
    const list = await member.nextOfType('user_list_update');
    expect((list.users as { username: string }[]).map((user) => user.username)).toEqual([
      'Agent301',
    ]);
    expect(member.joins).toEqual([]);
  });

  it('a self-made key that the server never registered opens no session at all', async () => {
    const selfMade = await createKeyFile({ username: 'mallory', level: 'admin', validityDays: 30 });
    expect((await login(server.baseUrl, selfMade)).status).toBe(401);
    const room = await client.createRoom({
      name: 'invited only 2',
      isPrivate: true,
      securityLevel: 'restricted',
      passwordHash: sha256(CODE),
      codeRequiredForKeyHolders: true,
    });
    const { joined } = await client.join(room, { sessionToken: 'not-a-session-token' });
    expect(joined).toMatchObject({ type: 'error', message: 'Session expired or invalid' });
  });
});

describe.runIf(HAS_POSTGRES && HAS_REDIS)(
  'a user key against a code-for-everyone room, across two processes on Redis',
  () => {
    const ADMIN_PASSWORD = 'locked-room-cluster-password-1';
    let a: ServerProcess;
    let b: ServerProcess;
    let cluster: ProcessesOnRedis | null = null;
    const sockets: TestSocket[] = [];

    beforeAll(async () => {
      cluster = await startProcessesOnRedis(2, {
        ADMIN_PASSWORD,
      });
      [a, b] = cluster.servers as [ServerProcess, ServerProcess];
    }, 240_000);
    afterAll(async () => {
      for (const socket of sockets) socket.close();
      await cluster?.stop();
    });

    it('a user key refused on one process is refused on the other; the code works across them', async () => {
      const onA = roomClient(a.url, sockets);
      const onB = roomClient(b.url, sockets);
      const key = await makeRegisteredKey(a.url, {
        username: 'mallory',
        adminPassword: ADMIN_PASSWORD,
      });
      const token = VerifyResponseSchema.parse((await login(b.url, key)).body).sessionToken;
      const room = await onA.createRoom({
        name: 'invited only',
        isPrivate: true,
        securityLevel: 'classified',
        passwordHash: sha256(CODE),
        codeRequiredForKeyHolders: true,
      });
      const { socket: member } = await onA.join(room, {
        username: 'Agent302',
        accessToken: await onA.grant(room, CODE),
      });
      await member.nextOfType('user_list_update', 20_000);

      for (const client of [onA, onB]) {
        const { joined } = await client.join(room, { sessionToken: token });
        expect(joined).toMatchObject(REFUSED);
        const listed = (await (
          await client.call('/api/rooms', { headers: { authorization: `Bearer ${token}` } })
        ).json()) as { id: string }[];
        expect(listed.map((candidate) => candidate.id)).not.toContain(room.id);
      }
      // With the code, earned on A, the key holder enters on B, and A's member sees a code entry.
      const grant = await onA.grant(room, CODE, { authorization: `Bearer ${token}` });
      const { joined } = await onB.join(room, { sessionToken: token, accessToken: grant });
      expect(joined.type).toBe('room_joined');
      const arrival = await member.nextJoin('mallory', 20_000);
      expect((arrival.user as { entry?: string }).entry).toBe('code');
    }, 120_000);
  },
);

/** Uploads a few ciphertext bytes to the room as a member; the image's URL. */
async function upload(baseUrl: string, room: Room, grant: string): Promise<string> {
  const form = new FormData();
  form.append('roomId', room.id);
  form.append('encryptedImage', new Blob([new Uint8Array(128).fill(9)]), 'image.bin');
  const response = await fetch(`${baseUrl}/api/secure-upload`, {
    method: 'POST',
    headers: { 'x-room-access': grant },
    body: form,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { imageUrl: string }).imageUrl;
}

/** Buys a key on the sandbox chain as any customer can: invoice, own key, payment, registration. */
async function buyKey(server: TestServer, tick: (ms: number) => void): Promise<KeyFile> {
  const post = (path: string, body: unknown) =>
    fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const invoice = await post('/api/crypto/generate-payment', {
    currency: 'BTC',
    minAmountUsd: 75,
    username: buyerName(),
  });
  expect(invoice.status).toBe(200);
  const payment = (await invoice.json()) as GeneratePaymentResponse;
  const keyFile = await submitBuyerKey(server.baseUrl, payment);
  expect(
    (
      await post('/api/crypto/sandbox/pay', {
        paymentId: payment.paymentId,
        amount: payment.amount,
      })
    ).status,
  ).toBe(200);
  tick(60_000);
  // Confirmations are counted when the status is read.
  await fetch(`${server.baseUrl}/api/crypto/payment-status/${payment.paymentId}`);
  const generated = await post('/api/crypto/generate-key', { paymentId: payment.paymentId });
  expect(generated.status).toBe(200);
  return keyFile;
}
