/**
 * A store that relays (Redis) gets a member's message without `send` waiting for its answer, so
 * the sender's next frame is handled meanwhile; a failure still reaches the sender.
 */
import { describe, expect, it } from 'vitest';
import {
  MemoryMessageStore,
  type EphemeralMessageStore,
} from '../../../server/features/messages/index.js';
import { Connection } from '../../../server/realtime/connection.js';
import { LocalFanout } from '../../../server/realtime/fanout.js';
import { RoomChannels } from '../../../server/realtime/room-channels.js';
import type { Message } from '../../../shared/protocol/ws/chat.js';
import { testMessageService } from '../../support/message-service.js';

function member() {
  const sent: string[] = [];
  const connection = new Connection(
    { readyState: 1, bufferedAmount: 0, send: (data) => sent.push(data), close: () => undefined },
    '127.0.0.1',
    '/chat-ws',
  );
  connection.roomId = 'r';
  connection.username = 'Agent1';
  return { connection, sent };
}

/** A relaying store whose relays finish only when the test says so. */
class HeldRelayStore extends MemoryMessageStore implements EphemeralMessageStore {
  readonly relayed: Message[] = [];
  readonly pending: { resolve: () => void; reject: (error: Error) => void }[] = [];

  relay(message: Message): Promise<string[]> {
    this.relayed.push(message);
    return new Promise((resolve, reject) =>
      this.pending.push({ resolve: () => resolve([]), reject }),
    );
  }
}

const frame = (content: string) =>
  ({ type: 'send_message', content, encryptionType: 'PLAINTEXT' }) as const;

function service(store: EphemeralMessageStore, failures: unknown[] = []) {
  return testMessageService({
    store,
    channels: new RoomChannels(new LocalFanout()),
    onRelayFailure: (_connection, error) => failures.push(error),
  });
}

describe('messages through a relaying store', () => {
  it('hands each message over in order without waiting for the store to answer', async () => {
    const store = new HeldRelayStore();
    const { connection } = member();
    const messages = service(store);
    await messages.send(connection, { ...frame('one'), isStealthMode: false, hasImage: false });
    await messages.send(connection, { ...frame('two'), isStealthMode: false, hasImage: false });
    expect(store.relayed.map((message) => message.content)).toEqual(['one', 'two']);
    expect(store.pending).toHaveLength(2);
  });

  it('tells the failure of a relay to the failure handler, not to the caller of send', async () => {
    const store = new HeldRelayStore();
    const failures: unknown[] = [];
    const { connection } = member();
    const messages = service(store, failures);
    await messages.send(connection, { ...frame('one'), isStealthMode: false, hasImage: false });
    store.pending[0]!.reject(new Error('connection lost'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(failures).toEqual([new Error('connection lost')]);
  });

  it('stores, then publishes, when the store does not relay (one process)', async () => {
    const store = new MemoryMessageStore();
    const { connection, sent } = member();
    const channels = new RoomChannels(new LocalFanout());
    await channels.add('r', connection);
    const messages = testMessageService({ store, channels });
    const message = await messages.send(connection, {
      ...frame('one'),
      isStealthMode: false,
      hasImage: false,
    });
    expect(await store.list('r', Date.now())).toEqual([message]);
    expect(sent.map((data) => JSON.parse(data) as unknown)).toEqual([
      { type: 'new_message', message },
    ]);
  });
});
