/**
 * The hub handles a frame within `receive`'s call when nothing ahead of it is queued and its
 * handler does not wait (a message in one process), and otherwise keeps a connection's frames in
 * arrival order behind the one that waits.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { WS_ERROR } from '../../../shared/protocol/errors.js';
import { MemoryMessageStore } from '../../../server/features/messages/index.js';
import type { Connection } from '../../../server/realtime/connection.js';
import { LocalFanout } from '../../../server/realtime/fanout.js';
import { Hub } from '../../../server/realtime/hub.js';
import { RoomChannels } from '../../../server/realtime/room-channels.js';
import { fakeSocket } from '../../support/fake-socket.js';
import { testMessageService } from '../../support/message-service.js';

function setUp() {
  const hub = new Hub({ logger: pino({ level: 'silent' }) });
  const store = new MemoryMessageStore();
  const channels = new RoomChannels(new LocalFanout());
  const messages = testMessageService({ store, channels });
  hub.on('send_message', (connection, frame) => messages.receive(connection, frame));
  const join = async (username: string) => {
    const { socket, sent } = fakeSocket();
    const connection = hub.attach({ ...socket, on: () => undefined }, '127.0.0.1', '/chat-ws');
    connection.roomId = 'r';
    connection.username = username;
    await channels.add('r', connection);
    return { connection, sent };
  };
  return { hub, store, join };
}

const frame = (value: object) => Buffer.from(JSON.stringify(value));
const message = (content: string) =>
  frame({ type: 'send_message', content, encryptionType: 'PLAINTEXT' });
const types = (sent: string[]) => sent.map((text) => (JSON.parse(text) as { type: string }).type);

describe('Hub.receive', () => {
  it('stores and delivers a message within the call in one process, leaving nothing queued', async () => {
    const { hub, store, join } = setUp();
    const alice = await join('Agent1');
    const bob = await join('Agent2');
    const handled = hub.receive(alice.connection, message('hello'), false);
    // Before anything is awaited:
    expect(types(bob.sent)).toEqual(['new_message']);
    expect(types(alice.sent)).toEqual(['new_message']);
    expect(alice.connection.frameQueue).toBeNull();
    expect(await store.size()).toBe(1);
    await handled;
  });

  it("answers a handler's refusal within the call, with the same error frame", async () => {
    const { hub, join } = setUp();
    const alice = await join('Agent1');
    alice.connection.roomId = null;
    void hub.receive(alice.connection, message('hello'), false);
    expect(alice.sent.map((text) => JSON.parse(text) as unknown)).toEqual([
      { type: 'error', message: 'Join a room before sending messages', frameType: 'send_message' },
    ]);
  });

  it('answers a frame whose handler finds PostgreSQL or Redis away with the temporary-outage text, unlogged', async () => {
    const lines: string[] = [];
    const hub = new Hub({
      logger: pino({ level: 'info' }, { write: (line: string) => lines.push(line) }),
    });
    hub.on('typing_start', async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), {
        code: 'ECONNREFUSED',
      });
    });
    const { socket, sent } = fakeSocket();
    const connection = hub.attach({ ...socket, on: () => undefined }, '127.0.0.1', '/chat-ws');
    await hub.receive(connection, frame({ type: 'typing_start' }), false);
    expect(sent.map((text) => JSON.parse(text) as unknown)).toEqual([
      { type: 'error', message: WS_ERROR.unavailable, frameType: 'typing_start' },
    ]);
    expect(lines.join('')).not.toContain('realtime handler failed');
  });

  it('keeps frames behind one whose handler waits, in arrival order', async () => {
    const { hub, join } = setUp();
    const alice = await join('Agent1');
    const bob = await join('Agent2');
    let release: () => void = () => undefined;
    const order: string[] = [];
    hub.on('typing_start', async (connection: Connection) => {
      order.push(`typing ${connection.username}`);
      await new Promise<void>((resolve) => (release = resolve));
    });
    void hub.receive(alice.connection, frame({ type: 'typing_start' }), false);
    const second = hub.receive(alice.connection, message('after typing'), false);
    await Promise.resolve();
    expect(order).toEqual(['typing Agent1']);
    expect(bob.sent).toEqual([]);
    expect(alice.connection.frameQueue).not.toBeNull();
    release();
    await second;
    expect(types(bob.sent)).toEqual(['new_message']);
    expect(alice.connection.frameQueue).toBeNull();
  });
});
