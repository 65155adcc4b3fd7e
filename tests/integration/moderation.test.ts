/**
 * Room moderation on one process (issue 23), with real WebSocket clients: roles (the creating key
 * holder is the room's admin, admins appoint moderators), each power and its refusals, the muted
 * member whose messages never reach anyone, kicks with a cool-down, bans of keys and addresses,
 * the lock, the moderation log and the audit log; and the self-destruct timer, which only the
 * room's creator, moderators and service admins may set (issue 15 item 4).
 *
 * Every anonymous test socket comes from 127.0.0.1, so sanctions on an anonymous visitor (kept by
 * address) apply to every later anonymous join from this test in that room: each test makes its
 * own room.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { KICK_COOLDOWN_MS } from '../../shared/constants.js';
import type { KeyFile } from '../../shared/crypto/key-file-schema.js';
import { RoomSchema, type Room } from '../../shared/protocol/http/rooms.js';
import { ModerationLogResponseSchema } from '../../shared/protocol/http/moderation.js';
import { adminToken, login, makeRegisteredKey } from '../support/keys.js';
import { startServer, type TestServer } from '../support/server.js';
import { TestSocket, type Frame } from '../support/ws-client.js';

describe('room moderation on one process', () => {
  let server: TestServer;
  let clockOffset = 0;
  const sockets: TestSocket[] = [];
  const now = () => Date.now() + clockOffset;
  const tokens = new Map<string, string>();
  let owner: KeyFile;
  let modKey: KeyFile;
  let memberKey: KeyFile;
  let serviceAdmin: KeyFile;

  beforeAll(async () => {
    server = await startServer({
      deps: {
        now,
        loginRatePerMinute: 1000,
        keyLoginFailuresPerWindow: 1000,
        roomCreationsPerTenMinutes: 1000,
      },
    });
    owner = await makeRegisteredKey(server.baseUrl, { username: 'owner' });
    modKey = await makeRegisteredKey(server.baseUrl, { username: 'moddy' });
    memberKey = await makeRegisteredKey(server.baseUrl, { username: 'member' });
    serviceAdmin = await makeRegisteredKey(server.baseUrl, { username: 'chief', level: 'admin' });
    for (const key of [owner, modKey, memberKey, serviceAdmin]) {
      const result = await login(server.baseUrl, key);
      tokens.set(key.keyId, result.body.sessionToken as string);
    }
  });
  afterAll(async () => {
    await server.stop();
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
    clockOffset = 0;
  });

  const tokenOf = (key: KeyFile) => tokens.get(key.keyId) ?? '';
  const http = (path: string, init: RequestInit = {}) =>
    fetch(`${server.baseUrl}${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', ...init.headers },
    });

  async function createRoom(by: KeyFile | null, body: Record<string, unknown> = {}): Promise<Room> {
    const response = await http('/api/rooms', {
      method: 'POST',
      body: JSON.stringify({ name: `mod-${Math.random().toString(36).slice(2, 8)}`, ...body }),
      headers: by ? { authorization: `Bearer ${tokenOf(by)}` } : {},
    });
    expect(response.status).toBe(200);
    return RoomSchema.parse(await response.json());
  }

  async function join(room: Room, who: KeyFile | string) {
    const socket = await TestSocket.connect(server.wsUrl());
    sockets.push(socket);
    socket.send(
      typeof who === 'string'
        ? { type: 'join_room', roomId: room.secureId, username: who }
        : {
            type: 'join_room',
            roomId: room.secureId,
            username: who.username,
            sessionToken: tokenOf(who),
          },
    );
    const joined = await socket.next(
      (frame) => frame.type === 'room_joined' || frame.type === 'error',
    );
    return { socket, joined, nodeId: joined.nodeId as string };
  }

  async function member(room: Room, who: KeyFile | string) {
    const result = await join(room, who);
    expect(result.joined.type, JSON.stringify(result.joined)).toBe('room_joined');
    await result.socket.nextOfType('moderation_state');
    return result;
  }

  const systemText = (text: string) => (frame: Frame) =>
    frame.type === 'new_message' && (frame.message as { content: string }).content === text;
  const roleIn = (frame: Frame, username: string) =>
    (frame.users as { username: string; role: string }[]).find((user) => user.username === username)
      ?.role;

  it("makes the creating key holder the room's admin and shows roles in the member list", async () => {
    const room = await createRoom(owner);
    const alice = await join(room, owner);
    expect(await alice.socket.nextOfType('moderation_state')).toMatchObject({
      role: 'room_admin',
      isLocked: false,
      mutedUntil: null,
    });
    const chief = await member(room, serviceAdmin);
    const visitor = await member(room, 'Agent101');
    const list = await visitor.socket.next(
      (frame) => frame.type === 'user_list_update' && (frame.users as unknown[]).length === 3,
    );
    expect(roleIn(list, 'owner')).toBe('admin');
    expect(roleIn(list, 'chief')).toBe('admin');
    expect(roleIn(list, 'Agent101')).toBe('user');
    // Server-only fields never reach members.
    expect(JSON.stringify(list)).not.toContain(owner.keyId);
    expect(JSON.stringify(list)).not.toContain('addressTag');
    expect(JSON.stringify(list)).not.toContain('moderationRole');
    chief.socket.close();
  });

  it('lets the room admin appoint and remove a moderator, and refuses that to anyone else', async () => {
    const room = await createRoom(owner);
    const alice = await member(room, owner);
    const bob = await member(room, modKey);
    const carol = await member(room, memberKey);
    const visitor = await member(room, 'Agent102');

    // A plain member cannot appoint, and nobody can give an anonymous callsign a role.
    carol.socket.send({ type: 'appoint_moderator', nodeId: bob.nodeId });
    expect((await carol.socket.nextOfType('error')).message).toBe(
      'Only admins of this channel can do that',
    );
    alice.socket.send({ type: 'appoint_moderator', nodeId: visitor.nodeId });
    expect((await alice.socket.nextOfType('error')).message).toBe(
      'Anonymous callsigns cannot hold a role',
    );

    alice.socket.send({ type: 'appoint_moderator', nodeId: bob.nodeId });
    expect(await bob.socket.nextOfType('moderation_state')).toMatchObject({ role: 'moderator' });
    const list = await visitor.socket.next(
      (frame) => frame.type === 'user_list_update' && roleIn(frame, 'moddy') === 'moderator',
    );
    expect(roleIn(list, 'owner')).toBe('admin');
    await visitor.socket.next(systemText('moddy is now a moderator (appointed by an admin)'));

    // The role is stored: a new socket of the same key is a moderator again.
    const again = await join(room, modKey);
    expect(await again.socket.nextOfType('moderation_state')).toMatchObject({ role: 'moderator' });

    // A moderator cannot appoint others; the admin removes the moderator.
    bob.socket.send({ type: 'appoint_moderator', nodeId: carol.nodeId });
    expect((await bob.socket.nextOfType('error')).message).toBe(
      'Only admins of this channel can do that',
    );
    alice.socket.send({ type: 'remove_moderator', keyId: modKey.keyId });
    expect(await bob.socket.nextOfType('moderation_state')).toMatchObject({ role: 'member' });
    await visitor.socket.next(systemText('moddy is no longer a moderator (by an admin)'));
  });

  it("mutes a visitor: the server drops the visitor's messages, tells them until when, and lifts the mute", async () => {
    const room = await createRoom(owner);
    const alice = await member(room, owner);
    const bob = await member(room, modKey);
    alice.socket.send({ type: 'appoint_moderator', nodeId: bob.nodeId });
    await bob.socket.next(
      (frame) => frame.type === 'moderation_state' && frame.role === 'moderator',
    );
    const visitor = await member(room, 'Agent103');
    const watcher = await member(room, memberKey);

    bob.socket.send({ type: 'mute_member', nodeId: visitor.nodeId, minutes: 10 });
    const state = await visitor.socket.nextOfType('moderation_state');
    expect(Date.parse(state.mutedUntil as string)).toBeGreaterThan(now() + 9 * 60_000);
    await watcher.socket.next(systemText('Agent103 was muted for 10 minutes by a moderator'));

    visitor.socket.send({
      type: 'send_message',
      content: 'spam while muted',
      encryptionType: 'PLAINTEXT',
    });
    expect((await visitor.socket.nextOfType('error')).message).toMatch(
      /^You are muted in this channel until \d\d:\d\d UTC$/,
    );
    // The next message anyone receives is the one sent after: the muted one never went out.
    alice.socket.send({
      type: 'send_message',
      content: 'after the mute',
      encryptionType: 'PLAINTEXT',
    });
    const next = await watcher.socket.next(
      (frame) => frame.type === 'new_message' && !(frame.message as { isSystem: boolean }).isSystem,
    );
    expect((next.message as { content: string }).content).toBe('after the mute');
    expect(
      (await server.messages.history(room.id)).map((message) => message.content),
    ).not.toContain('spam while muted');

    // Reconnecting does not escape the mute (anonymous: by address).
    const rejoined = await join(room, 'Agent104');
    expect((await rejoined.socket.nextOfType('moderation_state')).mutedUntil).not.toBeNull();

    // A moderator cannot mute the room's admin; the moderator lifts their own mute.
    bob.socket.send({ type: 'mute_member', nodeId: alice.nodeId, minutes: 5 });
    expect((await bob.socket.nextOfType('error')).message).toBe(
      'You cannot act on a member of equal or higher role',
    );
    bob.socket.send({ type: 'unmute_member', nodeId: visitor.nodeId });
    expect(await visitor.socket.nextOfType('moderation_state')).toMatchObject({ mutedUntil: null });
    visitor.socket.send({
      type: 'send_message',
      content: 'free again',
      encryptionType: 'PLAINTEXT',
    });
    await watcher.socket.next(
      (frame) =>
        frame.type === 'new_message' &&
        (frame.message as { content: string }).content === 'free again',
    );
  });

  it('deletes a message for everyone and refuses that to members', async () => {
    const room = await createRoom(owner);
    const alice = await member(room, owner);
    const visitor = await member(room, 'Agent105');
    const carol = await member(room, memberKey);
    visitor.socket.send({
      type: 'send_message',
      content: 'regrettable',
      encryptionType: 'PLAINTEXT',
    });
    const sent = await carol.socket.nextOfType('new_message');
    const messageId = (sent.message as { id: string }).id;

    carol.socket.send({ type: 'delete_message', messageId });
    expect((await carol.socket.nextOfType('error')).message).toBe(
      'Only moderators and admins of this channel can do that',
    );
    alice.socket.send({ type: 'delete_message', messageId });
    expect(await carol.socket.nextOfType('message_deleted')).toEqual({
      type: 'message_deleted',
      messageId,
    });
    expect(await visitor.socket.nextOfType('message_deleted')).toMatchObject({ messageId });
    await carol.socket.next(systemText('A message was deleted by an admin'));
    expect((await server.messages.history(room.id)).map((message) => message.id)).not.toContain(
      messageId,
    );
    alice.socket.send({ type: 'delete_message', messageId });
    expect((await alice.socket.nextOfType('error')).message).toBe('That message is gone already');
  });

  it('kicks a member out of the room with a cool-down before they may rejoin', async () => {
    const room = await createRoom(owner);
    const alice = await member(room, owner);
    const carol = await member(room, memberKey);
    const visitor = await member(room, 'Agent106');

    alice.socket.send({ type: 'kick_member', nodeId: carol.nodeId });
    const removed = await carol.socket.nextOfType('removed_from_room');
    expect(removed).toMatchObject({ action: 'kick', roomId: room.id });
    const left = await visitor.socket.next(
      (frame) => frame.type === 'user_left' && frame.nodeId === carol.nodeId,
    );
    expect(left.memberCount).toBe(2);
    await visitor.socket.next(systemText('member was kicked by an admin'));
    // Out of the room: the kicked socket cannot post.
    carol.socket.send({
      type: 'send_message',
      content: 'still here?',
      encryptionType: 'PLAINTEXT',
    });
    expect((await carol.socket.nextOfType('error')).message).toBe(
      'Join a room before sending messages',
    );

    // Not from this socket, not from a new one, until the cool-down has passed.
    carol.socket.send({
      type: 'join_room',
      roomId: room.secureId,
      username: memberKey.username,
      sessionToken: tokenOf(memberKey),
    });
    expect((await carol.socket.nextOfType('error')).message).toMatch(
      /^You were removed from this channel\. You may rejoin after \d\d:\d\d UTC$/,
    );
    expect((await join(room, memberKey)).joined.type).toBe('error');
    clockOffset = KICK_COOLDOWN_MS + 1000;
    expect((await join(room, memberKey)).joined.type).toBe('room_joined');
  });

  it('bans a key for good and an anonymous address for a time, never a service admin, and unbans', async () => {
    const room = await createRoom(owner);
    const alice = await member(room, owner);
    const carol = await member(room, memberKey);
    const visitor = await member(room, 'Agent107');
    const chief = await member(room, serviceAdmin);

    alice.socket.send({ type: 'ban_member', nodeId: chief.nodeId, minutes: null });
    expect((await alice.socket.nextOfType('error')).message).toBe(
      'You cannot act on a member of equal or higher role',
    );
    alice.socket.send({ type: 'ban_member', nodeId: visitor.nodeId, minutes: null });
    expect((await alice.socket.nextOfType('error')).message).toBe(
      'Anonymous visitors can only be banned for a time',
    );

    alice.socket.send({ type: 'ban_member', nodeId: carol.nodeId, minutes: null });
    expect(await carol.socket.nextOfType('removed_from_room')).toMatchObject({
      action: 'ban',
      until: null,
      message: 'You are banned from this channel',
    });
    await visitor.socket.next(systemText('member was banned by an admin'));
    const refused = await join(room, memberKey);
    expect(refused.joined).toMatchObject({
      type: 'error',
      message: 'You are banned from this channel',
    });
    // Far in the future, still banned.
    clockOffset = 400 * 86_400_000;
    expect((await join(room, memberKey)).joined.type).toBe('error');
    clockOffset = 0;

    alice.socket.send({ type: 'ban_member', nodeId: visitor.nodeId, minutes: 30 });
    await visitor.socket.nextOfType('removed_from_room');
    expect((await join(room, 'Agent108')).joined.type).toBe('error');

    // The log lists both bans; lifting the key's ban lets it back in.
    const log = ModerationLogResponseSchema.parse(
      await (
        await http(`/api/rooms/${room.id}/moderation-log`, {
          headers: { authorization: `Bearer ${tokenOf(owner)}` },
        })
      ).json(),
    );
    expect(log.bans.map((ban) => [ban.name, ban.isKeyHolder, ban.until === null])).toEqual([
      ['Agent107', false, false],
      ['member', true, true],
    ]);
    const keyBan = log.bans.find((ban) => ban.isKeyHolder);
    alice.socket.send({ type: 'unban_member', banId: keyBan?.id });
    await alice.socket.next(systemText('member was unbanned by an admin'));
    expect((await join(room, memberKey)).joined.type).toBe('room_joined');
    chief.socket.close();
  });

  it('locks the room to new anonymous joins and unlocks it', async () => {
    const room = await createRoom(owner);
    const alice = await member(room, owner);
    const carol = await member(room, memberKey);
    carol.socket.send({ type: 'lock_room' });
    expect((await carol.socket.nextOfType('error')).message).toBe(
      'Only admins of this channel can do that',
    );
    alice.socket.send({ type: 'lock_room' });
    expect(
      await carol.socket.next(
        (frame) => frame.type === 'moderation_state' && frame.isLocked === true,
      ),
    ).toBeTruthy();
    await carol.socket.next(
      systemText('The channel was locked by an admin: new members need the access code'),
    );
    expect((await join(room, 'Agent109')).joined).toMatchObject({
      type: 'error',
      message: 'Access code required',
    });
    // A room without an access code, locked, lets no new anonymous visitor in with any code.
    const code = await http(`/api/rooms/${room.secureId}/verify-password`, {
      method: 'POST',
      body: JSON.stringify({ password: 'a'.repeat(64) }),
    });
    expect(await code.json()).toMatchObject({ valid: false });
    alice.socket.send({ type: 'unlock_room' });
    await carol.socket.next(systemText('The channel was unlocked by an admin'));
    expect((await join(room, 'Agent110')).joined.type).toBe('room_joined');
  });

  it("shows the room's admins its moderation log, and service admins' actions in the audit log", async () => {
    const room = await createRoom(owner);
    const alice = await member(room, owner);
    const bob = await member(room, modKey);
    const chief = await member(room, serviceAdmin);
    const visitor = await member(room, 'Agent111');
    alice.socket.send({ type: 'appoint_moderator', nodeId: bob.nodeId });
    await bob.socket.next(
      (frame) => frame.type === 'moderation_state' && frame.role === 'moderator',
    );
    chief.socket.send({ type: 'mute_member', nodeId: visitor.nodeId, minutes: 3 });
    await visitor.socket.nextOfType('moderation_state');

    const read = (token: string | null) =>
      http(`/api/rooms/${room.id}/moderation-log`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
    expect((await read(null)).status).toBe(403);
    expect((await read(tokenOf(modKey))).status).toBe(403);
    const log = ModerationLogResponseSchema.parse(await (await read(tokenOf(owner))).json());
    expect(
      log.entries.map((entry) => [entry.actor, entry.actorRole, entry.action, entry.target]),
    ).toEqual([
      ['chief', 'admin', 'mute', 'Agent111'],
      ['owner', 'admin', 'appoint_moderator', 'moddy'],
    ]);
    expect(log.moderators.map((row) => row.username)).toEqual(['moddy']);
    expect((await read(await adminToken(server.baseUrl))).status).toBe(200);

    const audit = await server.audit.list(20);
    const entry = audit.find((row) => row.action === 'room.moderation');
    expect(entry).toMatchObject({ actor: `key:${serviceAdmin.keyId}` });
    expect(entry?.detail).toMatchObject({ roomId: room.id, action: 'mute', target: 'Agent111' });

    // Lines older than 30 days are swept.
    clockOffset = 31 * 86_400_000;
    expect((await server.moderation.sweep()).logEntries).toBeGreaterThanOrEqual(2);
    clockOffset = 0;
    expect(
      ModerationLogResponseSchema.parse(await (await read(tokenOf(owner))).json()).entries,
    ).toEqual([]);
  });

  it('answers malformed or misplaced moderation frames with errors and changes nothing', async () => {
    const room = await createRoom(owner);
    const outside = await TestSocket.connect(server.wsUrl());
    sockets.push(outside);
    outside.send({ type: 'kick_member', nodeId: 'node_0123456789abcdef' });
    expect((await outside.nextOfType('error')).message).toBe('Join a room first');
    const alice = await member(room, owner);
    alice.socket.send({ type: 'kick_member', nodeId: '<script>' });
    expect((await alice.socket.nextOfType('error')).message).toBe('Invalid kick_member frame');
    alice.socket.send({ type: 'mute_member', nodeId: alice.nodeId, minutes: 0 });
    expect((await alice.socket.nextOfType('error')).message).toBe('Invalid mute_member frame');
    alice.socket.send({ type: 'kick_member', nodeId: 'node_0123456789abcdef' });
    expect((await alice.socket.nextOfType('error')).message).toBe(
      'That member is no longer in this channel',
    );
    alice.socket.send({ type: 'kick_member', nodeId: alice.nodeId });
    expect((await alice.socket.nextOfType('error')).message).toBe(
      'You cannot act on a member of equal or higher role',
    );
    expect((await server.presence.list(room.id)).length).toBe(1);
  });
});

describe('the self-destruct timer (issue 15 item 4)', () => {
  let server: TestServer;
  const sockets: TestSocket[] = [];
  beforeAll(async () => {
    server = await startServer({
      deps: {
        loginRatePerMinute: 1000,
        keyLoginFailuresPerWindow: 1000,
        roomCreationsPerTenMinutes: 1000,
      },
    });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await server.stop();
  });

  it("is set or cleared only by the room's creator, its moderators and service admins", async () => {
    const creator = await makeRegisteredKey(server.baseUrl, { username: 'creator' });
    const stranger = await makeRegisteredKey(server.baseUrl, { username: 'stranger' });
    const moderator = await makeRegisteredKey(server.baseUrl, { username: 'appointed' });
    const chief = await makeRegisteredKey(server.baseUrl, { username: 'chief', level: 'admin' });
    const token = async (key: KeyFile) =>
      (await login(server.baseUrl, key)).body.sessionToken as string;
    const [creatorToken, strangerToken, moderatorToken, chiefToken] = await Promise.all(
      [creator, stranger, moderator, chief].map(token),
    );
    const create = async (body: Record<string, unknown>, bearer: string | null | undefined) =>
      RoomSchema.parse(
        await (
          await fetch(`${server.baseUrl}/api/rooms`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
            },
            body: JSON.stringify(body),
          })
        ).json(),
      );
    const patch = (room: Room, headers: Record<string, string>) =>
      fetch(`${server.baseUrl}/api/rooms/${room.id}/self-destruct`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ selfDestructTimer: 1 }),
      });

    // Any visitor of an open room, grant in hand, used to destroy it: no more.
    const open = await create({ name: 'open' }, creatorToken);
    const visitor = await TestSocket.connect(`${server.baseUrl.replace('http', 'ws')}/chat-ws`);
    sockets.push(visitor);
    visitor.send({ type: 'join_room', roomId: open.secureId, username: 'Agent120' });
    const grant = (await visitor.nextOfType('room_joined')).accessToken as string;
    const refused = await patch(open, { 'x-room-access': grant });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: "Only the channel's creator, moderators and admins can set its timer",
    });

    // Any key holder of a locked room used to as well: no more.
    const locked = await create(
      {
        name: 'locked',
        isPrivate: true,
        securityLevel: 'classified',
        passwordHash: 'b'.repeat(64),
      },
      creatorToken,
    );
    expect((await patch(locked, { authorization: `Bearer ${strangerToken}` })).status).toBe(403);
    expect((await patch(open, { authorization: `Bearer ${strangerToken}` })).status).toBe(403);

    expect((await patch(locked, { authorization: `Bearer ${creatorToken}` })).status).toBe(200);
    expect((await patch(open, { authorization: `Bearer ${chiefToken}` })).status).toBe(200);
    expect(
      (await patch(open, { authorization: `Bearer ${await adminToken(server.baseUrl)}` })).status,
    ).toBe(200);

    // Once appointed, a moderator may.
    expect((await patch(open, { authorization: `Bearer ${moderatorToken}` })).status).toBe(403);
    const owner = await TestSocket.connect(`${server.baseUrl.replace('http', 'ws')}/chat-ws`);
    const appointed = await TestSocket.connect(`${server.baseUrl.replace('http', 'ws')}/chat-ws`);
    sockets.push(owner, appointed);
    owner.send({
      type: 'join_room',
      roomId: open.secureId,
      username: 'creator',
      sessionToken: creatorToken,
    });
    await owner.nextOfType('room_joined');
    appointed.send({
      type: 'join_room',
      roomId: open.secureId,
      username: 'appointed',
      sessionToken: moderatorToken,
    });
    const joined = await appointed.nextOfType('room_joined');
    owner.send({ type: 'appoint_moderator', nodeId: joined.nodeId });
    await appointed.next(
      (frame) => frame.type === 'moderation_state' && frame.role === 'moderator',
    );
    expect((await patch(open, { authorization: `Bearer ${moderatorToken}` })).status).toBe(200);
  });
});
