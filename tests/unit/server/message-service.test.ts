import { describe, expect, it } from 'vitest';
import { MemoryMessageStore } from '../../../server/features/messages/index.js';
import { Connection } from '../../../server/realtime/connection.js';
import { LocalFanout } from '../../../server/realtime/fanout.js';
import { RoomChannels } from '../../../server/realtime/room-channels.js';
import { SendMessageFrameSchema } from '../../../shared/protocol/ws/chat.js';
import { fakeSocket } from '../../support/fake-socket.js';
import { testMessageService } from '../../support/message-service.js';

function member(roomId: string, username: string) {
  const { socket, sent } = fakeSocket();
  const connection = new Connection(socket, '127.0.0.1', '/chat-ws');
  connection.roomId = roomId;
  connection.username = username;
  return { connection, sent };
}

describe('MessageService.send', () => {
  it('relays new_message as JSON.stringify of the frame, and the store gives the same message back', async () => {
    let clock = Date.UTC(2026, 10, 25, 20, 59, 58, 123);
    const store = new MemoryMessageStore();
    const channels = new RoomChannels(new LocalFanout());
    const service = testMessageService({
      store,
      channels,
      ttlSeconds: 4,
      now: () => clock,
      bindImage: async () => false,
    });
    const alice = member('room1', 'Agent "1" \u2028');
    const bob = member('room1', 'Agent2');
    await channels.add('room1', alice.connection);
    await channels.add('room1', bob.connection);

    const frames = [
      { type: 'send_message', content: 'hi \u0000 "there"\n', encryptionType: 'PLAINTEXT' },
      {
        type: 'send_message',
        encryptedContent: 'Y2lwaGVy',
        encryptionType: 'AES-256-GCM',
        signature: 's',
      },
    ];
    const sent = [];
    for (const frame of frames) {
      clock += 1_500.7;
      sent.push(await service.send(alice.connection, SendMessageFrameSchema.parse(frame)));
    }
    const expected = sent.map((message) => JSON.stringify({ type: 'new_message', message }));
    expect(bob.sent).toEqual(expected);
    expect(alice.sent).toEqual(expected);
    expect(sent[1]!.createdAt).toBe(new Date(clock).toISOString());
    expect(sent[1]!.expiresAt).toBe(new Date(clock + 4_000).toISOString());
    expect(await store.list('room1', clock)).toEqual(sent);
    expect(await store.find('room1', sent[0]!.id, clock)).toEqual(sent[0]);
    // Each message expires at its expiresAt, to the millisecond.
    expect(Object.fromEntries(await store.expire(Date.parse(sent[0]!.expiresAt)))).toEqual({
      room1: [sent[0]!.id],
    });
  });
});
