/**
 * Room moderation across two server processes on one PostgreSQL and one Redis (issue 23):
 * a power taken on one process acts on sockets held by the other. The room admin sits on
 * process A, the moderator and most targets on process B.
 *
 * Scenario: alice (key holder) creates a room on A and appoints bob (key holder, on B) as
 * moderator from A; bob's socket on B hears its new role and everyone sees the shield. On A, alice
 * mutes a visitor on B: the visitor's messages never reach anyone. She deletes a message, kicks
 * one visitor and bans carol (key holder, on B) for good: their sockets on B leave the room, and
 * carol cannot come back from a new socket on either process. The lock taken on A refuses an
 * anonymous join on B.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyFile } from '../../shared/crypto/key-file-schema.js';
import { RoomSchema, type Room } from '../../shared/protocol/http/rooms.js';
import { connectRedis } from '../../server/redis/connect.js';
import { createThrowawayPostgres } from '../support/database.js';
import { login, makeRegisteredKey } from '../support/keys.js';
import { startServerProcess, type ServerProcess } from '../support/processes.js';
import { deletePrefix, REDIS_TEST_URL, testPrefix } from '../support/redis.js';
import { TestSocket, type Frame } from '../support/ws-client.js';
import { HAS_POSTGRES, HAS_REDIS } from '../support/services.js';

const ADMIN_PASSWORD = 'moderation-cluster-password-1';

describe.runIf(HAS_POSTGRES && HAS_REDIS)('room moderation across two processes on Redis', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let drop: () => Promise<void>;
  const prefix = testPrefix();
  const sockets: TestSocket[] = [];
  const tokens = new Map<string, string>();
  let alice: KeyFile;
  let bob: KeyFile;
  let carol: KeyFile;

  beforeAll(async () => {
    const database = await createThrowawayPostgres();
    drop = database.drop;
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: REDIS_TEST_URL,
      REDIS_PREFIX: prefix,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'info',
    };
    [a, b] = (await Promise.all([
      startServerProcess(env, 100_000),
      startServerProcess(env, 100_000),
    ])) as [ServerProcess, ServerProcess];
    alice = await makeRegisteredKey(a.url, { username: 'alice', adminPassword: ADMIN_PASSWORD });
    bob = await makeRegisteredKey(a.url, { username: 'bob', adminPassword: ADMIN_PASSWORD });
    carol = await makeRegisteredKey(a.url, { username: 'carol', adminPassword: ADMIN_PASSWORD });
    tokens.set(alice.keyId, (await login(a.url, alice)).body.sessionToken as string);
    tokens.set(bob.keyId, (await login(b.url, bob)).body.sessionToken as string);
    tokens.set(carol.keyId, (await login(b.url, carol)).body.sessionToken as string);
  }, 240_000);

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await Promise.all([a, b].filter(Boolean).map((server) => server.stop('SIGKILL')));
    const redis = await connectRedis(REDIS_TEST_URL, prefix);
    await deletePrefix(redis, prefix);
    await redis.close();
    await drop();
  });

  const wsUrl = (server: ServerProcess) => `${server.url.replace('http', 'ws')}/chat-ws`;
  async function join(server: ServerProcess, room: Room, who: KeyFile | string) {
    const socket = await TestSocket.connect(wsUrl(server));
    sockets.push(socket);
    socket.send(
      typeof who === 'string'
        ? { type: 'join_room', roomId: room.secureId, username: who }
        : {
            type: 'join_room',
            roomId: room.secureId,
            username: who.username,
            sessionToken: tokens.get(who.keyId),
          },
    );
    const joined = await socket.next(
      (frame) => frame.type === 'room_joined' || frame.type === 'error',
    );
    return { socket, joined, nodeId: joined.nodeId as string };
  }
  /** Generous: two processes and Redis on a shared machine. */
  const WAIT_MS = 20_000;
  const systemText = (text: string) => (frame: Frame) =>
    frame.type === 'new_message' && (frame.message as { content: string }).content === text;

  it('acts on sockets held by the other process', async () => {
    const room = RoomSchema.parse(
      await (
        await fetch(`${a.url}/api/rooms`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${tokens.get(alice.keyId)}`,
          },
          body: JSON.stringify({ name: 'cluster-moderation' }),
        })
      ).json(),
    );
    const admin = await join(a, room, alice);
    const moderator = await join(b, room, bob);
    const target = await join(b, room, carol);
    const visitor = await join(b, room, 'Agent201');
    const watcher = await join(a, room, 'Agent202');
    for (const member of [admin, moderator, target, visitor, watcher])
      expect(member.joined.type).toBe('room_joined');
    await admin.socket.waitForRoster((roster) => roster.size === 5, 10_000);

    // Appointed on A, the moderator's socket on B hears it, and A's members see the shield.
    admin.socket.send({ type: 'appoint_moderator', nodeId: moderator.nodeId });
    await moderator.socket.next(
      (frame) => frame.type === 'moderation_state' && frame.role === 'moderator',
      WAIT_MS,
    );
    await watcher.socket.next(
      (frame) =>
        frame.type === 'user_list_update' &&
        (frame.users as { username: string; role: string }[]).some(
          (user) => user.username === 'bob' && user.role === 'moderator',
        ),
      WAIT_MS,
    );

    // Muted from A, the visitor on B is silenced on B.
    admin.socket.send({ type: 'mute_member', nodeId: visitor.nodeId, minutes: 10 });
    await visitor.socket.next(
      (frame) => frame.type === 'moderation_state' && frame.mutedUntil !== null,
      WAIT_MS,
    );
    await watcher.socket.next(systemText('Agent201 was muted for 10 minutes by an admin'), WAIT_MS);
    visitor.socket.send({
      type: 'send_message',
      content: 'muted words',
      encryptionType: 'PLAINTEXT',
    });
    expect((await visitor.socket.nextOfType('error', WAIT_MS)).message).toMatch(/^You are muted/);
    moderator.socket.send({ type: 'send_message', content: 'after', encryptionType: 'PLAINTEXT' });
    const after = await watcher.socket.next(
      (frame) => frame.type === 'new_message' && !(frame.message as { isSystem: boolean }).isSystem,
      WAIT_MS,
    );
    expect((after.message as { content: string }).content).toBe('after');

    // The moderator on B may not delete the admin's message, but deletes a member's; members on
    // A hear message_deleted.
    admin.socket.send({ type: 'send_message', content: 'oops', encryptionType: 'PLAINTEXT' });
    const oops = await moderator.socket.next(systemText('oops'), WAIT_MS);
    moderator.socket.send({
      type: 'delete_message',
      messageId: (oops.message as { id: string }).id,
    });
    expect((await moderator.socket.nextOfType('error', WAIT_MS)).message).toBe(
      'You cannot act on a member of equal or higher role',
    );
    target.socket.send({
      type: 'send_message',
      content: 'regrettable',
      encryptionType: 'PLAINTEXT',
    });
    const regrettable = await moderator.socket.next(systemText('regrettable'), WAIT_MS);
    const messageId = (regrettable.message as { id: string }).id;
    moderator.socket.send({ type: 'delete_message', messageId });
    expect(await watcher.socket.nextOfType('message_deleted', WAIT_MS)).toMatchObject({
      messageId,
    });

    // Banned from A, carol's socket on B leaves; she cannot come back on either process.
    admin.socket.send({ type: 'ban_member', nodeId: target.nodeId, minutes: null });
    expect(await target.socket.nextOfType('removed_from_room', WAIT_MS)).toMatchObject({
      action: 'ban',
    });
    await watcher.socket.next(
      (frame) => frame.type === 'user_left' && frame.nodeId === target.nodeId,
      WAIT_MS,
    );
    for (const server of [a, b]) {
      expect((await join(server, room, carol)).joined).toMatchObject({
        type: 'error',
        message: 'You are banned from this channel',
      });
    }

    // Kicked by the moderator on B, a visitor on A leaves.
    moderator.socket.send({ type: 'kick_member', nodeId: watcher.nodeId });
    expect(await watcher.socket.nextOfType('removed_from_room', WAIT_MS)).toMatchObject({
      action: 'kick',
    });

    // Locked on A, B refuses a new anonymous join at once.
    admin.socket.send({ type: 'lock_room' });
    await moderator.socket.next(
      (frame) => frame.type === 'moderation_state' && frame.isLocked === true,
      WAIT_MS,
    );
    const refused = await join(b, room, 'Agent203');
    expect(refused.joined).toMatchObject({ type: 'error', message: 'Access code required' });
  }, 240_000);
});
