/**
 * Byte budgets of held room messages (issue 31), on one process and on Redis: a visitor flooding
 * large messages gets an error frame for each message past its budget, that message is neither
 * stored nor relayed, another member's messages are still delivered, and what was held before
 * stays. Past the budget of all held messages together, every sender is refused the same way
 * until messages expire and give their bytes back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WS_ERROR } from '../../shared/protocol/errors.js';
import { deletePrefix, REDIS_TEST_URL, testPrefix } from '../support/redis.js';
import { connectRedis } from '../../server/redis/connect.js';
import { HAS_REDIS } from '../support/services.js';
import { startServer, type TestServer } from '../support/server.js';
import { TestSocket, type Frame } from '../support/ws-client.js';

const servers: TestServer[] = [];
const sockets: TestSocket[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  for (const server of servers.splice(0)) await server.stop();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A message's text: about 8 KiB, so a few of them reach the small budgets below. */
const big = (label: string) => `${label}:${'x'.repeat(8_000)}`;
/** Bytes a held message of `big` size counts for, with some room for its other fields. */
const ONE = 8_600;

let clockOffset = 0;
const now = () => Date.now() + clockOffset;

async function start(
  backend: 'memory' | 'redis',
  budget: { perVisitorBytes: number; totalBytes: number },
) {
  clockOffset = 0;
  let env: Record<string, string> = {};
  if (backend === 'redis') {
    const prefix = testPrefix();
    env = { REDIS_URL: REDIS_TEST_URL, REDIS_PREFIX: prefix };
    cleanups.push(async () => {
      const redis = await connectRedis(REDIS_TEST_URL, prefix);
      await deletePrefix(redis, prefix);
      await redis.close();
    });
  }
  const server = await startServer({ env, deps: { now, heldMessageBudget: budget } });
  servers.push(server);
  const room = await server.rooms.defaultRoom();
  const roomId = room.secureId;
  let callsign = 100;
  const member = async (localAddress: string) => {
    const socket = await TestSocket.connect(server.wsUrl(), { localAddress });
    sockets.push(socket);
    callsign += 1;
    socket.send({ type: 'join_room', roomId, username: `Ghost${callsign}` });
    await socket.nextOfType('room_joined');
    return socket;
  };
  const say = (socket: TestSocket, content: string) =>
    socket.send({ type: 'send_message', content, encryptionType: 'PLAINTEXT' });
  const delivered = (socket: TestSocket, content: string) =>
    socket.next(
      (frame: Frame) =>
        frame.type === 'new_message' && (frame.message as { content: string }).content === content,
      10_000,
    );
  const refusal = (socket: TestSocket) =>
    socket.next(
      (frame: Frame) => frame.type === 'error' && frame.frameType === 'send_message',
      10_000,
    );
  const historyOf = async () =>
    (await server.messages.history(room.id)).map((message) => message.content.split(':')[0]);
  return { server, roomId, member, say, delivered, refusal, historyOf };
}

const backends = ['memory', ...(HAS_REDIS ? ['redis' as const] : [])] as const;

describe.each(backends)('held message budgets on %s', { timeout: 120_000 }, (backend) => {
  it("refuses a flooder's messages past its budget and delivers another member's", async () => {
    const { member, say, delivered, refusal, historyOf } = await start(backend, {
      perVisitorBytes: ONE * 4,
      totalBytes: ONE * 100,
    });
    const flooder = await member('127.0.0.1');
    const bob = await member('127.0.0.2');
    const reader = await member('127.0.0.3');

    say(bob, big('early'));
    await delivered(reader, big('early'));
    for (let i = 0; i < 4; i += 1) {
      say(flooder, big(`flood${i}`));
      await delivered(reader, big(`flood${i}`));
    }
    // Past its budget: an error frame for each, nothing stored or relayed.
    for (let i = 4; i < 8; i += 1) {
      say(flooder, big(`flood${i}`));
      expect((await refusal(flooder)).message).toBe(WS_ERROR.heldBytesSender);
    }
    say(bob, big('after'));
    await delivered(reader, big('after'));
    expect(reader.frames.some((frame) => JSON.stringify(frame).includes('flood4'))).toBe(false);
    // Redis orders messages of the same millisecond by id: compared as sets.
    expect((await historyOf()).sort()).toEqual([
      'after',
      'early',
      'flood0',
      'flood1',
      'flood2',
      'flood3',
    ]);
  });

  it('refuses every sender past the total budget until held messages expire', async () => {
    const { server, member, say, delivered, refusal, historyOf } = await start(backend, {
      perVisitorBytes: ONE * 100,
      totalBytes: ONE * 3,
    });
    const alice = await member('127.0.0.1');
    const bob = await member('127.0.0.2');
    for (let i = 0; i < 3; i += 1) {
      say(alice, big(`held${i}`));
      await delivered(bob, big(`held${i}`));
    }
    say(alice, big('over'));
    expect((await refusal(alice)).message).toBe(WS_ERROR.heldBytesTotal);
    say(bob, big('bob'));
    expect((await refusal(bob)).message).toBe(WS_ERROR.heldBytesTotal);
    expect((await historyOf()).sort()).toEqual(['held0', 'held1', 'held2']);

    // Once the held messages have expired (the sweep runs every second), bytes are free again.
    clockOffset = server.config.messageTtlSeconds * 1000 + 1_000;
    await expect.poll(() => server.shared.messages.heldBytes(null), { timeout: 10_000 }).toBe(0);
    expect(await historyOf()).toEqual([]);
    say(bob, big('again'));
    await delivered(alice, big('again'));
  });
});
