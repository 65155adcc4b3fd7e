/**
 * The member list travels as deltas (spec 000 §7, docs/protocol.md): a newcomer gets the whole
 * list once (`user_list_update`, to it alone); everyone else hears `user_joined` carrying the
 * newcomer's entry and `user_left` naming who went. No join or leave sends the whole list to the
 * room. With two processes on Redis, every member's list kept from those frames matches the
 * server's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createThrowawayPostgres } from '../support/database.js';
import { createRoomOn, startServerProcess, type ServerProcess } from '../support/processes.js';
import { deletePrefix, REDIS_TEST_URL, testPrefix } from '../support/redis.js';
import { startServer, type TestServer } from '../support/server.js';
import { TestSocket, type Frame } from '../support/ws-client.js';
import { connectRedis } from '../../server/redis/connect.js';
import { RoomSchema } from '../../shared/protocol/http/rooms.js';
import { login, makeRegisteredKey } from '../support/keys.js';

const lists = (socket: TestSocket) => socket.frames.filter((f) => f.type === 'user_list_update');
const names = (frame: Frame) =>
  (frame.users as { username: string }[]).map((user) => user.username).sort();

/** Joins and waits for room_joined; the frames after it stay queued. */
async function join(url: string, roomId: string, username: string): Promise<TestSocket> {
  const socket = await TestSocket.connect(url);
  socket.send({ type: 'join_room', roomId, username });
  await socket.nextOfType('room_joined');
  return socket;
}

/** Everything the server sent this socket before answering has arrived once this resolves. */
async function settle(socket: TestSocket): Promise<Frame> {
  const earlier = new Set(lists(socket));
  socket.send({ type: 'request_user_list' });
  return socket.next((frame) => frame.type === 'user_list_update' && !earlier.has(frame));
}

/** Every frame `socket` receives from now on, in order of arrival (nothing is consumed). */
function record(socket: TestSocket): Frame[] {
  const seen: Frame[] = [];
  socket.socket.on('message', (data) => seen.push(JSON.parse(data.toString()) as Frame));
  return seen;
}

describe('member list deltas on one process', () => {
  let server: TestServer;
  let roomId: string;
  const sockets: TestSocket[] = [];
  beforeAll(async () => {
    server = await startServer();
    roomId = (await server.rooms.defaultRoom()).secureId;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await server.stop();
  });

  it('gives a newcomer the whole list and the room only the change', async () => {
    const alice = await join(server.wsUrl(), roomId, 'Agent301');
    sockets.push(alice);
    await alice.waitForMembers(['Agent301']);
    expect(lists(alice).map(names)).toEqual([['Agent301']]);
    // Her own join told (a request for the list publishes what the room holds), so that bob's is
    // alone in its window: one join is its own user_joined.
    await settle(alice);

    const bob = await join(server.wsUrl(), roomId, 'Agent302');
    sockets.push(bob);
    // The newcomer's list, to it alone, right after room_joined.
    expect(lists(bob).map(names)).toEqual([['Agent301', 'Agent302']]);
    const joined = await alice.next((f) => f.type === 'user_joined' && f.username === 'Agent302');
    expect(joined.memberCount).toBe(2);
    // The frame's fields in their documented order (it is written out by hand around the entry).
    expect(Object.keys(joined)).toEqual([
      'type',
      'roomId',
      'username',
      'nodeId',
      'memberCount',
      'user',
    ]);
    expect(joined.user).toMatchObject({
      nodeId: joined.nodeId,
      username: 'Agent302',
      status: 'online',
      role: 'user',
      isAuthenticated: false,
      entry: 'open',
    });
    // Only what other members may see: nothing moderation keeps about the member.
    expect(Object.keys(joined.user as object).sort()).toEqual(
      [
        'connectionTime',
        'entry',
        'isAuthenticated',
        'isVoiceActive',
        'lastSeen',
        'nodeId',
        'role',
        'secureId',
        'status',
        'username',
      ].sort(),
    );

    const carol = await join(server.wsUrl(), roomId, 'Agent303');
    sockets.push(carol);
    await alice.waitForMembers(['Agent301', 'Agent302', 'Agent303']);
    await bob.waitForMembers(['Agent301', 'Agent302', 'Agent303']);
    await carol.waitForMembers(['Agent301', 'Agent302', 'Agent303']);

    bob.close();
    const left = await alice.next((f) => f.type === 'user_left' && f.username === 'Agent302');
    expect(left.memberCount).toBe(2);
    await alice.waitForMembers(['Agent301', 'Agent303']);
    await carol.waitForMembers(['Agent301', 'Agent303']);

    // Two joins and a leave later, alice still had only her own list: no broadcasts of it.
    const serverList = await settle(alice);
    expect(names(serverList)).toEqual(['Agent301', 'Agent303']);
    expect(lists(alice)).toHaveLength(1);
    expect(lists(carol)).toHaveLength(1);
  });

  // Joins reach the room within a short window, several at once (RoomChannels.announceJoin).
  /** Joins; the socket and the nodeId the server gave it. */
  async function joinAs(username: string): Promise<{ socket: TestSocket; nodeId: unknown }> {
    const socket = await TestSocket.connect(server.wsUrl());
    sockets.push(socket);
    socket.send({ type: 'join_room', roomId, username });
    return { socket, nodeId: (await socket.nextOfType('room_joined')).nodeId };
  }

  /** The types of the frames in `seen` about `nodeId` (its presence or its messages). */
  const about = (seen: Frame[], nodeId: unknown) =>
    seen
      .filter((f) => f.nodeId === nodeId || (f.message as Frame | undefined)?.senderId === nodeId)
      .map((f) => f.type);

  it('tells the room of each of many concurrent joins once, never a newcomer of its own', async () => {
    const { socket: first } = await joinAs('Agent320');
    const seen = record(first);
    const usernames = Array.from({ length: 12 }, (_, i) => `Agent${321 + i}`);
    const members = await Promise.all(usernames.map((name) => joinAs(name)));
    // Members of earlier tests are in the room too.
    const everyone = ['Agent320', ...usernames];
    const hasEveryone = (roster: ReadonlyMap<string, { username: string }>) => {
      const present = new Set([...roster.values()].map((user) => user.username));
      return everyone.every((name) => present.has(name));
    };
    for (const member of [first, ...members.map((m) => m.socket)]) {
      await member.waitForRoster(hasEveryone);
    }
    // Each join once: alone in its window as user_joined, or with the window's others in one
    // users_joined (docs/protocol.md "Joining").
    const told = seen.filter((f) => f.type === 'user_joined' || f.type === 'users_joined');
    const heard = told.flatMap((f) =>
      f.type === 'users_joined'
        ? (f.users as { username: string }[]).map((user) => user.username)
        : [f.username as string],
    );
    // Its own entry too when its join shared a window with theirs (a client skips it).
    const others = heard.filter((name) => name !== 'Agent320');
    expect(others.sort()).toEqual(usernames);
    expect(heard.length - others.length).toBeLessThanOrEqual(1);
    for (const frame of told.filter((f) => f.type === 'users_joined')) {
      expect((frame.users as unknown[]).length).toBeGreaterThan(1);
    }
    // A newcomer never gets a user_joined of its own; a users_joined of its window has its entry
    // among the others' (a client skips it), and the others' entries reach it once each.
    for (const { socket, nodeId } of members) {
      expect(socket.frames.filter((f) => f.type === 'user_joined' && f.nodeId === nodeId)).toEqual(
        [],
      );
    }
  });

  it("keeps a newcomer's join before its first message and before its leave", async () => {
    const { socket: watcher } = await joinAs('Agent340');
    await settle(watcher);
    const seen = record(watcher);

    const speaker = await joinAs('Agent341');
    speaker.socket.send({ type: 'send_message', content: 'hello', encryptionType: 'PLAINTEXT' });
    await expect.poll(() => about(seen, speaker.nodeId).length).toBe(2);
    expect(about(seen, speaker.nodeId)).toEqual(['user_joined', 'new_message']);

    const brief = await joinAs('Agent342');
    brief.socket.close();
    await expect.poll(() => about(seen, brief.nodeId).length).toBe(2);
    expect(about(seen, brief.nodeId)).toEqual(['user_joined', 'user_left']);
    await watcher.waitForRoster(
      (roster) => ![...roster.values()].some((u) => u.username === 'Agent342'),
    );
  });

  it('answers request_user_list after the joins the room has not heard yet', async () => {
    const { socket: asker } = await joinAs('Agent350');
    await settle(asker);
    const seen = record(asker);
    const late = await joinAs('Agent351');
    await settle(asker);
    const order = seen.map((f) => f.type);
    expect(about(seen, late.nodeId)).toEqual(['user_joined']);
    expect(order.indexOf('user_joined')).toBeLessThan(order.indexOf('user_list_update'));
  });
});

describe('removal within a join window (users_joined, then the removal)', () => {
  // Windows a minute long: they end only at the room's next publish, so the order is certain.
  let server: TestServer;
  const sockets: TestSocket[] = [];
  beforeAll(async () => {
    server = await startServer({ deps: { joinWindowMs: 60_000 } });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await server.stop();
  });

  async function enter(roomId: string, frame: Record<string, unknown>) {
    const socket = await TestSocket.connect(server.wsUrl());
    sockets.push(socket);
    socket.send({ type: 'join_room', roomId, ...frame });
    const joined = await socket.nextOfType('room_joined');
    await socket.nextOfType('user_list_update');
    return { socket, nodeId: joined.nodeId as string };
  }

  it("tells the room of a kicked and a departed newcomer's join before their removal, and no list keeps them", async () => {
    const ownerKey = await makeRegisteredKey(server.baseUrl, { username: 'warden' });
    const token = (await login(server.baseUrl, ownerKey)).body.sessionToken as string;
    const created = await fetch(`${server.baseUrl}/api/rooms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'window-removals' }),
    });
    const room = RoomSchema.parse(await created.json());
    const owner = await enter(room.secureId, { username: 'warden', sessionToken: token });
    // Her own join told (a list request publishes what is held), so the next window is theirs.
    owner.socket.send({ type: 'request_user_list' });
    await owner.socket.nextOfType('user_list_update');
    const seen = record(owner.socket);

    const kicked = await enter(room.secureId, { username: 'Agent401' });
    const stays = await enter(room.secureId, { username: 'Agent402' });
    const departs = await enter(room.secureId, { username: 'Agent403' });
    // Nothing told yet: the three joins wait in one window.
    expect(seen.filter((f) => f.type === 'users_joined' || f.type === 'user_joined')).toEqual([]);

    owner.socket.send({ type: 'kick_member', nodeId: kicked.nodeId });
    expect(await kicked.socket.nextOfType('removed_from_room')).toMatchObject({ action: 'kick' });
    departs.socket.close();
    await owner.socket.next((f) => f.type === 'user_left' && f.nodeId === departs.nodeId);

    // The window's joins first, in one frame, then each removal.
    const order = seen
      .filter((f) => ['users_joined', 'user_joined', 'user_left'].includes(f.type))
      .map((f) => (f.type === 'user_left' ? `left ${f.username as string}` : f.type));
    expect(order).toEqual(['users_joined', 'left Agent401', 'left Agent403']);
    const batch = seen.find((f) => f.type === 'users_joined');
    expect((batch?.users as { username: string }[]).map((u) => u.username)).toEqual([
      'Agent401',
      'Agent402',
      'Agent403',
    ]);
    // Every list kept from the frames ends without them, as the server's own does.
    for (const socket of [owner.socket, stays.socket]) {
      await socket.waitForMembers(['Agent402', 'warden']);
      socket.send({ type: 'request_user_list' });
      const list = await socket.next(
        (f) => f.type === 'user_list_update' && (f.users as unknown[]).length === 2,
      );
      expect(names(list)).toEqual(['Agent402', 'warden']);
    }
    // The kicked socket heard the window's frame before its removal, and nothing of the room since.
    expect(kicked.socket.frames.some((f) => f.type === 'user_left')).toBe(false);
  });
});

describe('the member list a socket asks for', () => {
  it('shows each entry as it is now (typing, then online again)', async () => {
    const server = await startServer();
    try {
      const roomId = (await server.rooms.defaultRoom()).secureId;
      const alice = await join(server.wsUrl(), roomId, 'Agent360');
      const bob = await join(server.wsUrl(), roomId, 'Agent361');
      const statusOf = async (name: string) =>
        ((await settle(alice)).users as { username: string; status: string }[]).find(
          (user) => user.username === name,
        )?.status;
      expect(await statusOf('Agent361')).toBe('online');
      bob.send({ type: 'typing_start' });
      await alice.next((f) => f.type === 'typing_start');
      expect(await statusOf('Agent361')).toBe('typing');
      bob.send({ type: 'typing_stop' });
      await alice.next((f) => f.type === 'typing_stop');
      expect(await statusOf('Agent361')).toBe('online');
      alice.close();
      bob.close();
    } finally {
      await server.stop();
    }
  });
});

const wsUrl = (server: ServerProcess) => `${server.url.replace('http', 'ws')}/chat-ws`;

describe('member list deltas across two processes on Redis', () => {
  let servers: ServerProcess[] = [];
  let drop: () => Promise<void>;
  const prefix = testPrefix();
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    const database = await createThrowawayPostgres();
    drop = database.drop;
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: REDIS_TEST_URL,
      REDIS_PREFIX: prefix,
      ADMIN_PASSWORD: 'presence-deltas-admin-1',
      LOG_LEVEL: 'info',
    };
    // One after the other: the first runs the migrations.
    servers = [await startServerProcess(env)];
    servers.push(await startServerProcess(env));
  }, 90_000);

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await Promise.all(servers.map((server) => server.stop('SIGKILL')));
    const redis = await connectRedis(REDIS_TEST_URL, prefix);
    await deletePrefix(redis, prefix);
    await redis.close();
    await drop();
  });

  it('keeps every member list equal to the server list through concurrent joins and leaves', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const room = await createRoomOn(a, 'deltas');
    const usernames = Array.from({ length: 8 }, (_, i) => `Agent${310 + i}`);
    // All at once, alternating between the processes.
    const members = await Promise.all(
      usernames.map((name, i) => join(wsUrl(i % 2 === 0 ? a : b), room, name)),
    );
    sockets.push(...members);
    for (const member of members) await member.waitForMembers(usernames, 10_000);

    // Two leave, one on each process, at once.
    members[1]!.close();
    members[4]!.close();
    const staying = members.filter((_, i) => i !== 1 && i !== 4);
    const remaining = usernames.filter((_, i) => i !== 1 && i !== 4);
    for (const member of staying) await member.waitForMembers(remaining, 10_000);

    for (const member of staying) {
      expect(names(await settle(member))).toEqual([...remaining].sort());
      expect(member.rosterNames()).toEqual([...remaining].sort());
      // The whole list came once per member (its join) plus the answer just asked for.
      expect(lists(member)).toHaveLength(1);
    }
  }, 60_000);

  it("keeps a newcomer's join before its first message when the message goes through Redis", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const room = await createRoomOn(a, 'join-then-speak');
    const watchers = [
      await join(wsUrl(a), room, 'Agent370'),
      await join(wsUrl(b), room, 'Agent371'),
    ];
    sockets.push(...watchers);
    for (const watcher of watchers) await settle(watcher);
    const seen = watchers.map((watcher) => {
      const frames: Frame[] = [];
      watcher.socket.on('message', (data) => frames.push(JSON.parse(data.toString()) as Frame));
      return frames;
    });

    // The newcomer speaks at once: its join is still held in the room's window on its process.
    const speaker = await TestSocket.connect(wsUrl(a));
    sockets.push(speaker);
    speaker.send({ type: 'join_room', roomId: room, username: 'Agent372' });
    const { nodeId } = await speaker.nextOfType('room_joined');
    speaker.send({ type: 'send_message', content: 'hello', encryptionType: 'PLAINTEXT' });

    for (const frames of seen) {
      const about = () =>
        frames
          .filter(
            (f) => f.nodeId === nodeId || (f.message as Frame | undefined)?.senderId === nodeId,
          )
          .map((f) => f.type);
      await expect.poll(() => about().length, { timeout: 10_000 }).toBe(2);
      expect(about()).toEqual(['user_joined', 'new_message']);
    }
  }, 60_000);
});
