/**
 * Removal removes; a socket has one identity (DESIGN.md principle 9, issue 31). Hostile members
 * with real WebSocket and HTTP clients against the real server, on one process and on two
 * processes sharing PostgreSQL and Redis. Each test also walks the honest path beside the attack:
 * a member who is not sanctioned still speaks, a fresh joiner with the code still enters.
 *
 * (a) A member who joined as key K1 presents K2's session with `session_auth`: refused, and a
 *     kick of K1 still removes that socket.
 * (b) A kicked or banned member keeps the room grant it was handed: it opens nothing afterwards,
 *     neither re-entry to the locked room (from another address too) nor images nor the voice
 *     servers; a lock ends the grants of everyone not inside.
 * (c) Revoking a key closes every socket that proved it, on every process, and its grant.
 * (d) A muted member's screenshot alert, voice call join and signalling and image upload are
 *     refused while the other members are unaffected.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { KeyFile } from '../../shared/crypto/key-file-schema.js';
import { adminToken, login, makeRegisteredKey } from '../support/keys.js';
import type { ServerProcess } from '../support/processes.js';
import { startServer, type TestServer } from '../support/server.js';
import { HAS_POSTGRES, HAS_REDIS } from '../support/services.js';
import { TestSocket, type Frame } from '../support/ws-client.js';
import { client, codeHash } from './support/room-client.js';
import { startProcessesOnRedis, type ProcessesOnRedis } from '../support/cluster.js';

const TURN_ENV = {
  TURN_URL: 'turn:127.0.0.1:3478?transport=udp',
  TURN_SECRET: 'removal-and-identity-turn-secret',
};

/** Posts an encrypted-image upload with `grant` from `localAddress`; its status and body. */
async function upload(
  baseUrl: string,
  roomId: string,
  grant: string,
  localAddress = '127.0.0.1',
): Promise<{ status: number; body: { imageUrl?: string; error?: string } }> {
  const form = new FormData();
  form.append('roomId', roomId);
  form.append('encryptedImage', new Blob([randomBytes(2048)]), 'image.bin');
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  return new Promise((resolve, reject) => {
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
  });
}

const systemText = (text: string) => (frame: Frame) =>
  frame.type === 'new_message' && (frame.message as { content: string }).content === text;
const chatText = (text: string) => (frame: Frame) =>
  frame.type === 'new_message' && (frame.message as { content: string }).content === text;

describe('removal and identity on one process', () => {
  let server: TestServer;
  const sockets: TestSocket[] = [];
  const tokens = new Map<string, string>();
  let owner: KeyFile;
  let mallory: KeyFile;
  let other: KeyFile;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    server = await startServer({
      env: TURN_ENV,
      deps: { loginRatePerMinute: 1000, roomCreationsPerTenMinutes: 1000 },
    });
    owner = await makeRegisteredKey(server.baseUrl, { username: 'owner' });
    mallory = await makeRegisteredKey(server.baseUrl, { username: 'mallory' });
    other = await makeRegisteredKey(server.baseUrl, { username: 'other' });
    for (const key of [owner, mallory, other])
      tokens.set(key.keyId, (await login(server.baseUrl, key)).body.sessionToken as string);
    api = client({ baseUrl: server.baseUrl, wsUrl: server.wsUrl() }, sockets, tokens);
  });
  afterAll(async () => {
    await server.stop();
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });

  it('(a) refuses a session_auth for another key while in a room, and a kick of the joined key still removes the socket', async () => {
    const room = await api.createRoom(owner);
    const admin = await api.member(room, owner);
    const swapper = await api.member(room, mallory);
    const visitor = await api.member(room, 'Agent501', '127.0.0.2');

    // Another key's session on the same socket: refused, the room identity stays mallory's.
    swapper.socket.send({ type: 'session_auth', sessionToken: tokens.get(other.keyId) });
    expect(
      await swapper.socket.next((f) => f.type === 'error' && f.frameType === 'session_auth'),
    ).toMatchObject({
      message:
        'This connection is in a channel under another identity: leave the channel before presenting another key session',
    });
    // An anonymous member cannot take on a key either.
    visitor.socket.send({ type: 'session_auth', sessionToken: tokens.get(other.keyId) });
    expect(
      (await visitor.socket.next((f) => f.type === 'error' && f.frameType === 'session_auth'))
        .message,
    ).toMatch(/another identity/);
    // Its own key's session is accepted (the honest path: direct messages on the room socket).
    swapper.socket.send({ type: 'session_auth', sessionToken: tokens.get(mallory.keyId) });
    expect(await swapper.socket.nextOfType('session_authenticated')).toMatchObject({
      keyId: mallory.keyId,
    });

    // The kick of mallory reaches the socket: it leaves, and what it sends reaches no one.
    admin.socket.send({ type: 'kick_member', nodeId: swapper.nodeId });
    expect(await swapper.socket.nextOfType('removed_from_room')).toMatchObject({
      action: 'kick',
    });
    await admin.socket.next((f) => f.type === 'user_left' && f.nodeId === swapper.nodeId);
    swapper.socket.send({
      type: 'send_message',
      content: 'still here',
      encryptionType: 'PLAINTEXT',
    });
    expect((await swapper.socket.next((f) => f.frameType === 'send_message')).type).toBe('error');

    // The honest path: the visitor still speaks and the admin reads it; mallory's words never came.
    visitor.socket.send({ type: 'send_message', content: 'honest', encryptionType: 'PLAINTEXT' });
    await admin.socket.next(chatText('honest'));
    expect(
      admin.socket.frames.some(
        (f) =>
          f.type === 'new_message' && (f.message as { content: string }).content === 'still here',
      ),
    ).toBe(false);
  });

  it('(b) a kicked or banned member holding its old grant cannot re-enter the locked room, fetch images or get voice servers', async () => {
    const room = await api.createRoom(owner, {
      isPrivate: true,
      securityLevel: 'restricted',
      passwordHash: await codeHash('sesame'),
    });
    const admin = await api.member(room, owner);
    // The visitors enter with the code, each from its own address.
    const codeGrant = await api.verifyCode(room, 'sesame');
    expect(codeGrant.valid).toBe(true);
    const kicked = await api.join(room, 'Agent511', {
      localAddress: '127.0.0.11',
      accessToken: codeGrant.accessToken,
    });
    expect(kicked.joined.type).toBe('room_joined');
    const banned = await api.join(room, 'Agent512', {
      localAddress: '127.0.0.12',
      accessToken: codeGrant.accessToken,
    });
    expect(banned.joined.type).toBe('room_joined');
    const stored = await upload(server.baseUrl, room.id, admin.grant);
    expect(stored.status).toBe(200);
    const imageUrl = stored.body.imageUrl!;
    for (const grant of [kicked.grant, banned.grant]) {
      expect(await api.imageStatus(imageUrl, grant)).toBe(200);
      expect(await api.iceStatus(grant)).toBe(200);
    }

    admin.socket.send({ type: 'kick_member', nodeId: kicked.nodeId });
    await kicked.socket.nextOfType('removed_from_room');
    admin.socket.send({ type: 'ban_member', nodeId: banned.nodeId, minutes: 30 });
    await banned.socket.nextOfType('removed_from_room');
    await admin.socket.next(systemText('Agent512 was banned for 30 minutes by an admin'));

    for (const grant of [kicked.grant, banned.grant, codeGrant.accessToken!]) {
      // From an address no sanction names: the grant alone must not open the room.
      const retry = await api.join(room, 'Agent513', {
        localAddress: '127.0.0.13',
        accessToken: grant,
      });
      expect(retry.joined).toMatchObject({ type: 'error', message: 'Access code required' });
      retry.socket.close();
      expect(await api.imageStatus(imageUrl, grant)).toBe(403);
      expect(await api.iceStatus(grant)).toBe(403);
      expect((await upload(server.baseUrl, room.id, grant, '127.0.0.13')).status).toBe(403);
    }

    // The honest path: a fresh joiner with the code enters and sees the image; the admin's
    // grant still works.
    const fresh = await api.verifyCode(room, 'sesame');
    const joiner = await api.join(room, 'Agent514', {
      localAddress: '127.0.0.14',
      accessToken: fresh.accessToken,
    });
    expect(joiner.joined.type).toBe('room_joined');
    expect(await api.imageStatus(imageUrl, joiner.grant)).toBe(200);
    expect(await api.iceStatus(admin.grant)).toBe(200);
  });

  it('(b) a lock ends the grants of everyone not inside the room, and a grant ends with its socket', async () => {
    const room = await api.createRoom(owner);
    const admin = await api.member(room, owner);
    const inside = await api.member(room, 'Agent521', '127.0.0.21');
    // An open room hands a grant to anyone who asks; one who left took theirs along.
    const outsider = await api.verifyCode(room, 'anything');
    expect(outsider.valid).toBe(true);
    const gone = await api.member(room, 'Agent522', '127.0.0.22');
    gone.socket.close();
    await admin.socket.next((f) => f.type === 'user_left' && f.nodeId === gone.nodeId);
    expect(await api.iceStatus(gone.grant)).toBe(403);

    admin.socket.send({ type: 'lock_room' });
    await inside.socket.next((f) => f.type === 'moderation_state' && f.isLocked === true);
    for (const grant of [outsider.accessToken!, gone.grant]) {
      const retry = await api.join(room, 'Agent523', {
        localAddress: '127.0.0.23',
        accessToken: grant,
      });
      expect(retry.joined).toMatchObject({ type: 'error', message: 'Access code required' });
    }
    // The member inside keeps its grant: it still reaches the voice servers and uploads.
    expect(await api.iceStatus(inside.grant)).toBe(200);
    expect((await upload(server.baseUrl, room.id, inside.grant, '127.0.0.21')).status).toBe(200);
  });

  it("(d) refuses a muted member's screenshot alert, voice join and signalling and image upload, and leaves the others unaffected", async () => {
    const room = await api.createRoom(owner);
    const admin = await api.member(room, owner);
    const muted = await api.member(room, 'Agent531', '127.0.0.31');
    const speaker = await api.member(room, 'Agent532', '127.0.0.32');
    // Both are in the call before the mute.
    for (const who of [muted, speaker]) {
      who.socket.send({ type: 'voice_call_start', username: 'x' });
    }
    await admin.socket.next(
      (f) => f.type === 'voice_call_participants' && (f.participants as unknown[]).length === 2,
    );

    admin.socket.send({ type: 'mute_member', nodeId: muted.nodeId, minutes: 10 });
    await muted.socket.next((f) => f.type === 'moderation_state' && f.mutedUntil !== null);
    // Muted, it left the call: the room hears a call without it.
    const call = await admin.socket.next(
      (f) =>
        f.type === 'voice_call_participants' &&
        (f.participants as { nodeId: string }[]).every((p) => p.nodeId !== muted.nodeId),
    );
    expect((call.participants as { nodeId: string }[]).map((p) => p.nodeId)).toEqual([
      speaker.nodeId,
    ]);

    const refusedFrame = async (frame: Record<string, unknown>) => {
      muted.socket.send(frame);
      const answer = await muted.socket.next(
        (f) => f.type === 'error' && f.frameType === frame.type,
      );
      expect(answer.message).toMatch(/^You are muted in this channel until/);
    };
    await refusedFrame({
      type: 'security_alert',
      alertType: 'screenshot_attempt',
      method: 'print_screen',
      timestamp: Date.now(),
    });
    await refusedFrame({ type: 'voice_call_start', username: 'x' });
    await refusedFrame({
      type: 'webrtc_signaling',
      roomId: room.id,
      targetParticipant: speaker.nodeId,
      signalType: 'offer',
      data: { type: 'offer', sdp: 'v=0' },
    });
    await refusedFrame({
      type: 'webrtc_offer',
      target: speaker.nodeId,
      data: { type: 'offer', sdp: 'v=0' },
    });
    await refusedFrame({ type: 'send_message', content: 'hush', encryptionType: 'PLAINTEXT' });
    const mutedUpload = await upload(server.baseUrl, room.id, muted.grant, '127.0.0.31');
    expect(mutedUpload.status).toBe(403);
    expect(mutedUpload.body.error).toMatch(/^You are muted in this channel until/);
    expect(await api.iceStatus(muted.grant)).toBe(403);

    // The others: the speaker's alert reaches the room, its upload and voice servers work, and
    // it is still in the call; nothing of the muted member's reached anyone.
    speaker.socket.send({
      type: 'security_alert',
      alertType: 'screenshot_attempt',
      method: 'print_screen',
      timestamp: Date.now(),
    });
    await admin.socket.next(
      (f) =>
        f.type === 'new_message' && (f.message as { content: string }).content.includes('Agent532'),
    );
    expect((await upload(server.baseUrl, room.id, speaker.grant, '127.0.0.32')).status).toBe(200);
    expect(await api.iceStatus(speaker.grant)).toBe(200);
    speaker.socket.send({ type: 'send_message', content: 'loud', encryptionType: 'PLAINTEXT' });
    await admin.socket.next(chatText('loud'));
    const everything = JSON.stringify(admin.socket.frames) + JSON.stringify(speaker.socket.frames);
    expect(everything).not.toContain('Agent531 attempted');
    expect(everything).not.toContain('hush');
    expect(speaker.socket.frames.some((f) => f.type === 'webrtc_signaling')).toBe(false);
  });
});

describe.runIf(HAS_POSTGRES && HAS_REDIS)('removal and identity across two processes', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let cluster: ProcessesOnRedis | null = null;
  const sockets: TestSocket[] = [];
  const tokens = new Map<string, string>();
  const ADMIN_PASSWORD = 'removal-cluster-password-1';
  let owner: KeyFile;
  let doomed: KeyFile;
  let other: KeyFile;

  beforeAll(async () => {
    cluster = await startProcessesOnRedis(2, {
      ADMIN_PASSWORD,
      ...TURN_ENV,
    });
    [a, b] = cluster.servers as [ServerProcess, ServerProcess];
    owner = await makeRegisteredKey(a.url, { username: 'owner', adminPassword: ADMIN_PASSWORD });
    doomed = await makeRegisteredKey(a.url, { username: 'doomed', adminPassword: ADMIN_PASSWORD });
    other = await makeRegisteredKey(a.url, { username: 'other', adminPassword: ADMIN_PASSWORD });
    for (const key of [owner, doomed, other])
      tokens.set(key.keyId, (await login(a.url, key)).body.sessionToken as string);
  }, 240_000);

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await cluster?.stop();
  });

  const on = (server: ServerProcess) =>
    client(
      { baseUrl: server.url, wsUrl: `${server.url.replace('http', 'ws')}/chat-ws` },
      sockets,
      tokens,
    );
  const WAIT_MS = 20_000;

  it('(c) revoking a key closes every socket that proved it, on every process, and ends its grant', async () => {
    const room = await on(a).createRoom(owner);
    const admin = await on(a).member(room, owner);
    const inA = await on(a).member(room, doomed);
    const inB = await on(b).member(room, doomed);
    // A socket on B that proved the key and then presented another one, outside any room.
    const swapped = await TestSocket.connect(`${b.url.replace('http', 'ws')}/chat-ws`);
    sockets.push(swapped);
    swapped.send({ type: 'session_auth', sessionToken: tokens.get(doomed.keyId) });
    await swapped.nextOfType('session_authenticated', WAIT_MS);
    swapped.send({ type: 'session_auth', sessionToken: tokens.get(other.keyId) });
    expect(await swapped.nextOfType('session_authenticated', WAIT_MS)).toMatchObject({
      keyId: other.keyId,
    });
    const bystander = await on(b).member(room, other);
    expect(await on(b).iceStatus(inA.grant)).toBe(200);

    const revoke = await fetch(`${a.url}/api/admin/keys/${doomed.keyId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${await adminToken(a.url, ADMIN_PASSWORD)}` },
    });
    expect(revoke.status).toBe(200);
    for (const socket of [inA.socket, inB.socket, swapped])
      expect(await socket.waitForClose(WAIT_MS)).toBe(4003);
    await admin.socket.waitForRoster(
      (roster) => ![...roster.keys()].some((id) => id === inA.nodeId || id === inB.nodeId),
      WAIT_MS,
    );
    // Their grants open nothing on either process.
    for (const server of [a, b]) {
      expect(await on(server).iceStatus(inA.grant)).toBe(403);
      expect(await on(server).iceStatus(inB.grant)).toBe(403);
    }

    // The honest path: the other key's socket on B is open and heard on A.
    bystander.socket.send({
      type: 'send_message',
      content: 'still on',
      encryptionType: 'PLAINTEXT',
    });
    await admin.socket.next(chatText('still on'), WAIT_MS);
  });

  it('(b) a grant taken back on one process is refused on the other at once', async () => {
    const room = await on(a).createRoom(owner);
    const admin = await on(a).member(room, owner);
    const visitor = await on(b).member(room, 'Agent541', '127.0.0.41');
    const stored = await upload(a.url, room.id, admin.grant);
    expect(stored.status).toBe(200);
    expect(await on(a).imageStatus(stored.body.imageUrl!, visitor.grant)).toBe(200);

    admin.socket.send({ type: 'lock_room' });
    await visitor.socket.next((f) => f.type === 'moderation_state' && f.isLocked === true, WAIT_MS);
    admin.socket.send({ type: 'kick_member', nodeId: visitor.nodeId });
    await visitor.socket.nextOfType('removed_from_room', WAIT_MS);
    await admin.socket.next((f) => f.type === 'user_left' && f.nodeId === visitor.nodeId, WAIT_MS);

    for (const server of [a, b]) {
      const retry = await on(server).join(room, 'Agent542', {
        localAddress: '127.0.0.42',
        accessToken: visitor.grant,
      });
      expect(retry.joined).toMatchObject({ type: 'error', message: 'Access code required' });
      expect(await on(server).imageStatus(stored.body.imageUrl!, visitor.grant)).toBe(403);
      expect(await on(server).iceStatus(visitor.grant)).toBe(403);
    }
    // The honest path: a key holder still enters the locked room on B and reads the image.
    const keyed = await on(b).member(room, other);
    expect(await on(b).imageStatus(stored.body.imageUrl!, keyed.grant)).toBe(200);
  });
});
