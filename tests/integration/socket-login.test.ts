/**
 * Key login on the chat socket (docs/protocol.md "Key login on the socket") against the real
 * server: the same challenge–response as the two HTTP routes, with the same texts, the same
 * single use, the same limits counted in the same places, and a session token that works
 * everywhere a route's does. The socket takes no identity from a login: it joins with the token.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesToBase64, bytesToNumbers } from '../../shared/crypto/bytes.js';
import { signChallenge } from '../../shared/crypto/key-file.js';
import type { KeyFile } from '../../shared/crypto/key-file-schema.js';
import { TEXT } from '../../shared/protocol/errors.js';
import { WS_ERROR } from '../../shared/protocol/errors.js';
import { SERVICE_TEXT } from '../../server/features/admin/operations.js';
import { DM_FRAME_TEXT } from '../../server/features/dm/index.js';
import { adminToken, makeRegisteredKey } from '../support/keys.js';
import { TEST_ADMIN_PASSWORD, startServer, type TestServer } from '../support/server.js';
import { TestSocket } from '../support/ws-client.js';

const LOGIN_RATE = 6;

async function challengeOn(socket: TestSocket, keyId: string): Promise<string> {
  socket.send({ type: 'login_challenge', keyId });
  const answer = await socket.next(
    (frame) => frame.type === 'login_challenge_issued' || frame.type === 'error',
  );
  if (answer.type !== 'login_challenge_issued') throw new Error(JSON.stringify(answer));
  return answer.challenge as string;
}

async function verifyFrame(keyFile: KeyFile, challenge: string) {
  const signatures = await signChallenge(keyFile, challenge);
  return {
    type: 'login_verify',
    keyId: keyFile.keyId,
    challenge,
    dilithiumSignature: bytesToBase64(signatures.dilithiumSignature),
    ecdsaSignature: bytesToBase64(signatures.ecdsaSignature),
  };
}

const answerTo = (socket: TestSocket) =>
  socket.next((frame) => frame.type === 'login_session' || frame.type === 'error');

describe('key login on the chat socket', () => {
  let server: TestServer;
  let key: KeyFile;

  beforeAll(async () => {
    server = await startServer({ deps: { loginRatePerMinute: 1000 } });
    key = await makeRegisteredKey(server.baseUrl, { username: 'sockalice' });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('opens a session whose token the routes and a room join accept, and gives the socket no identity', async () => {
    const socket = await TestSocket.connect(server.wsUrl());
    const challenge = await challengeOn(socket, key.keyId);
    expect(challenge).toMatch(new RegExp(`^securechannel-login:${key.keyId}:`));
    socket.send(await verifyFrame(key, challenge));
    const session = await answerTo(socket);
    expect(session).toMatchObject({
      type: 'login_session',
      user: { keyId: key.keyId, username: 'sockalice' },
    });
    const token = session.sessionToken as string;
    // Before it joins, the socket is nobody: a key holder's frame is refused.
    socket.send({ type: 'dm_send_message', threadId: 'thread-1', recipientKeyId: key.keyId });
    expect(await socket.nextOfType('error')).toMatchObject({
      frameType: 'dm_send_message',
      message: DM_FRAME_TEXT.keyRequired,
    });
    const room = { secureId: await newRoom('socket login') };

    const checked = await fetch(`${server.baseUrl}/api/auth/session`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await checked.json()).toMatchObject({ valid: true, user: { keyId: key.keyId } });

    // The same socket joins a room with the token it was given: as the key holder.
    socket.send({
      type: 'join_room',
      roomId: room.secureId,
      username: 'ignored',
      sessionToken: token,
    });
    await socket.nextOfType('room_joined');
    await socket.waitForMembers(['sockalice']);
    socket.close();
  });

  it('refuses a replayed challenge, a challenge of another key and a bad signature with the routes’ texts', async () => {
    const other = await makeRegisteredKey(server.baseUrl, { username: 'sockbob' });
    const socket = await TestSocket.connect(server.wsUrl());

    const challenge = await challengeOn(socket, key.keyId);
    const frame = await verifyFrame(key, challenge);
    socket.send(frame);
    expect((await answerTo(socket)).type).toBe('login_session');
    // Single use: the same signed challenge again.
    socket.send(frame);
    expect(await answerTo(socket)).toMatchObject({
      type: 'error',
      frameType: 'login_verify',
      message: TEXT.challengeInvalid,
    });

    // A challenge issued to one key, signed by another.
    const bobs = await challengeOn(socket, other.keyId);
    socket.send({ ...(await verifyFrame(key, bobs)), keyId: key.keyId });
    expect(await answerTo(socket)).toMatchObject({ message: TEXT.challengeInvalid });

    // A signature that does not verify: the challenge is used up, the session never opened.
    const fresh = await challengeOn(socket, key.keyId);
    const good = await verifyFrame(key, fresh);
    const bytes = Buffer.from(good.dilithiumSignature, 'base64');
    bytes[100] = (bytes[100] ?? 0) ^ 0xff;
    socket.send({ ...good, dilithiumSignature: bytes.toString('base64') });
    expect(await answerTo(socket)).toMatchObject({ message: TEXT.signatureInvalid });
    socket.send(good);
    expect(await answerTo(socket)).toMatchObject({ message: TEXT.challengeInvalid });
    socket.close();
  });

  it('refuses malformed frames with an error frame and keeps the socket usable', async () => {
    const socket = await TestSocket.connect(server.wsUrl());
    socket.send({ type: 'login_challenge', keyId: 'not-a-key' });
    expect(await socket.nextOfType('error')).toMatchObject({
      frameType: 'login_challenge',
      message: WS_ERROR.invalidFrame('login_challenge'),
    });
    // Signatures of the wrong length, or not base64, or as number arrays (the route's form).
    const challenge = await challengeOn(socket, key.keyId);
    const good = await verifyFrame(key, challenge);
    for (const bad of [
      { ...good, dilithiumSignature: good.dilithiumSignature.slice(4) },
      { ...good, ecdsaSignature: `${'*'.repeat(86)}==` },
      { ...good, ecdsaSignature: bytesToNumbers(new Uint8Array(64)) },
      { ...good, publicKey: 'AAAA' },
    ]) {
      socket.send(bad);
      expect(await socket.nextOfType('error')).toMatchObject({ frameType: 'login_verify' });
    }
    // None of them used the challenge up.
    socket.send(good);
    expect((await answerTo(socket)).type).toBe('login_session');
    socket.close();
  });

  it('refuses an unknown and a revoked key as the challenge route does', async () => {
    const socket = await TestSocket.connect(server.wsUrl());
    socket.send({ type: 'login_challenge', keyId: `SCK${'0'.repeat(32)}` });
    expect(await socket.nextOfType('error')).toMatchObject({ message: TEXT.keyNotRegistered });

    const revoked = await makeRegisteredKey(server.baseUrl, { username: 'sockcarol' });
    const challenge = await challengeOn(socket, revoked.keyId);
    const frame = await verifyFrame(revoked, challenge);
    const token = await adminToken(server.baseUrl);
    const revoke = await fetch(`${server.baseUrl}/api/admin/keys/${revoked.keyId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(revoke.status).toBe(200);
    // The revocation forgot the key's open challenges: the signed one opens nothing.
    socket.send(frame);
    expect(await answerTo(socket)).toMatchObject({ type: 'error', frameType: 'login_verify' });
    socket.send({ type: 'login_challenge', keyId: revoked.keyId });
    expect(await socket.nextOfType('error')).toMatchObject({ message: TEXT.keyRevoked });
    socket.close();
  });

  /** A room made over HTTP, as a client makes one. */
  async function newRoom(name: string): Promise<string> {
    const created = await fetch(`${server.baseUrl}/api/rooms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    expect(created.status).toBe(200);
    return ((await created.json()) as { secureId: string }).secureId;
  }

  async function loginOn(socket: TestSocket, keyFile: KeyFile): Promise<string> {
    socket.send(await verifyFrame(keyFile, await challengeOn(socket, keyFile.keyId)));
    const session = await answerTo(socket);
    expect(session.type).toBe('login_session');
    return session.sessionToken as string;
  }

  it('leaves a socket in a room under the identity it joined with: a login on it changes nobody', async () => {
    const roomId = await newRoom('anonymous first');
    const socket = await TestSocket.connect(server.wsUrl());
    socket.send({ type: 'join_room', roomId, username: 'Agent4242' });
    await socket.nextOfType('room_joined');
    // The login itself is answered (a token is a token) ...
    const token = await loginOn(socket, key);
    // ... but the socket keeps the identity it joined with: presenting the key is refused.
    socket.send({ type: 'session_auth', sessionToken: token });
    expect(await socket.nextOfType('error')).toMatchObject({
      frameType: 'session_auth',
      message: DM_FRAME_TEXT.identityFixed,
    });
    await socket.waitForMembers(['Agent4242']);
    expect(socket.rosterNames()).not.toContain('sockalice');
    socket.close();
  });

  it('lets a key revoked between the login and the join into no room on the same socket', async () => {
    const revokedLater = await makeRegisteredKey(server.baseUrl, { username: 'sockgrace' });
    const roomId = await newRoom('revoked between');
    const socket = await TestSocket.connect(server.wsUrl());
    const token = await loginOn(socket, revokedLater);
    const revoke = await fetch(`${server.baseUrl}/api/admin/keys/${revokedLater.keyId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${await adminToken(server.baseUrl)}` },
    });
    expect(revoke.status).toBe(200);
    socket.send({ type: 'join_room', roomId, username: 'ignored', sessionToken: token });
    expect(
      await socket.next((frame) => frame.type === 'room_joined' || frame.type === 'error'),
    ).toMatchObject({ type: 'error', frameType: 'join_room', message: TEXT.sessionInvalid });
    socket.close();
  });

  it('refuses both frames as the routes refuse their calls, and logs in again once restored', async () => {
    const socket = await TestSocket.connect(server.wsUrl());
    const signed = await verifyFrame(key, await challengeOn(socket, key.keyId));
    const shutdown = await fetch(`${server.baseUrl}/api/admin/emergency-shutdown`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: TEST_ADMIN_PASSWORD, reason: 'drill' }),
    });
    expect(shutdown.status).toBe(200);

    // A socket that connects now hears maintenance_mode, and no login frame is handled.
    const during = await TestSocket.connect(server.wsUrl());
    await during.nextOfType('maintenance_mode');
    during.send({ type: 'login_challenge', keyId: key.keyId });
    expect(await during.nextOfType('error')).toMatchObject({
      frameType: 'login_challenge',
      message: SERVICE_TEXT.unavailable,
    });
    during.send(signed);
    expect(await during.nextOfType('error')).toMatchObject({
      frameType: 'login_verify',
      message: SERVICE_TEXT.unavailable,
    });
    const route = await fetch(`${server.baseUrl}/api/auth/challenge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ keyId: key.keyId }),
    });
    expect(route.status).toBe(503);

    // Restored: the challenge signed before the shutdown was not used up by the refusal.
    await server.adminOperations.restore('test');
    during.send(signed);
    expect((await answerTo(during)).type).toBe('login_session');
    during.close();
    socket.close();
  });
});

describe('the socket login and the routes share one allowance per visitor', () => {
  let server: TestServer;
  let key: KeyFile;

  beforeAll(async () => {
    server = await startServer({ deps: { loginRatePerMinute: LOGIN_RATE } });
    key = await makeRegisteredKey(server.baseUrl, { username: 'sockdave' });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('counts challenges asked over HTTP and over sockets together, whichever socket asks', async () => {
    const postChallenge = () =>
      fetch(`${server.baseUrl}/api/auth/challenge`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ keyId: key.keyId }),
      });
    const half = LOGIN_RATE / 2;
    for (let i = 0; i < half; i += 1) expect((await postChallenge()).status).toBe(200);
    // The rest of the allowance and two more over two sockets, concurrently.
    const sockets = await Promise.all([1, 2].map(() => TestSocket.connect(server.wsUrl())));
    const sent = [0, 0];
    for (let i = 0; i < half + 2; i += 1) {
      sockets[i % 2]!.send({ type: 'login_challenge', keyId: key.keyId });
      sent[i % 2] = (sent[i % 2] ?? 0) + 1;
    }
    const frames = [];
    for (const [index, socket] of sockets.entries()) {
      for (let i = 0; i < sent[index]!; i += 1) {
        frames.push(
          await socket.next(
            (frame) => frame.type === 'login_challenge_issued' || frame.type === 'error',
          ),
        );
      }
    }
    expect(frames.filter((frame) => frame.type === 'login_challenge_issued')).toHaveLength(half);
    const refused = frames.filter((frame) => frame.type === 'error');
    expect(refused).toHaveLength(2);
    for (const frame of refused) expect(frame.message).toBe(TEXT.tooManyRequests);
    // And the route is over the allowance too, whatever its own count says.
    expect((await postChallenge()).status).toBe(429);
    for (const socket of sockets) socket.close();
  });
});

const HELD_WORKER = new URL('../fixtures/fakes/held-verify-worker.mjs', import.meta.url);
/** While present, the held worker answers (held-verify-worker.mjs); while absent, it holds. */
const RELEASE_FILE = path.join(tmpdir(), `held-verify-release-${process.pid}`);

describe('the socket login waits in the same queue as the verify route', () => {
  let server: TestServer;
  let key: KeyFile;

  beforeAll(async () => {
    rmSync(RELEASE_FILE, { force: true });
    server = await startServer({
      deps: {
        loginRatePerMinute: 1000,
        loginVerification: {
          workers: 1,
          maxPending: 2,
          maxPendingPerVisitor: 1,
          workerUrl: HELD_WORKER,
        },
      },
    });
    key = await makeRegisteredKey(server.baseUrl, { username: 'sockerin' });
  });
  afterAll(async () => {
    writeFileSync(RELEASE_FILE, '');
    await server.stop();
    rmSync(RELEASE_FILE, { force: true });
  });

  const routeVerify = () =>
    fetch(`${server.baseUrl}/api/auth/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ keyId: 'nope' }),
    });

  it('refuses past the visitor’s place with the route’s text and Retry-After, and takes nothing', async () => {
    const holder = await TestSocket.connect(server.wsUrl());
    const held = await verifyFrame(key, await challengeOn(holder, key.keyId));
    holder.send(held);
    // The held verification has the visitor's one place once the route refuses with 503.
    await expect
      .poll(async () => (await routeVerify()).status, { timeout: 5000, interval: 50 })
      .toBe(503);

    const second = await TestSocket.connect(server.wsUrl());
    const waiting = await verifyFrame(key, await challengeOn(second, key.keyId));
    second.send(waiting);
    const refused = await second.nextOfType('error');
    expect(refused).toMatchObject({ frameType: 'login_verify', message: TEXT.loginBusy });
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);

    // Released: the held one is answered (the held worker refuses every signature) and the
    // refused one, sent again as the client does, opens its session: its challenge was kept.
    writeFileSync(RELEASE_FILE, '');
    expect(await answerTo(holder)).toMatchObject({ message: TEXT.signatureInvalid });
    second.send(waiting);
    expect(await answerTo(second)).toMatchObject({ type: 'error', message: TEXT.signatureInvalid });
    holder.close();
    second.close();
  });
});
