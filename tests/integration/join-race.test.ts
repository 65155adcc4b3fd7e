/**
 * Joining a room on one process while messages are relayed through Redis from another
 * (issue 35, "the join race"; docs/protocol.md "What a member receives").
 *
 * Two real server processes share one PostgreSQL database and one Redis prefix. Senders on the
 * first process keep sending to a room; on the second, members keep joining and leaving it, some
 * as the process's only member of the room (its first join subscribes the process to the room's
 * channel, its last leave unsubscribes it), some beside a member that stays. Every joiner must
 * hold every message whose send was acknowledged (the sender's own `new_message`) while its
 * socket was open, and every message sent shortly before it joined: each either in `room_joined`
 * or live, none lost, none twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProcessesOnRedis, type ProcessesOnRedis } from '../support/cluster.js';
import { createRoomOn, type ServerProcess } from '../support/processes.js';
import { HAS_POSTGRES, HAS_REDIS } from '../support/services.js';
import { TestSocket, type Frame } from '../support/ws-client.js';

const wsUrl = (server: ServerProcess) => `${server.url.replace('http', 'ws')}/chat-ws`;
const contentOf = (message: unknown) => (message as { content: string }).content;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a joiner's socket saw, frame by frame from the moment it opened. */
interface Joiner {
  requestedAt: number;
  closedAt: number;
  /** Message contents in room_joined, then each live new_message in order of arrival. */
  history: string[];
  live: string[];
}

/**
 * Opens a socket that records every frame from its first byte (a listener attached after
 * `room_joined` would miss what came in the same read), joins `room`, and resolves once joined.
 */
async function join(
  server: ServerProcess,
  room: string,
  username: string,
): Promise<{ socket: TestSocket; joiner: Joiner; frames: Frame[] }> {
  const socket = await TestSocket.connect(wsUrl(server));
  const frames: Frame[] = [];
  socket.socket.on('message', (data) => frames.push(JSON.parse(data.toString()) as Frame));
  const joiner: Joiner = {
    requestedAt: Date.now(),
    closedAt: Number.POSITIVE_INFINITY,
    history: [],
    live: [],
  };
  socket.send({ type: 'join_room', roomId: room, username });
  const joined = await socket.next(
    (frame) => frame.type === 'room_joined' || frame.type === 'error',
    10_000,
  );
  expect(joined.type).toBe('room_joined');
  return { socket, joiner, frames };
}

/** Sorts a joiner's recorded frames into history and live messages. */
function settle(joiner: Joiner, frames: Frame[]): void {
  for (const frame of frames) {
    if (frame.type === 'room_joined') {
      joiner.history.push(...(frame.messages as unknown[]).map(contentOf));
    } else if (frame.type === 'new_message') {
      joiner.live.push(contentOf(frame.message));
    }
  }
}

describe.runIf(HAS_POSTGRES && HAS_REDIS)('joining a room while another process relays', () => {
  let cluster: ProcessesOnRedis;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    cluster = await startProcessesOnRedis(2, {});
  }, 120_000);

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await cluster?.stop();
  });

  it('gives every joiner every message sent while it is in the room, in room_joined or live, once', async () => {
    const [relaying, joining] = cluster.servers as [ServerProcess, ServerProcess];
    const room = await createRoomOn(relaying, 'join race');

    // Senders on the first process: each sends every 110 ms (the bot detector allows ten a
    // second), and records when its own new_message came back (acknowledged).
    const acked = new Map<string, { sentAt: number; ackedAt: number }>();
    const sentAt = new Map<string, number>();
    let sending = true;
    const senders = ['Agent91', 'Agent92', 'Agent93'].map(async (name) => {
      const { socket } = await join(relaying, room, name);
      sockets.push(socket);
      socket.socket.on('message', (data) => {
        const frame = JSON.parse(data.toString()) as Frame;
        if (frame.type !== 'new_message') return;
        const content = contentOf(frame.message);
        const at = sentAt.get(content);
        if (at !== undefined && content.startsWith(`${name}:`)) {
          acked.set(content, { sentAt: at, ackedAt: Date.now() });
        }
      });
      for (let index = 0; sending; index += 1) {
        const content = `${name}:${index}`;
        sentAt.set(content, Date.now());
        socket.send({ type: 'send_message', content, encryptionType: 'PLAINTEXT' });
        await pause(110 + Math.random() * 20);
      }
    });
    await pause(500);

    // Joiners on the second process: rounds of three at once, every other round beside a member
    // that stays (the process is subscribed already), otherwise alone (the first join subscribes
    // it, the last leave unsubscribes it).
    const joiners: { joiner: Joiner; frames: Frame[] }[] = [];
    let anchor: TestSocket | null = null;
    for (let round = 0; round < 24; round += 1) {
      if (round % 2 === 1 && !anchor) {
        anchor = (await join(joining, room, 'Agent99')).socket;
      } else if (round % 2 === 0 && anchor) {
        anchor.close();
        anchor = null;
        await pause(100);
      }
      const inRound = await Promise.all(
        [0, 1, 2].map(async (slot) => {
          await pause(slot * 37 + Math.random() * 60);
          return join(joining, room, `Agent${60 + slot}`);
        }),
      );
      await pause(900);
      for (const { socket, joiner, frames } of inRound) {
        joiner.closedAt = Date.now();
        socket.close();
        joiners.push({ joiner, frames });
      }
      await pause(150);
    }
    anchor?.close();
    sending = false;
    await Promise.all(senders);
    for (const { joiner, frames } of joiners) settle(joiner, frames);

    expect(acked.size).toBeGreaterThan(200);
    const missing: string[] = [];
    const twice: string[] = [];
    for (const [index, { joiner }] of joiners.entries()) {
      const seen = [...joiner.history, ...joiner.live];
      const counts = new Map<string, number>();
      for (const content of seen) counts.set(content, (counts.get(content) ?? 0) + 1);
      for (const [content, count] of counts) if (count > 1) twice.push(`${content} at ${index}`);
      for (const [content, times] of acked) {
        // Acknowledged while the joiner was in the room (with 300 ms for its copy to arrive), or
        // sent in the two seconds before it joined (room_joined holds it: far below the cap).
        const during = times.sentAt >= joiner.requestedAt && times.ackedAt + 300 < joiner.closedAt;
        const before =
          times.sentAt < joiner.requestedAt && times.sentAt > joiner.requestedAt - 2_000;
        if ((during || before) && !counts.has(content)) missing.push(`${content} at ${index}`);
      }
    }
    expect(missing).toEqual([]);
    // A message stored between the subscription and the history read is in room_joined only.
    expect(twice).toEqual([]);
  }, 120_000);
});
