/**
 * Rooms and realtime chat with real WebSocket clients (spec 000 §4, §5, §7): delivery, history,
 * expiry on the server, access codes, key-holder bypass, self-destruct, timers, bad input.
 */
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RoomSchema } from '../../shared/protocol/http/rooms.js';
import { VerifyResponseSchema } from '../../shared/protocol/http/auth.js';
import { adminToken, login, makeRegisteredKey } from '../support/keys.js';
import { startServer, type TestServer } from '../support/server.js';
import { TestSocket } from '../support/ws-client.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('realtime chat', () => {
  let server: TestServer;
  let clockOffset = 0;
  let defaultRoom: string;
  const sockets: TestSocket[] = [];
  const now = () => Date.now() + clockOffset;

  beforeAll(async () => {
    server = await startServer({
      deps: {
        now,
        loginRatePerMinute: 1000,
        roomCreationsPerTenMinutes: 1000,
        anonymousRoomCreationsPerTenMinutes: 1000,
      },
    });
    defaultRoom = (await server.rooms.defaultRoom()).secureId;
  });
  afterAll(async () => {
    await server.stop();
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
    clockOffset = 0;
  });

  async function connect(): Promise<TestSocket> {
    const socket = await TestSocket.connect(server.wsUrl());
    sockets.push(socket);
    return socket;
  }

  async function join(roomId: string, username: string, extra: Record<string, unknown> = {}) {
    const socket = await connect();
    socket.send({ type: 'join_room', roomId, username, ...extra });
    const joined = await socket.next(
      (frame) => frame.type === 'room_joined' || frame.type === 'error',
    );
    return { socket, joined };
  }

  const http = (path: string, init: RequestInit = {}) =>
    fetch(`${server.baseUrl}${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', ...init.headers },
    });

  async function createRoom(body: Record<string, unknown>) {
    const response = await http('/api/rooms', { method: 'POST', body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  const text = (content: string) => ({
    type: 'send_message',
    content,
    encryptionType: 'PLAINTEXT',
  });
  const cipher = (encryptedContent: string) => ({
    type: 'send_message',
    content: '',
    encryptedContent,
    encryptionType: 'AES-256-GCM',
  });

  it('delivers a message to every member with server-set id, sender and times', async () => {
    const { socket: alice } = await join(defaultRoom, 'Agent1');
    const { socket: bob, joined } = await join(defaultRoom, 'Ghost2');
    expect(joined.memberCount).toBeGreaterThanOrEqual(2);
    await alice.nextJoin('Ghost2');
    const sentAt = Date.now();
    alice.send(cipher('Y2lwaGVydGV4dA=='));
    const received = await bob.nextOfType('new_message');
    const echoed = await alice.nextOfType('new_message');
    expect(received).toEqual(echoed);
    const message = received.message as Record<string, string>;
    expect(message).toMatchObject({
      senderUsername: 'Agent1',
      encryptedContent: 'Y2lwaGVydGV4dA==',
      content: '',
      encryptionType: 'AES-256-GCM',
    });
    const lifetime = Date.parse(message.expiresAt!) - Date.parse(message.createdAt!);
    expect(lifetime).toBe(30_000);
    expect(Date.parse(message.createdAt!)).toBeGreaterThanOrEqual(sentAt - 5);
  });

  it('relays the largest allowed message intact, and a run of messages in order beside replies', async () => {
    // Room frames are framed once and written straight to each socket (server/realtime/ws-frame.ts);
    // replies to one member still go through ws. Both must arrive whole and in order.
    const { socket: alice } = await join(defaultRoom, 'Agent15');
    const { socket: bob } = await join(defaultRoom, 'Ghost16');
    await alice.nextJoin('Ghost16');
    // 48,000 characters (the schema's limit), 63,000 bytes: within the 64 KiB frame limit.
    const largest = 'ü'.repeat(5_000) + 'A'.repeat(38_000) + '€'.repeat(5_000);
    alice.send(cipher(largest));
    const big = await bob.nextOfType('new_message');
    expect((big.message as Record<string, string>).encryptedContent).toBe(largest);

    const sent = Array.from({ length: 8 }, (_, i) => `c2VxdWVuY2U${i}`);
    for (const [i, body] of sent.entries()) {
      alice.send(cipher(body));
      // An invalid frame between them: its error goes to alice alone, through ws.
      if (i === 3) alice.send({ type: 'send_message', content: 42 });
    }
    const received: string[] = [];
    while (received.length < sent.length) {
      const frame = await bob.nextOfType('new_message');
      received.push((frame.message as Record<string, string>).encryptedContent!);
    }
    expect(received).toEqual(sent);
    // Alice's own frames are handled one after another: her error lands between the echoes of
    // the fourth and fifth messages, exactly where she sent the bad frame.
    const seenByAlice: string[] = [];
    while (seenByAlice.length < sent.length + 2) {
      const frame = await alice.next(
        (candidate) => candidate.type === 'new_message' || candidate.type === 'error',
      );
      seenByAlice.push(
        frame.type === 'error'
          ? 'error'
          : (frame.message as Record<string, string>).encryptedContent!.slice(0, 12),
      );
    }
    expect(seenByAlice).toEqual([
      largest.slice(0, 12),
      ...sent.slice(0, 4),
      'error',
      ...sent.slice(4),
    ]);
  });

  it('relays typing to the others only', async () => {
    const { socket: alice } = await join(defaultRoom, 'Agent3');
    const { socket: bob } = await join(defaultRoom, 'Unit4');
    alice.send({ type: 'typing_start' });
    expect(
      await bob.next((frame) => frame.type === 'typing_start' && frame.username === 'Agent3'),
    ).toBeTruthy();
    alice.send({ type: 'typing_stop' });
    await bob.next((frame) => frame.type === 'typing_stop' && frame.username === 'Agent3');
    expect(
      alice.frames.some((frame) => frame.type === 'typing_start' && frame.username === 'Agent3'),
    ).toBe(false);
  });

  it('keeps the typist TYPING in the member list until typing_stop, without a list per keystroke', async () => {
    const room = RoomSchema.parse((await createRoom({ name: 'typing-list' })).body);
    const { socket: alice } = await join(room.secureId, 'Agent21');
    const { socket: bob } = await join(room.secureId, 'Unit22');
    const statusIn = (frame: Record<string, unknown>) =>
      (frame.users as { username: string; status: string }[]).find(
        (user) => user.username === 'Agent21',
      )?.status;
    const listNow = async () => {
      bob.frames.length = 0;
      bob.send({ type: 'request_user_list' });
      return statusIn(await bob.nextOfType('user_list_update'));
    };
    // Joins reach the room as deltas: alice hears bob's.
    await alice.nextJoin('Unit22');
    alice.frames.length = 0;
    alice.send({ type: 'typing_start' });
    await bob.next((frame) => frame.type === 'typing_start' && frame.username === 'Agent21');
    expect(await listNow()).toBe('typing');
    alice.send({ type: 'typing_stop' });
    await bob.next((frame) => frame.type === 'typing_stop' && frame.username === 'Agent21');
    expect(await listNow()).toBe('online');
    // Typing sent the others its frames only: no member list went out for it.
    expect(alice.frames.some((frame) => frame.type === 'user_list_update')).toBe(false);
  });

  it('deletes messages on the server at expiry: a late joiner never receives them', async () => {
    const room = RoomSchema.parse((await createRoom({ name: 'expiry-room' })).body);
    const { socket: alice } = await join(room.secureId, 'Cipher5');
    alice.send(text('first'));
    await alice.nextOfType('new_message');
    clockOffset = 15_000;
    alice.send(text('second'));
    await alice.nextOfType('new_message');

    clockOffset = 31_000;
    const { joined: middle } = await join(room.secureId, 'Node6');
    expect((middle.messages as { content: string }[]).map((m) => m.content)).toEqual(['second']);
    // History hides it; the sweep deletes it and the next notice tells the room.
    expect(await server.messages.sweep()).toBeGreaterThanOrEqual(1);
    expect(await server.messages.announceExpired()).toBeGreaterThanOrEqual(1);
    const expired = await alice.nextOfType('messages_expired');
    expect((expired.messageIds as string[]).length).toBe(1);
    clockOffset = 46_000;
    await server.messages.sweep();
    const { joined: late } = await join(room.secureId, 'Op7');
    expect(late.messages).toEqual([]);
    expect(await server.messages.history(room.id)).toEqual([]);
  });

  it('lets nobody into a private room without its access code, and anyone with it', async () => {
    const missing = await createRoom({
      name: 'vault',
      isPrivate: true,
      securityLevel: 'classified',
    });
    expect(missing).toEqual({
      status: 400,
      body: { error: 'Security Protocol Error: Classified channels require access codes' },
    });
    const created = await createRoom({
      name: 'vault',
      isPrivate: true,
      securityLevel: 'classified',
      passwordHash: sha256('open sesame'),
    });
    const room = RoomSchema.parse(created.body);
    expect(JSON.stringify(created.body)).not.toContain(sha256('open sesame'));
    const stored = await server.database.query<{ access_code_hash: string }>(
      'SELECT access_code_hash FROM rooms WHERE id = $1',
      [room.id],
    );
    expect(stored[0]?.access_code_hash).toMatch(/^scrypt\$/);
    expect(stored[0]?.access_code_hash).not.toContain(sha256('open sesame'));

    const { joined: refused } = await join(room.secureId, 'Shadow8');
    expect(refused).toMatchObject({ type: 'error', message: 'Access code required' });

    const verify = (code: string) =>
      http(`/api/rooms/${room.secureId}/verify-password`, {
        method: 'POST',
        body: JSON.stringify({ password: sha256(code) }),
      }).then(
        (response) => response.json() as Promise<{ valid: boolean; accessToken: string | null }>,
      );
    expect(await verify('wrong')).toEqual({ valid: false, accessToken: null });
    const granted = await verify('open sesame');
    expect(granted.valid).toBe(true);
    const { joined } = await join(room.secureId, 'Shadow8', { accessToken: granted.accessToken });
    expect(joined.type).toBe('room_joined');
    // A grant is for one room only.
    const other = RoomSchema.parse(
      (
        await createRoom({
          name: 'vault2',
          isPrivate: true,
          securityLevel: 'restricted',
          passwordHash: sha256('x'),
        })
      ).body,
    );
    const { joined: crossed } = await join(other.secureId, 'Shadow8', {
      accessToken: granted.accessToken,
    });
    expect(crossed.type).toBe('error');
  });

  it('limits access-code attempts', async () => {
    const room = RoomSchema.parse(
      (
        await createRoom({
          name: 'limited',
          isPrivate: true,
          securityLevel: 'top_secret',
          passwordHash: sha256('k'),
        })
      ).body,
    );
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const response = await http(`/api/rooms/${room.secureId}/verify-password`, {
        method: 'POST',
        body: JSON.stringify({ password: sha256(`guess${i}`) }),
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('lists locked rooms to key holders only', async () => {
    const hidden = RoomSchema.parse(
      (
        await createRoom({
          name: 'unlisted',
          isPrivate: true,
          securityLevel: 'classified',
          passwordHash: sha256('q'),
        })
      ).body,
    );
    const anonymous = (await (await http('/api/rooms')).json()) as { id: string }[];
    expect(anonymous.map((room) => room.id)).not.toContain(hidden.id);
    const key = await makeRegisteredKey(server.baseUrl);
    const { sessionToken } = VerifyResponseSchema.parse((await login(server.baseUrl, key)).body);
    const asKeyHolder = (await (
      await http('/api/rooms', { headers: { authorization: `Bearer ${sessionToken}` } })
    ).json()) as { id: string }[];
    expect(asKeyHolder.map((room) => room.id)).toContain(hidden.id);
  });

  it('lets key holders bypass room access codes', async () => {
    const room = RoomSchema.parse(
      (
        await createRoom({
          name: 'keys-only',
          isPrivate: true,
          securityLevel: 'restricted',
          passwordHash: sha256('c'),
        })
      ).body,
    );
    const key = await makeRegisteredKey(server.baseUrl, { username: 'carol' });
    const { sessionToken } = VerifyResponseSchema.parse((await login(server.baseUrl, key)).body);
    const { socket, joined } = await join(room.secureId, 'ignored', { sessionToken });
    expect(joined.type).toBe('room_joined');
    socket.send(text('hello from a key holder'));
    expect(
      ((await socket.nextOfType('new_message')).message as { senderUsername: string })
        .senderUsername,
    ).toBe('carol');
    const { joined: forged } = await join(room.secureId, 'Agent9', {
      sessionToken: 'not-a-session-token',
    });
    expect(forged).toMatchObject({ type: 'error', message: 'Session expired or invalid' });
  });

  it("closes a revoked key holder's socket at once", async () => {
    const key = await makeRegisteredKey(server.baseUrl, { username: 'dave' });
    const { sessionToken } = VerifyResponseSchema.parse((await login(server.baseUrl, key)).body);
    const { socket } = await join(defaultRoom, 'ignored', { sessionToken });
    const closed = socket.waitForClose();
    const admin = await adminToken(server.baseUrl);
    await fetch(`${server.baseUrl}/api/admin/keys/${key.keyId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(await closed).toBe(4003);
  });

  it('destroys a room at its time: members are told, messages and members are purged, lookups answer 404', async () => {
    const room = RoomSchema.parse(
      (await createRoom({ name: 'ephemeral', selfDestructTimer: 0.5 })).body,
    );
    expect(Date.parse(room.destructionAt!) - Date.now()).toBeGreaterThan(25_000);
    const { socket: alice } = await join(room.secureId, 'Ghost10');
    const { socket: bob } = await join(room.secureId, 'Ghost11');
    alice.send(text('before the end'));
    await bob.nextOfType('new_message');
    expect(await server.rooms.destroyDueRooms()).toEqual([]);
    // The housekeeping timer (every second) destroys the room once its time has passed: the time
    // noted at creation wakes it, with no direct call here.
    clockOffset = 31_000;
    expect(await alice.nextOfType('room_destroyed')).toMatchObject({ roomId: room.id });
    expect(await bob.nextOfType('room_destroyed')).toMatchObject({ roomId: room.id });
    expect((await http(`/api/rooms/${room.secureId}`)).status).toBe(404);
    expect(await server.messages.history(room.id)).toEqual([]);
    expect(await server.presence.list(room.id)).toEqual([]);
    // A member of a destroyed room can no longer post into it.
    alice.send(text('after the end'));
    expect(await alice.nextOfType('error')).toMatchObject({
      message: 'Join a room before sending messages',
    });
  });

  it('sets, announces and clears a room timer, but never on the public channel', async () => {
    // Only the room's creator, moderators and service admins may (issue 15 item 4).
    const creator = await makeRegisteredKey(server.baseUrl, { username: 'timekeeper' });
    const bearer = (await login(server.baseUrl, creator)).body.sessionToken as string;
    const response = await http('/api/rooms', {
      method: 'POST',
      body: JSON.stringify({ name: 'timed' }),
      headers: { authorization: `Bearer ${bearer}` },
    });
    const room = RoomSchema.parse(await response.json());
    const { socket, joined } = await join(room.secureId, 'Unit12');
    const grant = joined.accessToken as string;
    const patch = (
      id: string,
      selfDestructTimer: number | null,
      headers: Record<string, string> = { authorization: `Bearer ${bearer}` },
    ) =>
      http(`/api/rooms/${id}/self-destruct`, {
        method: 'PATCH',
        body: JSON.stringify({ selfDestructTimer }),
        headers,
      });
    // Strangers cannot set a timer, not even members of an open room, and only the spec's
    // options count.
    expect((await patch(room.id, 1, {})).status).toBe(403);
    expect((await patch(room.id, 1, { 'x-room-access': grant })).status).toBe(403);
    expect((await patch(room.id, 7)).status).toBe(400);
    const set = await patch(room.id, 5);
    expect(set.status).toBe(200);
    const updated = await socket.nextOfType('room_updated');
    expect(updated.room).toMatchObject({ selfDestructTimer: 5 });
    expect((await patch(room.id, null)).status).toBe(200);
    expect(
      RoomSchema.parse(await (await http(`/api/rooms/${room.id}`)).json()).destructionAt,
    ).toBeNull();
    const publicChannel = await patch(defaultRoom, 1);
    expect(publicChannel.status).toBe(400);
    const locked = RoomSchema.parse(
      (
        await createRoom({
          name: 'locked-timer',
          isPrivate: true,
          securityLevel: 'classified',
          passwordHash: sha256('z'),
        })
      ).body,
    );
    expect((await patch(locked.id, 1)).status).toBe(403);
  });

  it('answers bad input with errors and leaves other members and stored messages untouched', async () => {
    const room = RoomSchema.parse((await createRoom({ name: 'robust' })).body);
    const { socket: mallory } = await join(room.secureId, 'Op13');
    const { socket: bob } = await join(room.secureId, 'Op14');
    bob.send(text('kept'));
    await mallory.nextOfType('new_message');
    const before = await server.messages.history(room.id);

    mallory.send({
      type: 'send_message',
      content: 'x'.repeat(40_000),
      encryptionType: 'PLAINTEXT',
    });
    expect(await mallory.nextOfType('error')).toMatchObject({
      message: 'Invalid send_message frame',
    });
    mallory.send({
      type: 'send_message',
      content: 'plain',
      encryptedContent: 'abc',
      encryptionType: 'AES-256-GCM',
    });
    expect((await mallory.nextOfType('error')).message).toBe(
      'An encrypted message needs its ciphertext and no plaintext',
    );
    mallory.send(text('   '));
    expect((await mallory.nextOfType('error')).message).toBe('Message is empty');
    mallory.send({ ...text('img'), hasImage: true, imageUrl: 'https://evil.example/x.png' });
    expect((await mallory.nextOfType('error')).message).toBe('Invalid image reference');
    mallory.send('x'.repeat(70 * 1024));
    expect((await mallory.nextOfType('error')).message).toBe('Frame too large');

    expect(await server.messages.history(room.id)).toEqual(before);
    bob.send(text('still works'));
    expect(((await mallory.nextOfType('new_message')).message as { content: string }).content).toBe(
      'still works',
    );
  });

  it('limits room creation per address', async () => {
    const limited = await startServer({ deps: { roomCreationsPerTenMinutes: 2 } });
    try {
      const create = () =>
        fetch(`${limited.baseUrl}/api/rooms`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'r' }),
        });
      expect([(await create()).status, (await create()).status, (await create()).status]).toEqual([
        200, 200, 429,
      ]);
    } finally {
      await limited.stop();
    }
  });

  it('refuses a made-up callsign for anonymous members', async () => {
    const { joined } = await join(defaultRoom, 'admin');
    expect(joined).toMatchObject({ type: 'error', message: 'Invalid callsign' });
  });

  it('lists connected nodes without addresses, to whoever may enter, and updates the member list on leave', async () => {
    const room = RoomSchema.parse((await createRoom({ name: 'nodes' })).body);
    const { socket: alice } = await join(room.secureId, 'Agent15');
    const { socket: bob } = await join(room.secureId, 'Agent16');
    // An open room: the Network Monitor works before joining, as anyone may join it.
    const before = await http(`/api/connected-ips?roomId=${room.secureId}`);
    expect(before.status).toBe(200);
    const seen = (await before.json()) as { ips: { username: string }[] };
    expect(seen.ips.map((ip) => ip.username).sort()).toEqual(['Agent15', 'Agent16']);
    // The relay-wide list stays with key holders.
    expect((await http('/api/connected-ips')).status).toBe(403);
    // A locked room: not without its grant.
    const locked = RoomSchema.parse(
      (
        await createRoom({
          name: 'locked nodes',
          isPrivate: true,
          securityLevel: 'restricted',
          passwordHash: 'a'.repeat(64),
        })
      ).body,
    );
    expect((await http(`/api/connected-ips?roomId=${locked.secureId}`)).status).toBe(403);
    const { joined } = await join(room.secureId, 'Agent17');
    const response = await http(`/api/connected-ips?roomId=${room.secureId}`, {
      headers: { 'x-room-access': joined.accessToken as string },
    });
    const listing = (await response.json()) as { ips: Record<string, string>[] };
    expect(listing.ips.map((ip) => ip.username).sort()).toEqual(['Agent15', 'Agent16', 'Agent17']);
    expect(JSON.stringify(listing)).not.toContain('127.0.0.1');
    bob.close();
    const left = await alice.next(
      (frame) => frame.type === 'user_left' && frame.username === 'Agent16',
    );
    expect(left.memberCount).toBe(2);
    // A leave is a delta: the others drop the member from the list they keep.
    await alice.waitForMembers(['Agent15', 'Agent17']);
  });
});
