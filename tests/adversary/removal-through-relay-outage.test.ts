/**
 * Removal removes even where a process did not hear it (DESIGN.md principles 9 and 10; issue 35):
 * kick, ban, key revocation and the emergency shutdown travel between processes over Redis, and
 * a process cut off from its subscriber misses them. Two servers share PostgreSQL and a throwaway
 * Redis; the first reaches Redis through a relay that cuts off its subscriber alone.
 *
 * The attacker is a member on the cut-off process, removed meanwhile on the other: an anonymous
 * visitor kicked, one banned, and a key holder whose key is revoked. What must hold:
 * - their room grants end at once on both processes (the removing process ends them itself, not
 *   the one holding the socket);
 * - once the cut-off process hears Redis again, it closes its sockets (1012) and its clients join
 *   again, and the join checks refuse all three: the kick cool-down, the ban, the revoked session;
 *   nothing said in the room after the removal reaches them, and their grants open nothing;
 * - the revoked key cannot log in on the cut-off process (it read the key row before the cut and
 *   must not trust that copy);
 * - an emergency shutdown made meanwhile reaches the cut-off process's sockets when it is back, and
 *   a restore made meanwhile reopens it.
 * The honest path beside it: a visitor on the cut-off process who was not removed joins again and
 * finds what was said meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyFile } from '../../shared/crypto/key-file-schema.js';
import { TEXT } from '../../shared/protocol/errors.js';
import { EMERGENCY_CLOSE_CODE } from '../../server/features/admin/operations.js';
import { RELAY_INTERRUPTED_CLOSE } from '../../server/redis/redis-health.js';
import { adminToken, login, makeRegisteredKey } from '../support/keys.js';
import {
  cutSubscriber,
  isDegraded,
  startRelayPair,
  type RelayPair,
  type Running,
} from '../support/relay-cut.js';
import { TEST_ADMIN_PASSWORD } from '../support/server.js';
import { HAS_POSTGRES } from '../support/services.js';
import { TestSocket, type Frame } from '../support/ws-client.js';
import { waitFor } from '../support/wait.js';
import { client } from './support/room-client.js';

const TURN_ENV = {
  TURN_URL: 'turn:127.0.0.1:3478?transport=udp',
  TURN_SECRET: 'relay-outage-turn-secret',
};
const WAIT_MS = 20_000;

const said = (text: string) => (frame: Frame) =>
  frame.type === 'new_message' && (frame.message as { content: string }).content.includes(text);

describe.runIf(HAS_POSTGRES)('removal while a process is cut off from Redis', () => {
  let pair: RelayPair;
  let first: Running;
  let second: Running;
  let owner: KeyFile;
  let doomed: KeyFile;
  const tokens = new Map<string, string>();
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    pair = await startRelayPair(TURN_ENV);
    [first, second] = pair.servers;
    owner = await makeRegisteredKey(second.url, { username: 'relay-owner' });
    doomed = await makeRegisteredKey(second.url, { username: 'relay-doomed' });
    tokens.set(owner.keyId, (await login(second.url, owner)).body.sessionToken as string);
    // The doomed key logs in on the first process, which reads (and keeps) its key row.
    const doomedLogin = await login(first.url, doomed);
    expect(doomedLogin.status).toBe(200);
    tokens.set(doomed.keyId, doomedLogin.body.sessionToken as string);
  }, 120_000);

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await pair?.stop();
  });

  const on = (server: Running) =>
    client(
      { baseUrl: server.url, wsUrl: `${server.url.replace('http', 'ws')}/chat-ws` },
      sockets,
      tokens,
    );

  async function reconnect(): Promise<void> {
    pair.door.isHeld = false;
    await waitFor('the first process whole', async () => !(await isDegraded(first)), WAIT_MS);
  }

  it('refuses the kicked, the banned and the revoked when their clients join again, and ends their grants', async () => {
    const room = await on(second).createRoom(owner);
    const admin = await on(second).member(room, owner);
    const kicked = await on(first).member(room, 'Agent611', '127.0.0.61');
    const banned = await on(first).member(room, 'Agent612', '127.0.0.62');
    const revoked = await on(first).member(room, doomed);
    const bystander = await on(first).member(room, 'Agent614', '127.0.0.64');
    await admin.socket.waitForMembers(
      ['Agent611', 'Agent612', 'Agent614', owner.username, doomed.username],
      WAIT_MS,
    );
    for (const removed of [kicked, banned, revoked])
      expect(await on(first).iceStatus(removed.grant)).toBe(200);

    await cutSubscriber(pair);
    await waitFor('the first process degraded', () => isDegraded(first), WAIT_MS);

    // Removed on the second process while the first hears nothing of it.
    admin.socket.send({ type: 'kick_member', nodeId: kicked.nodeId });
    await admin.socket.next(said('Agent611 was kicked'), WAIT_MS);
    admin.socket.send({ type: 'ban_member', nodeId: banned.nodeId, minutes: 30 });
    await admin.socket.next(said('Agent612 was banned for 30 minutes'), WAIT_MS);
    const revoke = await fetch(`${second.url}/api/admin/keys/${doomed.keyId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${await adminToken(second.url)}` },
    });
    expect(revoke.status).toBe(200);
    // Their grants end at once, on both processes.
    for (const server of [first, second])
      for (const grant of [kicked.grant, banned.grant, revoked.grant])
        expect(await on(server).iceStatus(grant)).toBe(403);
    expect(await on(first).iceStatus(bystander.grant)).toBe(200);
    admin.socket.send({
      type: 'send_message',
      content: 'said after the removals',
      encryptionType: 'PLAINTEXT',
    });
    await admin.socket.next(said('said after the removals'), WAIT_MS);

    // Back: every socket of the first process is closed to join again.
    await reconnect();
    for (const socket of [kicked, banned, revoked, bystander].map((entry) => entry.socket))
      expect(await socket.waitForClose(WAIT_MS)).toBe(RELAY_INTERRUPTED_CLOSE.code);

    // Each client joins again as it was (same address, its grant, its session): refused.
    const again = {
      kicked: await on(first).join(room, 'Agent611', {
        localAddress: '127.0.0.61',
        accessToken: kicked.grant,
      }),
      banned: await on(first).join(room, 'Agent612', {
        localAddress: '127.0.0.62',
        accessToken: banned.grant,
      }),
      revoked: await on(first).join(room, doomed, { accessToken: revoked.grant }),
    };
    expect(again.kicked.joined).toMatchObject({ type: 'error' });
    expect(again.kicked.joined.message).toMatch(/^You were removed from this channel/);
    expect(again.banned.joined).toMatchObject({ type: 'error' });
    expect(again.banned.joined.message).toMatch(/^You are banned from this channel until/);
    expect(again.revoked.joined).toMatchObject({ type: 'error', message: TEXT.sessionInvalid });
    for (const { socket } of [kicked, banned, revoked, ...Object.values(again)])
      expect(socket.frames.some(said('said after the removals'))).toBe(false);
    for (const server of [first, second])
      for (const grant of [kicked.grant, banned.grant, revoked.grant])
        expect(await on(server).iceStatus(grant)).toBe(403);

    // The revoked key cannot log in on the first process, which had read its row before the cut.
    const relogin = await login(first.url, doomed);
    expect(relogin.status).toBe(401);
    expect(relogin.body.sessionToken).toBeUndefined();

    // The honest path: the visitor who was not removed is back and finds what was said.
    const back = await on(first).member(room, 'Agent614', '127.0.0.64');
    expect(
      (back.joined.messages as { content: string }[]).some(
        (message) => message.content === 'said after the removals',
      ),
    ).toBe(true);
    await admin.socket.waitForMembers(['Agent614', owner.username], WAIT_MS);
  }, 120_000);

  it('brings a shutdown made meanwhile to its sockets when back, and a restore made meanwhile too', async () => {
    const room = await on(second).createRoom(owner);
    const visitor = await on(first).member(room, 'Agent621', '127.0.0.71');

    await cutSubscriber(pair);
    await waitFor('the first process degraded', () => isDegraded(first), WAIT_MS);
    const shutdown = await fetch(`${second.url}/api/admin/emergency-shutdown`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: TEST_ADMIN_PASSWORD, reason: 'relay drill' }),
    });
    expect(shutdown.status).toBe(200);
    await reconnect();

    // The visitor hears the shutdown and is closed as on every other process.
    expect(await visitor.socket.nextOfType('emergency_shutdown_notice', WAIT_MS)).toMatchObject({
      reason: 'relay drill',
    });
    expect(await visitor.socket.waitForClose(WAIT_MS)).toBe(EMERGENCY_CLOSE_CODE);
    const latecomer = await TestSocket.connect(`${first.url.replace('http', 'ws')}/chat-ws`);
    sockets.push(latecomer);
    await latecomer.nextOfType('maintenance_mode', WAIT_MS);
    expect((await fetch(`${first.url}/api/rooms`)).status).toBe(503);

    // Restored on the second process while the first is cut off again: it reopens when back.
    await cutSubscriber(pair);
    await waitFor('the first process degraded', () => isDegraded(first), WAIT_MS);
    const restore = await fetch(`${second.url}/api/admin/restore-service`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: TEST_ADMIN_PASSWORD }),
    });
    expect(restore.status).toBe(200);
    await reconnect();
    await latecomer.nextOfType('service_restored', WAIT_MS);
    expect((await fetch(`${first.url}/api/rooms`)).status).toBe(200);
    const returning = await on(first).member(room, 'Agent621', '127.0.0.71');
    expect(returning.joined.type).toBe('room_joined');
  }, 120_000);
});
