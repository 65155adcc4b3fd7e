/**
 * Scale-out (DESIGN.md principle 4): three server processes on one PostgreSQL and one Redis act as
 * one service. Each run gets its own database and key prefix and removes them afterwards.
 *
 * Scenario: the processes start at once on an empty database (migrations run once); alice, bob
 * and carol connect to different processes and chat in one room with one member list and the
 * same expiry; an admin shutdown on one process reaches everyone; after `kill -9` of one process
 * its members drop out of presence within 15 s while the others carry on, and its client
 * reconnects to another process.
 */
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesToNumbers } from '../../shared/crypto/bytes.js';
import { signChallenge } from '../../shared/crypto/key-file.js';
import { createThrowawayPostgres } from '../support/database.js';
import { adminToken, login, makeRegisteredKey } from '../support/keys.js';
import { deletePrefix, REDIS_TEST_URL, testPrefix } from '../support/redis.js';
import { createRoomOn, startServerProcess, type ServerProcess } from '../support/processes.js';
import { TestSocket } from '../support/ws-client.js';
import { connectRedis } from '../../server/redis/connect.js';
import pg from 'pg';
import { HAS_POSTGRES, HAS_REDIS } from '../support/services.js';

const ADMIN_PASSWORD = 'cluster-admin-password-1';

describe.runIf(HAS_POSTGRES && HAS_REDIS)('three processes on PostgreSQL and Redis', () => {
  let servers: ServerProcess[] = [];
  let drop: () => Promise<void>;
  let databaseUrl: string;
  const prefix = testPrefix();
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    const database = await createThrowawayPostgres();
    drop = database.drop;
    databaseUrl = database.url;
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: REDIS_TEST_URL,
      REDIS_PREFIX: prefix,
      ADMIN_PASSWORD,
      MESSAGE_TTL_SECONDS: '4',
      LOG_LEVEL: 'info',
    };
    servers = await Promise.all([
      startServerProcess(env),
      startServerProcess(env),
      startServerProcess(env),
    ]);
  }, 90_000);

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await Promise.all(servers.map((server) => server.stop('SIGKILL')));
    const redis = await connectRedis(REDIS_TEST_URL, prefix);
    await deletePrefix(redis, prefix);
    await redis.close();
    await drop();
  });

  const wsUrl = (server: ServerProcess) => `${server.url.replace('http', 'ws')}/chat-ws`;
  async function member(server: ServerProcess, roomId: string, username: string) {
    const socket = await TestSocket.connect(wsUrl(server));
    sockets.push(socket);
    socket.send({ type: 'join_room', roomId, username });
    await socket.nextOfType('room_joined');
    return socket;
  }

  it('ran the migrations once and agrees on one default room', async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const applied = await client.query('SELECT name FROM schema_migrations');
    const names = applied.rows.map((row: { name: string }) => row.name);
    expect(new Set(names).size).toBe(names.length);
    const defaults = await client.query('SELECT id FROM rooms WHERE is_default');
    expect(defaults.rowCount).toBe(1);
    await client.end();
    const rooms = await Promise.all(
      servers.map(
        async (server) =>
          ((await (await fetch(`${server.url}/api/default-room`)).json()) as { secureId: string })
            .secureId,
      ),
    );
    expect(new Set(rooms).size).toBe(1);
  });

  it('lets members on different processes chat in one room with one member list and the same expiry', async () => {
    const [a, b, c] = servers as [ServerProcess, ServerProcess, ServerProcess];
    const room = await createRoomOn(a, 'cluster');
    const alice = await member(a, room, 'Agent61');
    const bob = await member(b, room, 'Agent62');
    const carol = await member(c, room, 'Agent63');
    await alice.waitForMembers(['Agent61', 'Agent62', 'Agent63'], 10_000);

    alice.send({
      type: 'send_message',
      content: 'hello from process A',
      encryptionType: 'PLAINTEXT',
    });
    const atBob = await bob.nextOfType('new_message');
    const atCarol = await carol.nextOfType('new_message');
    expect(atBob.message).toEqual(atCarol.message);

    // A late joiner on another process sees the history, then nothing once it expired.
    const dave = await TestSocket.connect(wsUrl(c));
    sockets.push(dave);
    dave.send({ type: 'join_room', roomId: room, username: 'Agent64' });
    const joined = await dave.nextOfType('room_joined');
    expect((joined.messages as { content: string }[]).map((m) => m.content)).toEqual([
      'hello from process A',
    ]);
    // Deleted within a second of expiresAt (4 s); rooms hear of it within 5 s more.
    const expired = await bob.nextOfType('messages_expired', 15_000);
    expect(expired.messageIds).toEqual([(atBob.message as { id: string }).id]);
    const late = await TestSocket.connect(wsUrl(b));
    sockets.push(late);
    late.send({ type: 'join_room', roomId: room, username: 'Agent65' });
    expect((await late.nextOfType('room_joined')).messages).toEqual([]);
  });

  it('delivers bursts sent on two processes to every member of two rooms, in one order everywhere', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess, ServerProcess];
    const rooms = await Promise.all([createRoomOn(a, 'burst-1'), createRoomOn(b, 'burst-2')]);
    // Each room has a member on each process; every member sends a burst, all in the same tick,
    // so each process hands several messages of both rooms to Redis in one turn.
    const members = await Promise.all(
      rooms.flatMap((room, r) => [member(a, room, `Agent7${r}`), member(b, room, `Agent8${r}`)]),
    );
    await members[0]!.waitForMembers(['Agent70', 'Agent80'], 10_000);
    await members[2]!.waitForMembers(['Agent71', 'Agent81'], 10_000);
    const BURST = 15;
    for (let i = 0; i < BURST; i += 1) {
      members.forEach((socket, at) =>
        socket.send({ type: 'send_message', content: `${at}:${i}`, encryptionType: 'PLAINTEXT' }),
      );
    }
    const heard = await Promise.all(
      members.map(async (socket) => {
        const contents: string[] = [];
        for (let i = 0; i < 2 * BURST; i += 1) {
          const frame = await socket.nextOfType('new_message');
          contents.push((frame.message as { content: string }).content);
        }
        return contents;
      }),
    );
    for (const [first, second] of [heard.slice(0, 2), heard.slice(2, 4)]) {
      // One order on both processes, each sender's messages in the order sent.
      expect(second).toEqual(first);
      for (const sender of new Set(first!.map((content) => content.split(':')[0])))
        expect(first!.filter((content) => content.startsWith(`${sender}:`))).toEqual(
          Array.from({ length: BURST }, (_, i) => `${sender}:${i}`),
        );
    }
    expect(new Set(heard[0]!.map((content) => content.split(':')[0]))).toEqual(new Set(['0', '1']));
    expect(new Set(heard[2]!.map((content) => content.split(':')[0]))).toEqual(new Set(['2', '3']));
  });

  it('verifies on one process a challenge issued by another, once, and refuses a key revoked elsewhere', async () => {
    const [a, b, c] = servers as [ServerProcess, ServerProcess, ServerProcess];
    const key = await makeRegisteredKey(a.url, { adminPassword: ADMIN_PASSWORD });
    // A whole login on b first, so b has the key's record at hand when the key is revoked on a.
    expect((await login(b.url, key)).status).toBe(200);

    const post = (server: ServerProcess, path: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const { challenge } = (await (
      await post(a, '/api/auth/challenge', { keyId: key.keyId })
    ).json()) as { challenge: string };
    const signatures = await signChallenge(key, challenge);
    const verifyBody = {
      keyId: key.keyId,
      challenge,
      dilithiumSignature: bytesToNumbers(signatures.dilithiumSignature),
      ecdsaSignature: bytesToNumbers(signatures.ecdsaSignature),
    };
    const verified = await post(c, '/api/auth/verify', verifyBody);
    expect(verified.status).toBe(200);
    const { sessionToken } = (await verified.json()) as { sessionToken: string };
    expect((await post(b, '/api/auth/verify', verifyBody)).status).toBe(401);

    // The session opened on c is known on b; revoking on a ends it and its socket on b.
    const socket = await TestSocket.connect(wsUrl(b));
    sockets.push(socket);
    socket.send({ type: 'session_auth', sessionToken });
    await socket.nextOfType('session_authenticated');
    const admin = await adminToken(a.url, ADMIN_PASSWORD);
    const revoke = await fetch(`${a.url}/api/admin/keys/${key.keyId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(revoke.status).toBe(200);
    expect(await socket.waitForClose()).toBe(4003);
    expect(await login(b.url, key)).toEqual({
      status: 401,
      body: { error: 'Key has been revoked' },
    });
  });

  it('carries an admin shutdown on one process to users on all, and the restore back', async () => {
    const [a, b, c] = servers as [ServerProcess, ServerProcess, ServerProcess];
    const room = ((await (await fetch(`${a.url}/api/default-room`)).json()) as { secureId: string })
      .secureId;
    const onB = await member(b, room, 'Unit66');
    const onC = await member(c, room, 'Unit67');
    // A socket in no room counts too (issue 21): usersDisconnected is every socket closed, on
    // every process (these tests' sockets are the only ones open).
    sockets.push(await TestSocket.connect(wsUrl(c)));
    const open = sockets.filter((socket) => socket.socket.readyState === WebSocket.OPEN).length;
    const shutdown = await fetch(`${a.url}/api/admin/emergency-shutdown`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: ADMIN_PASSWORD, reason: 'cluster drill' }),
    });
    expect(shutdown.status).toBe(200);
    expect(await shutdown.json()).toMatchObject({ usersDisconnected: open });
    expect(await onB.nextOfType('emergency_shutdown_notice')).toMatchObject({
      reason: 'cluster drill',
    });
    expect(await onC.nextOfType('emergency_shutdown_notice')).toMatchObject({
      reason: 'cluster drill',
    });
    expect((await fetch(`${b.url}/api/rooms`)).status).toBe(503);
    const waiting = await TestSocket.connect(wsUrl(c));
    sockets.push(waiting);
    await waiting.nextOfType('maintenance_mode');
    await fetch(`${b.url}/api/admin/restore-service`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: ADMIN_PASSWORD }),
    });
    expect(await waiting.nextOfType('service_restored')).toBeTruthy();
    expect((await fetch(`${c.url}/api/rooms`)).status).toBe(200);
  });

  it("drops a killed process's members within 15 s while the others carry on, and its client reconnects elsewhere", async () => {
    const [a, b, c] = servers as [ServerProcess, ServerProcess, ServerProcess];
    const room = (
      (await (
        await fetch(`${a.url}/api/rooms`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'survivors' }),
        })
      ).json()) as { secureId: string }
    ).secureId;
    const alice = await member(a, room, 'Ghost71');
    const bob = await member(b, room, 'Ghost72');
    const victim = await member(c, room, 'Ghost73');
    await alice.waitForMembers(['Ghost71', 'Ghost72', 'Ghost73'], 10_000);
    // Only what arrives after the kill counts from here on.
    alice.frames.length = 0;

    const killedAt = Date.now();
    const closed = victim.waitForClose(5_000);
    await c.stop('SIGKILL');
    expect(await closed).toBe(1006);
    await alice.waitForMembers(['Ghost71', 'Ghost72'], 20_000);
    expect(Date.now() - killedAt).toBeLessThan(20_000);

    alice.send({ type: 'send_message', content: 'still here', encryptionType: 'PLAINTEXT' });
    expect(
      (
        (
          await bob.next(
            (frame) =>
              frame.type === 'new_message' &&
              (frame.message as { content: string }).content === 'still here',
          )
        ).message as { content: string }
      ).content,
    ).toBe('still here');

    // The dropped client reconnects to a surviving process and is back in the room.
    alice.frames.length = 0;
    const again = await member(b, room, 'Ghost73');
    await alice.waitForMembers(['Ghost71', 'Ghost72', 'Ghost73'], 10_000);
    again.send({ type: 'send_message', content: 'back', encryptionType: 'PLAINTEXT' });
    await alice.next(
      (frame) =>
        frame.type === 'new_message' && (frame.message as { content: string }).content === 'back',
    );
  }, 60_000);
});
