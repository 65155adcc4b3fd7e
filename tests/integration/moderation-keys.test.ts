/**
 * Keys follow membership (issue 23): a kicked member's socket leaves the room through the normal
 * leave, the remaining members' browsers rotate their sender keys, and the removed member cannot
 * read the next message, even holding its ciphertext and every key they had before.
 *
 * The members run the browser's own key agreement (RoomKeyManager, E2eeMessageCipher) in Node,
 * wired to real sockets on the real server as client/features/e2ee/use-room-e2ee.ts wires them.
 * alice, a key holder who created the room, acts as its admin on a plain socket; bob writes,
 * carol and mallory read, and mallory is kicked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../shared/protocol/ws/chat.js';
import { RoomSchema, type Room } from '../../shared/protocol/http/rooms.js';
import { CryptoLog } from '../../client/features/e2ee/crypto-log.js';
import { E2eeMessageCipher } from '../../client/features/e2ee/e2ee-message-cipher.js';
import { MemoryPinStore } from '../../client/features/e2ee/identity-trust.js';
import { RoomKeyManager } from '../../client/features/e2ee/room-key-manager.js';
import { login, makeRegisteredKey } from '../support/keys.js';
import { startServer, type TestServer } from '../support/server.js';
import { TestSocket, type Frame } from '../support/ws-client.js';

interface CryptoMember {
  socket: TestSocket;
  manager: RoomKeyManager;
  cipher: E2eeMessageCipher;
  nodeId: string;
}

describe('keys follow membership', () => {
  let server: TestServer;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    server = await startServer({ deps: { roomCreationsPerTenMinutes: 100 } });
  }, 180_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await server.stop();
  });

  /** A browser's key agreement on a real socket, joined to `room` as `username`. */
  async function cryptoMember(room: Room, username: string): Promise<CryptoMember> {
    const socket = await TestSocket.connect(server.wsUrl());
    sockets.push(socket);
    const manager = new RoomKeyManager({
      now: Date.now,
      log: new CryptoLog(Date.now),
      pins: new MemoryPinStore(),
    });
    const cipher = new E2eeMessageCipher(manager, { joinWaitMs: 10_000, senderKeyWaitMs: 3000 });
    void manager.initialize();
    manager.setTransport({
      announce: (bundle) => {
        socket.send({ type: 'key_announce', bundle });
        return true;
      },
      sendSenderKey: (targetNodeId, envelope) => {
        socket.send({ type: 'sender_key', targetNodeId, envelope });
        return true;
      },
    });
    // The same frames, in the same order, as the browser hook hands its manager.
    socket.socket.on('message', (data: Buffer) => {
      // Test-only wiring: the frames come from our own server, parsed as the browser's socket would.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- frames of several shapes
      const frame = JSON.parse(data.toString()) as Frame & Record<string, any>;
      switch (frame.type) {
        case 'room_joined':
          void manager.joinRoom({
            roomId: room.id,
            secureId: room.secureId,
            nodeId: frame.nodeId,
            accessCode: null,
            isLocked: false,
          });
          break;
        case 'key_bundles':
          void manager.handleBundles(frame.bundles);
          break;
        case 'key_announce':
          void manager.handleAnnounce(frame.fromNodeId, frame.username, frame.bundle);
          break;
        case 'sender_key':
          void manager.handleSenderKey(frame.fromNodeId, frame.envelope);
          break;
        case 'user_joined':
          if (frame.user) void manager.handleMembersJoined([frame.user]);
          break;
        case 'users_joined':
          void manager.handleMembersJoined(frame.users);
          break;
        case 'user_left':
          void manager.handleMemberLeft(frame.nodeId);
          break;
        case 'user_list_update':
          void manager.setRoster(frame.users);
          break;
      }
    });
    socket.send({ type: 'join_room', roomId: room.secureId, username });
    const joined = await socket.nextOfType('room_joined');
    return { socket, manager, cipher, nodeId: joined.nodeId as string };
  }

  async function send(member: CryptoMember, text: string): Promise<void> {
    const outgoing = await member.cipher.encrypt({ v: 1, text });
    expect(outgoing.encryptionType).not.toBe('PLAINTEXT');
    member.socket.send({ type: 'send_message', ...outgoing });
  }

  const received = async (member: CryptoMember): Promise<Message> =>
    (
      await member.socket.next(
        (frame) =>
          frame.type === 'new_message' && !(frame.message as { isSystem: boolean }).isSystem,
        15_000,
      )
    ).message as Message;

  it('leaves a kicked member unable to read the next message, even with its ciphertext', async () => {
    const owner = await makeRegisteredKey(server.baseUrl, { username: 'alice' });
    const token = (await login(server.baseUrl, owner)).body.sessionToken as string;
    const room = RoomSchema.parse(
      await (
        await fetch(`${server.baseUrl}/api/rooms`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ name: 'keys-follow-membership' }),
        })
      ).json(),
    );
    const alice = await TestSocket.connect(server.wsUrl());
    sockets.push(alice);
    alice.send({
      type: 'join_room',
      roomId: room.secureId,
      username: 'alice',
      sessionToken: token,
    });
    await alice.nextOfType('room_joined');

    const bob = await cryptoMember(room, 'Agent301');
    const carol = await cryptoMember(room, 'Agent302');
    const mallory = await cryptoMember(room, 'Agent303');
    // Ready means: this member's keys went out to every member it knows, and it knows all of
    // them (a member not yet seen would read only from the keys it gets later on).
    const group = [bob, carol, mallory];
    for (const member of group)
      expect(
        await member.manager.waitFor(
          () =>
            member.manager.isReadyToSend &&
            group.every((other) => other === member || member.manager.members.has(other.nodeId)),
          15_000,
        ),
      ).toBe(true);

    // Before the kick, mallory reads bob like everyone else.
    await send(bob, 'before the kick');
    for (const reader of [carol, mallory]) {
      expect(await reader.cipher.decrypt(await received(reader))).toMatchObject({
        state: 'decrypted',
        text: 'before the kick',
      });
    }

    alice.send({ type: 'kick_member', nodeId: mallory.nodeId });
    await mallory.socket.nextOfType('removed_from_room');
    // The remaining members hear her leave and rotate their sender keys.
    for (const member of [bob, carol]) {
      await member.socket.next(
        (frame) => frame.type === 'user_left' && frame.nodeId === mallory.nodeId,
      );
      await member.manager.waitFor(() => !member.manager.isPresent(mallory.nodeId), 5000);
      await member.manager.settled();
    }

    // Several messages, so more than one encryption type is tried.
    for (let index = 0; index < 3; index++) {
      const text = `after the kick ${index}`;
      await send(bob, text);
      const atCarol = await received(carol);
      expect(await carol.cipher.decrypt(atCarol)).toMatchObject({ state: 'decrypted', text });
      // mallory holds the ciphertext (a hostile relay could hand it over) and all her old keys.
      expect(atCarol.encryptedContent).not.toContain(text);
      const attempt = await mallory.cipher.decrypt({ ...atCarol });
      expect(attempt.state).toBe('error');
      expect(attempt.text).not.toContain(text);
    }
    // And the server never relayed it to her socket.
    expect(mallory.socket.frames.some((frame) => frame.type === 'new_message')).toBe(false);
  }, 120_000);
});
