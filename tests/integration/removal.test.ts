/**
 * Removal removes (DESIGN.md principle 9, issue 31) over real WebSocket and HTTP: a room grant
 * lives as long as its socket's stay, TURN credentials are short and named after the member, a
 * socket that proved a key closes when the key is revoked whatever it speaks for now; and across
 * two processes on Redis, a mute and a kick reach every socket of the member wherever the HTTP
 * request or the socket lands. The hostile versions are in tests/adversary/removal-and-identity.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { KeyFile } from '../../shared/crypto/key-file-schema.js';
import { IceServersResponseSchema } from '../../shared/protocol/http/voice.js';
import { RoomSchema, type Room } from '../../shared/protocol/http/rooms.js';
import type { MemoryAccessGrantStore } from '../../server/features/rooms/index.js';
import { adminToken, login, makeRegisteredKey } from '../support/keys.js';
import type { ServerProcess } from '../support/processes.js';
import { startServer, type TestServer } from '../support/server.js';
import { HAS_POSTGRES, HAS_REDIS } from '../support/services.js';
import { TestSocket } from '../support/ws-client.js';
import { startProcessesOnRedis, type ProcessesOnRedis } from '../support/cluster.js';

const TURN_ENV = {
  TURN_URL: 'turn:127.0.0.1:3478?transport=udp',
  TURN_SECRET: 'removal-integration-turn-secret',
};

async function upload(baseUrl: string, roomId: string, grant: string, localAddress: string) {
  const form = new FormData();
  form.append('roomId', roomId);
  form.append('encryptedImage', new Blob([randomBytes(1024)]), 'image.bin');
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  return new Promise<{ status: number; body: { imageUrl?: string; error?: string } }>(
    (resolve, reject) => {
      const request = http.request(
        new URL('/api/secure-upload', baseUrl),
        {
          method: 'POST',
          localAddress,
          headers: {
            'content-type': encoded.headers.get('content-type')!,
            'content-length': String(body.byteLength),
            'x-room-access': grant,
          },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as never }),
          );
        },
      );
      request.on('error', reject);
      request.end(body);
    },
  );
}

const ice = (baseUrl: string, grant: string) =>
  fetch(`${baseUrl}/api/voice/ice-servers`, { headers: { 'x-room-access': grant } });

async function joinSocket(
  wsUrl: string,
  room: Room,
  who: { username: string; sessionToken?: string },
  localAddress = '127.0.0.1',
) {
  const socket = await TestSocket.connect(wsUrl, { localAddress });
  socket.send({ type: 'join_room', roomId: room.secureId, ...who });
  const joined = await socket.next(
    (frame) => frame.type === 'room_joined' || frame.type === 'error',
    20_000,
  );
  expect(joined.type, JSON.stringify(joined)).toBe('room_joined');
  return { socket, nodeId: joined.nodeId as string, grant: joined.accessToken as string };
}

describe('room grants, TURN credentials and revocation on one process', () => {
  let server: TestServer;
  const sockets: TestSocket[] = [];
  let owner: KeyFile;
  let ownerToken: string;

  beforeAll(async () => {
    server = await startServer({ env: TURN_ENV });
    owner = await makeRegisteredKey(server.baseUrl, { username: 'owner' });
    ownerToken = (await login(server.baseUrl, owner)).body.sessionToken as string;
  });
  afterAll(async () => {
    await server.stop();
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });

  const createRoom = async () =>
    RoomSchema.parse(
      await (
        await fetch(`${server.baseUrl}/api/rooms`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${ownerToken}` },
          body: JSON.stringify({ name: `grants-${Math.random().toString(36).slice(2, 8)}` }),
        })
      ).json(),
    );
  const join = async (room: Room, who: { username: string; sessionToken?: string }) => {
    const joined = await joinSocket(server.wsUrl(), room, who);
    sockets.push(joined.socket);
    return joined;
  };

  it('ends a grant when its socket leaves the room or closes, so reconnects do not pile grants up', async () => {
    const grants = server.shared.grants as MemoryAccessGrantStore;
    const first = await createRoom();
    const second = await createRoom();
    const admin = await join(first, { username: 'owner', sessionToken: ownerToken });
    const image = await upload(server.baseUrl, first.id, admin.grant, '127.0.0.1');
    expect(image.status).toBe(200);
    const imageStatus = async (grant: string) =>
      (
        await fetch(`${server.baseUrl}${image.body.imageUrl}`, {
          headers: { 'x-room-access': grant },
        })
      ).status;

    const before = grants.size;
    for (let i = 0; i < 4; i += 1) {
      const visitor = await join(first, { username: `Agent60${i}` });
      expect(grants.size).toBe(before + 1);
      expect(await imageStatus(visitor.grant)).toBe(200);
      visitor.socket.close();
      await admin.socket.next(
        (frame) => frame.type === 'user_left' && frame.nodeId === visitor.nodeId,
      );
      expect(grants.size).toBe(before);
      expect(await imageStatus(visitor.grant)).toBe(403);
    }

    // Moving to another room ends the first room's grant; a re-join of the same room keeps it.
    const mover = await join(first, { username: 'Agent610' });
    mover.socket.send({ type: 'join_room', roomId: first.secureId, username: 'Agent610' });
    expect((await mover.socket.nextOfType('room_joined')).accessToken).toBe(mover.grant);
    mover.socket.send({ type: 'join_room', roomId: second.secureId, username: 'Agent610' });
    await mover.socket.nextOfType('room_joined');
    expect(await imageStatus(mover.grant)).toBe(403);
    expect(grants.size).toBe(before + 1);
  });

  it('hands out TURN credentials for 10 minutes, named after the member, and none once it is kicked', async () => {
    const room = await createRoom();
    const admin = await join(room, { username: 'owner', sessionToken: ownerToken });
    const visitor = await join(room, { username: 'Agent620' });
    const names = new Set<string>();
    for (let i = 0; i < 2; i += 1) {
      const body = IceServersResponseSchema.parse(
        await (await ice(server.baseUrl, visitor.grant)).json(),
      );
      expect(body.ttl).toBe(600);
      const turn = body.iceServers.at(-1)!;
      const [expiry, id] = (turn.username ?? '').split(':');
      expect(Number(expiry) - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(600);
      names.add(id!);
    }
    // One TURN identity per member, whatever the number of requests.
    expect([...names]).toEqual([visitor.nodeId]);

    admin.socket.send({ type: 'kick_member', nodeId: visitor.nodeId });
    await visitor.socket.nextOfType('removed_from_room');
    expect((await ice(server.baseUrl, visitor.grant)).status).toBe(403);
    expect((await ice(server.baseUrl, admin.grant)).status).toBe(200);
  });

  it('closes a socket that proved a key when the key is revoked, even after it joined a room anonymously', async () => {
    const key = await makeRegisteredKey(server.baseUrl, { username: 'fleeting' });
    const token = (await login(server.baseUrl, key)).body.sessionToken as string;
    const room = await createRoom();
    const watcher = await join(room, { username: 'owner', sessionToken: ownerToken });
    const socket = await TestSocket.connect(server.wsUrl());
    sockets.push(socket);
    socket.send({ type: 'session_auth', sessionToken: token });
    await socket.nextOfType('session_authenticated');
    socket.send({ type: 'join_room', roomId: room.secureId, username: 'Agent630' });
    const joined = await socket.nextOfType('room_joined');
    const revoke = await fetch(`${server.baseUrl}/api/admin/keys/${key.keyId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${await adminToken(server.baseUrl)}` },
    });
    expect(revoke.status).toBe(200);
    expect(await socket.waitForClose()).toBe(4003);
    await watcher.socket.next(
      (frame) => frame.type === 'user_left' && frame.nodeId === joined.nodeId,
    );
    expect((await ice(server.baseUrl, joined.accessToken as string)).status).toBe(403);
    expect(watcher.socket.closeCode).toBeNull();
  });
});

describe.runIf(HAS_POSTGRES && HAS_REDIS)('mute and kick across two processes on Redis', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let cluster: ProcessesOnRedis | null = null;
  const sockets: TestSocket[] = [];
  const ADMIN_PASSWORD = 'removal-integration-password-1';
  let ownerToken: string;
  let twinToken: string;
  let twin: KeyFile;

  beforeAll(async () => {
    cluster = await startProcessesOnRedis(2, { ADMIN_PASSWORD, ...TURN_ENV });
    [a, b] = cluster.servers as [ServerProcess, ServerProcess];
    const owner = await makeRegisteredKey(a.url, {
      username: 'owner',
      adminPassword: ADMIN_PASSWORD,
    });
    twin = await makeRegisteredKey(a.url, { username: 'twin', adminPassword: ADMIN_PASSWORD });
    ownerToken = (await login(a.url, owner)).body.sessionToken as string;
    twinToken = (await login(a.url, twin)).body.sessionToken as string;
  }, 240_000);

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await cluster?.stop();
  });

  const WAIT_MS = 20_000;
  const wsUrl = (server: ServerProcess) => `${server.url.replace('http', 'ws')}/chat-ws`;
  const join = async (
    server: ServerProcess,
    room: Room,
    who: { username: string; sessionToken?: string },
    localAddress?: string,
  ) => {
    const joined = await joinSocket(wsUrl(server), room, who, localAddress);
    sockets.push(joined.socket);
    return joined;
  };
  const createRoom = async () =>
    RoomSchema.parse(
      await (
        await fetch(`${a.url}/api/rooms`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${ownerToken}` },
          body: JSON.stringify({ name: `cluster-${Math.random().toString(36).slice(2, 8)}` }),
        })
      ).json(),
    );

  it('refuses a member muted on A its frames on B and its uploads and voice servers through either process, until unmuted', async () => {
    const room = await createRoom();
    const admin = await join(a, room, { username: 'owner', sessionToken: ownerToken });
    const muted = await join(b, room, { username: 'Agent640' }, '127.0.0.40');
    const other = await join(b, room, { username: 'Agent641' }, '127.0.0.41');
    await admin.socket.waitForRoster((roster) => roster.size === 3, WAIT_MS);

    admin.socket.send({ type: 'mute_member', nodeId: muted.nodeId, minutes: 5 });
    await muted.socket.next(
      (frame) => frame.type === 'moderation_state' && frame.mutedUntil !== null,
      WAIT_MS,
    );
    muted.socket.send({ type: 'voice_call_start', username: 'Agent640' });
    expect(
      (
        await muted.socket.next(
          (f) => f.type === 'error' && f.frameType === 'voice_call_start',
          WAIT_MS,
        )
      ).message,
    ).toMatch(/^You are muted/);
    for (const server of [a, b]) {
      const refused = await upload(server.url, room.id, muted.grant, '127.0.0.40');
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatch(/^You are muted/);
      expect((await ice(server.url, muted.grant)).status).toBe(403);
      expect((await upload(server.url, room.id, other.grant, '127.0.0.41')).status).toBe(200);
      expect((await ice(server.url, other.grant)).status).toBe(200);
    }
    other.socket.send({ type: 'voice_call_start', username: 'Agent641' });
    await admin.socket.next(
      (f) =>
        f.type === 'voice_call_participants' &&
        (f.participants as { nodeId: string }[]).some((p) => p.nodeId === other.nodeId),
      WAIT_MS,
    );

    // The state the join sent (not muted) may still be queued: only the unmute's counts.
    muted.socket.discard((frame) => frame.type === 'moderation_state');
    admin.socket.send({ type: 'unmute_member', nodeId: muted.nodeId });
    await muted.socket.next(
      (frame) => frame.type === 'moderation_state' && frame.mutedUntil === null,
      WAIT_MS,
    );
    const allowed = await upload(a.url, room.id, muted.grant, '127.0.0.40');
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);
    expect((await ice(b.url, muted.grant)).status).toBe(200);
  });

  it("removes every socket of a kicked key, on both processes, and ends each one's grant", async () => {
    const room = await createRoom();
    const admin = await join(a, room, { username: 'owner', sessionToken: ownerToken });
    const onA = await join(a, room, { username: 'twin', sessionToken: twinToken });
    const onB = await join(b, room, { username: 'twin', sessionToken: twinToken });
    const bystander = await join(b, room, { username: 'Agent650' }, '127.0.0.50');
    await admin.socket.waitForRoster((roster) => roster.size === 4, WAIT_MS);

    admin.socket.send({ type: 'kick_member', nodeId: onB.nodeId });
    for (const socket of [onA.socket, onB.socket])
      expect(await socket.nextOfType('removed_from_room', WAIT_MS)).toMatchObject({
        action: 'kick',
      });
    await admin.socket.waitForRoster((roster) => roster.size === 2, WAIT_MS);
    for (const server of [a, b])
      for (const grant of [onA.grant, onB.grant])
        expect((await ice(server.url, grant)).status).toBe(403);
    expect((await ice(a.url, bystander.grant)).status).toBe(200);
    bystander.socket.send({
      type: 'send_message',
      content: 'still here',
      encryptionType: 'PLAINTEXT',
    });
    await admin.socket.next(
      (f) =>
        f.type === 'new_message' && (f.message as { content: string }).content === 'still here',
      WAIT_MS,
    );
  });
});
