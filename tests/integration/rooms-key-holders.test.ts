/**
 * Key holders and locked rooms (issue 31) over real HTTP and WebSocket. Spec 000 §4: a key
 * holder enters every room without its access code, and that stays the default. A room's creator
 * may require the code from everyone, key holders included: then a key holder needs the code (or
 * the grant it earns) for join_room, the room's images and its node list, and does not see the
 * room listed. Every member's list entry says how they got in (`entry`).
 *
 * Scenario: anonymous visitors (Agent…) and bob, a key holder, enter a default-mode room, an open
 * room and a code-for-everyone room with and without the code.
 */
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RoomSchema, type Room } from '../../shared/protocol/http/rooms.js';
import { VerifyResponseSchema } from '../../shared/protocol/http/auth.js';
import { login, makeRegisteredKey } from '../support/keys.js';
import { startServer, type TestServer } from '../support/server.js';
import { TestSocket } from '../support/ws-client.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const CODE = 'correct horse';

describe('key holders and locked rooms', () => {
  let server: TestServer;
  let bobToken: string;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    server = await startServer({
      deps: {
        loginRatePerMinute: 1000,
        roomCreationsPerTenMinutes: 1000,
        anonymousRoomCreationsPerTenMinutes: 1000,
      },
    });
    const bob = await makeRegisteredKey(server.baseUrl, { username: 'bob' });
    bobToken = VerifyResponseSchema.parse((await login(server.baseUrl, bob)).body).sessionToken;
  });
  afterAll(async () => {
    await server.stop();
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });

  const http = (path: string, init: RequestInit = {}) =>
    fetch(`${server.baseUrl}${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', ...init.headers },
    });
  /** Bob's session header (read when called: the token arrives in beforeAll). */
  const asBob = () => ({ authorization: `Bearer ${bobToken}` });

  async function createRoom(body: Record<string, unknown>): Promise<Room> {
    const response = await http('/api/rooms', { method: 'POST', body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    return RoomSchema.parse(await response.json());
  }
  const lockedRoom = (name: string, codeRequiredForKeyHolders?: boolean) =>
    createRoom({
      name,
      isPrivate: true,
      securityLevel: 'classified',
      passwordHash: sha256(CODE),
      ...(codeRequiredForKeyHolders === undefined ? {} : { codeRequiredForKeyHolders }),
    });

  /** `verify-password` with a code, as a key holder or not: the grant, or null. */
  async function grantFor(room: Room, code: string, headers: Record<string, string> = {}) {
    const response = await http(`/api/rooms/${room.secureId}/verify-password`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ password: sha256(code) }),
    });
    const body = (await response.json()) as { valid: boolean; accessToken: string | null };
    return body.valid ? body.accessToken : null;
  }

  async function join(room: Room, username: string, extra: Record<string, unknown> = {}) {
    const socket = await TestSocket.connect(server.wsUrl());
    sockets.push(socket);
    socket.send({ type: 'join_room', roomId: room.secureId, username, ...extra });
    const joined = await socket.next(
      (frame) => frame.type === 'room_joined' || frame.type === 'error',
    );
    return { socket, joined };
  }

  /** The entry flag of each member in the whole list a newcomer receives, by username. */
  async function entriesSeenBy(socket: TestSocket): Promise<Record<string, unknown>> {
    const list = await socket.nextOfType('user_list_update');
    const users = list.users as { username: string; entry?: unknown }[];
    return Object.fromEntries(users.map((user) => [user.username, user.entry]));
  }

  it('lets a key holder into a default room without its code (spec 000 §4), and no visitor', async () => {
    const room = await lockedRoom('default rule');
    expect(room.codeRequiredForKeyHolders).toBe(false);
    const { joined: refused } = await join(room, 'Agent101');
    expect(refused).toMatchObject({ type: 'error', message: 'Access code required' });
    const { socket, joined } = await join(room, 'ignored', { sessionToken: bobToken });
    expect(joined.type).toBe('room_joined');
    expect(await entriesSeenBy(socket)).toEqual({ bob: 'key' });
  });

  it('refuses a key holder without the code in a code-for-everyone room, with the spec text', async () => {
    const room = await lockedRoom('code for everyone', true);
    expect(room.codeRequiredForKeyHolders).toBe(true);
    const { joined: bare } = await join(room, 'ignored', { sessionToken: bobToken });
    expect(bare).toMatchObject({ type: 'error', message: 'Access code required' });
    // A wrong code earns no grant, for a key holder as for anyone.
    expect(await grantFor(room, 'wrong code', asBob())).toBeNull();
    const { joined: forged } = await join(room, 'ignored', {
      sessionToken: bobToken,
      accessToken: 'A'.repeat(32),
    });
    expect(forged).toMatchObject({ type: 'error', message: 'Access code required' });
    // Bob was never in: nobody is listed.
    const nodes = await http(`/api/connected-ips?roomId=${room.secureId}`, { headers: asBob() });
    expect(nodes.status).toBe(403);
  });

  it('lets a key holder and a visitor with the code into a code-for-everyone room, marked code', async () => {
    const room = await lockedRoom('code for everyone 2', true);
    const visitorGrant = await grantFor(room, CODE);
    const { socket: alice, joined: aliceJoined } = await join(room, 'Agent102', {
      accessToken: visitorGrant,
    });
    expect(aliceJoined.type).toBe('room_joined');
    expect(await entriesSeenBy(alice)).toEqual({ Agent102: 'code' });
    const bobGrant = await grantFor(room, CODE, asBob());
    const { socket: bob, joined } = await join(room, 'ignored', {
      sessionToken: bobToken,
      accessToken: bobGrant,
    });
    expect(joined.type).toBe('room_joined');
    expect(await entriesSeenBy(bob)).toEqual({ Agent102: 'code', bob: 'code' });
    const arrival = await alice.nextJoin('bob');
    expect((arrival.user as { entry?: unknown }).entry).toBe('code');
  });

  it('tells the room who entered by key, by code and into an open room (user_joined, user_list_update)', async () => {
    const room = await lockedRoom('mixed');
    const { socket: alice } = await join(room, 'Agent103', {
      accessToken: await grantFor(room, CODE),
    });
    await alice.nextOfType('user_list_update');
    const { socket: bob } = await join(room, 'ignored', { sessionToken: bobToken });
    expect(await entriesSeenBy(bob)).toEqual({ Agent103: 'code', bob: 'key' });
    const arrival = await alice.nextJoin('bob');
    expect(arrival.user).toMatchObject({ username: 'bob', isAuthenticated: true, entry: 'key' });
    alice.frames.length = 0;
    alice.send({ type: 'request_user_list' });
    expect(await entriesSeenBy(alice)).toEqual({ Agent103: 'code', bob: 'key' });

    const open = await createRoom({ name: 'open door', codeRequiredForKeyHolders: true });
    expect(open.codeRequiredForKeyHolders).toBe(false);
    const { socket: visitor } = await join(open, 'Agent104');
    expect(await entriesSeenBy(visitor)).toEqual({ Agent104: 'open' });
    const { socket: keyInOpen } = await join(open, 'ignored', { sessionToken: bobToken });
    expect(await entriesSeenBy(keyInOpen)).toEqual({ Agent104: 'open', bob: 'open' });
  });

  it('lists a code-for-everyone room and its members to key holders no more than to visitors', async () => {
    const keyed = await lockedRoom('listed to keys');
    const closed = await lockedRoom('listed to nobody', true);
    const { socket: alice } = await join(closed, 'Agent105', {
      accessToken: await grantFor(closed, CODE),
    });
    await alice.nextOfType('user_list_update');
    const { socket: carol } = await join(keyed, 'Agent108', {
      accessToken: await grantFor(keyed, CODE),
    });
    await carol.nextOfType('user_list_update');
    const ids = async (headers: Record<string, string>) =>
      ((await (await http('/api/rooms', { headers })).json()) as { id: string }[]).map(
        (room) => room.id,
      );
    const seenByBob = await ids(asBob());
    expect(seenByBob).toContain(keyed.id);
    expect(seenByBob).not.toContain(closed.id);
    expect(await ids({})).not.toContain(closed.id);
    // The relay-wide node list (key holders only) leaves the room's members out.
    const everywhere = await http('/api/connected-ips', { headers: asBob() });
    expect(everywhere.status).toBe(200);
    const nodes = (await everywhere.json()) as { ips: { roomId: string; username: string }[] };
    expect(nodes.ips.some((node) => node.roomId === closed.id)).toBe(false);
    expect(nodes.ips.some((node) => node.username === 'Agent105')).toBe(false);
    expect(nodes.ips.some((node) => node.username === 'Agent108')).toBe(true);
  });

  it("keeps a code-for-everyone room's images from a key holder without its grant", async () => {
    const upload = async (room: Room, grant: string) => {
      const form = new FormData();
      form.append('roomId', room.id);
      form.append('encryptedImage', new Blob([new Uint8Array(256).fill(7)]), 'image.bin');
      const response = await fetch(`${server.baseUrl}/api/secure-upload`, {
        method: 'POST',
        headers: { 'x-room-access': grant },
        body: form,
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { imageUrl: string }).imageUrl;
    };
    const closed = await lockedRoom('closed images', true);
    const { joined: inClosed } = await join(closed, 'Agent106', {
      accessToken: await grantFor(closed, CODE),
    });
    const closedImage = await upload(closed, String(inClosed.accessToken));
    expect((await fetch(`${server.baseUrl}${closedImage}`, { headers: asBob() })).status).toBe(403);
    const bobGrant = await grantFor(closed, CODE, asBob());
    const withGrant = await fetch(`${server.baseUrl}${closedImage}`, {
      headers: { ...asBob(), 'x-room-access': bobGrant! },
    });
    expect(withGrant.status).toBe(200);

    const keyed = await lockedRoom('keyed images');
    const { joined: inKeyed } = await join(keyed, 'Agent107', {
      accessToken: await grantFor(keyed, CODE),
    });
    const keyedImage = await upload(keyed, String(inKeyed.accessToken));
    // Spec 000 §4's rule: a key holder's session alone is enough here.
    expect((await fetch(`${server.baseUrl}${keyedImage}`, { headers: asBob() })).status).toBe(200);
  });
});
