/**
 * One process loses only its Redis subscriber connection while Redis, its command connection and
 * the other processes carry on (DESIGN.md principle 10; issue 35; docs/operations.md "Outages").
 *
 * Two servers share one PostgreSQL database and a throwaway Redis started for this file; the
 * first reaches Redis through a relay that can keep it out. Agent41 is on the first, Agent42 on
 * the second, in one room, both sending one message at a time; their clients reconnect and join
 * again by themselves when the server closes the socket (as browsers do).
 *
 * Scenario: from a separate Redis connection, `CLIENT KILL ID` ends the first server's
 * subscriber (found in `CLIENT LIST` by its relay port and its subscriptions), and the relay
 * keeps it out for 2.5 s, while the second server relays Agent42's messages as usual. The first
 * server says it is degraded and refuses Agent41's messages; once its subscriber is back and has
 * re-subscribed, it sees that Redis ran on meanwhile (the same `run_id`), so that what was
 * published meanwhile never reached its members, and closes their sockets with 1012; Agent41's
 * client joins again and finds in `room_joined` what it missed. Then: every message either
 * sender saw acknowledged is at the other member, live or in `room_joined`; both member lists
 * hold all three members; the first server logged the loss, the recovery and the closing once,
 * and no message content. Agent40, idle on the first server, sends once while it is degraded and
 * is refused.
 *
 * Second scenario: the first server's subscriber connection stays open but passes nothing (the
 * relay stops forwarding it, as a vanished peer leaves a half-open connection). Its PING goes
 * unanswered for 10 s, the server connects it again, and its members are closed with 1012 and
 * find in `room_joined` what they missed meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WS_ERROR } from '../../shared/protocol/errors.js';
import { RELAY_INTERRUPTED_CLOSE } from '../../server/redis/redis-health.js';
import {
  cutSubscriber,
  isDegraded,
  startRelayPair,
  subscribersBehind,
  type RelayPair,
  type Running,
} from '../support/relay-cut.js';
import { HAS_POSTGRES } from '../support/services.js';
import { TestSocket, type Frame } from '../support/ws-client.js';
import { waitFor } from '../support/wait.js';

const contentOf = (message: unknown) => (message as { content: string }).content;

/** A member whose client joins again by itself whenever the server closes its socket. */
class Member {
  socket: TestSocket | null = null;
  readonly received = new Set<string>();
  readonly sent: { content: string; outcome: 'acked' | 'refused' | 'silent' }[] = [];
  readonly closeCodes: number[] = [];
  private pending: { content: string; settle: () => void } | null = null;
  private ready: Promise<void> = Promise.resolve();
  private isDone = false;

  constructor(
    readonly name: string,
    private readonly room: string,
    private readonly url: string,
  ) {}

  async join(): Promise<void> {
    const socket = await TestSocket.connect(`${this.url.replace('http', 'ws')}/chat-ws`);
    // Heard from its first frame (the held room frames come right after room_joined).
    socket.socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      if (frame.type === 'room_joined') {
        for (const message of frame.messages as unknown[]) this.received.add(contentOf(message));
      } else if (frame.type === 'new_message') {
        const content = contentOf(frame.message);
        this.received.add(content);
        if (this.pending?.content === content) this.pending.settle();
      } else if (frame.type === 'error' && frame.frameType === 'send_message') {
        expect(frame.message).toBe(WS_ERROR.notRelayed);
        const last = this.sent.at(-1);
        if (last) last.outcome = 'refused';
        this.pending?.settle();
      }
    });
    socket.socket.on('close', (code) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.closeCodes.push(code);
      this.pending?.settle();
      if (this.isDone) return;
      this.ready = new Promise((resolve) => setTimeout(resolve, 200)).then(() => this.join());
    });
    socket.send({ type: 'join_room', roomId: this.room, username: this.name });
    await socket.nextOfType('room_joined', 10_000);
    this.socket = socket;
    // Sent before a close without an echo: relayed if the room has it.
    for (const entry of this.sent) {
      if (entry.outcome === 'silent' && this.received.has(entry.content)) entry.outcome = 'acked';
    }
  }

  /** Sends one message (once joined) and waits for its echo, its refusal or the socket's close. */
  async sendOne(content: string): Promise<void> {
    await this.ready;
    const socket = this.socket;
    if (!socket) return;
    const entry: (typeof this.sent)[number] = { content, outcome: 'silent' };
    this.sent.push(entry);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.pending = null;
        resolve();
      }, 10_000);
      this.pending = {
        content,
        settle: () => {
          clearTimeout(timer);
          this.pending = null;
          if (entry.outcome !== 'refused' && this.received.has(content)) entry.outcome = 'acked';
          resolve();
        },
      };
      socket.send({ type: 'send_message', content, encryptionType: 'PLAINTEXT' });
    });
  }

  close(): void {
    this.isDone = true;
    this.socket?.close();
  }
}

describe.runIf(HAS_POSTGRES)('a process that loses only its Redis subscriber', () => {
  let pair: RelayPair;
  let servers: Running[] = [];
  const members: Member[] = [];

  beforeAll(async () => {
    pair = await startRelayPair();
    servers = pair.servers;
  }, 60_000);

  afterAll(async () => {
    for (const member of members) member.close();
    await pair?.stop();
  });

  it('notices, reports degraded, and gives its members what was published meanwhile', async () => {
    const [first, second] = servers as [Running, Running];
    const created = await fetch(`${first.url}/api/rooms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'subscriber drill' }),
    });
    const room = ((await created.json()) as { secureId: string }).secureId;
    const alice = new Member('Agent41', room, first.url);
    const bob = new Member('Agent42', room, second.url);
    // Sends only once, while the first server is degraded.
    const idle = new Member('Agent40', room, first.url);
    members.push(alice, bob, idle);
    await alice.join();
    await bob.join();
    await idle.join();
    const names = ['Agent40', 'Agent41', 'Agent42'];
    await alice.socket!.waitForMembers(names, 10_000);

    let sending = true;
    const senders = [alice, bob].map(async (member) => {
      for (let index = 0; sending; index += 1) {
        await member.sendOne(`${member.name}:${index}`);
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    });
    const sentBy = (member: Member) => member.sent.length;
    await waitFor('a few messages first', async () => sentBy(bob) >= 4, 10_000);

    // The drop: the first server's subscriber is killed and kept out for 2.5 s.
    const bobBefore = sentBy(bob);
    await cutSubscriber(pair);

    // Degraded here (Agent41's messages refused), not on the second server.
    await waitFor('the first server degraded', () => isDegraded(first), 5_000);
    expect(await isDegraded(second)).toBe(false);
    await idle.sendOne('Agent40:0');
    expect(idle.sent[0]?.outcome).toBe('refused');
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const bobDuring = bob.sent.slice(bobBefore).filter((entry) => entry.outcome === 'acked');
    expect(bobDuring.length).toBeGreaterThanOrEqual(5);
    pair.door.isHeld = false;
    const openedAt = Date.now();

    // It heals by itself; Agent41's client is back in the room and sending.
    await waitFor('the first server whole', async () => !(await isDegraded(first)), 10_000);
    expect(Date.now() - openedAt).toBeLessThan(10_000);
    const aliceBack = sentBy(alice);
    await waitFor(
      'Agent41 sending again',
      async () =>
        alice.sent.slice(aliceBack).filter((entry) => entry.outcome === 'acked').length >= 4,
      15_000,
    );
    sending = false;
    await Promise.all(senders);

    // Nothing acknowledged is missing at the other member; Agent41 was refused meanwhile.
    const missing = () => [
      ...bob.sent
        .filter((entry) => entry.outcome === 'acked' && !alice.received.has(entry.content))
        .map((entry) => `${entry.content} at Agent41`),
      ...alice.sent
        .filter((entry) => entry.outcome === 'acked' && !bob.received.has(entry.content))
        .map((entry) => `${entry.content} at Agent42`),
    ];
    await waitFor(
      'every acknowledged message delivered',
      async () => missing().length === 0,
      5_000,
    ).catch(() => undefined);
    expect(missing()).toEqual([]);
    expect(bob.received.has('Agent40:0')).toBe(false);
    // How: the first server closed its sockets with 1012, and the clients joined again.
    expect(alice.closeCodes).toEqual([RELAY_INTERRUPTED_CLOSE.code]);
    expect(idle.closeCodes).toEqual([RELAY_INTERRUPTED_CLOSE.code]);
    expect(bob.closeCodes).toEqual([]);

    await alice.socket!.waitForMembers(names, 10_000);
    await bob.socket!.waitForMembers(names, 10_000);

    const lines = (server: Running, text: string) =>
      server.logs.lines.filter((line) => line.includes(text));
    expect(lines(first, 'redis unavailable: degraded')).toHaveLength(1);
    expect(lines(first, 'redis available again')).toHaveLength(1);
    expect(lines(first, 'redis events may have been missed')).toHaveLength(1);
    expect(lines(second, 'redis unavailable')).toEqual([]);
    for (const server of servers) {
      for (const entry of [...alice.sent, ...bob.sent]) {
        expect(server.logs.text()).not.toContain(entry.content);
      }
    }
  }, 60_000);

  it('connects again a subscriber that stops answering, and gives its members what they missed', async () => {
    const [first, second] = servers as [Running, Running];
    const created = await fetch(`${first.url}/api/rooms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'silent subscriber drill' }),
    });
    const room = ((await created.json()) as { secureId: string }).secureId;
    const carol = new Member('Agent43', room, first.url);
    const dave = new Member('Agent44', room, second.url);
    members.push(carol, dave);
    await carol.join();
    await dave.join();
    await carol.socket!.waitForMembers(['Agent43', 'Agent44'], 10_000);

    // The first server's subscriber goes silent: its connection stays open, nothing passes.
    const found = await subscribersBehind(pair);
    expect(found).toHaveLength(1);
    expect(pair.door.freeze(found[0]!.port)).toBe(true);
    const frozenAt = Date.now();

    let sending = true;
    const sender = (async () => {
      for (let index = 0; sending; index += 1) {
        await dave.sendOne(`${dave.name}:${index}`);
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    })();
    // Found by its unanswered PING (10 s), then made again (degraded for as long as that takes,
    // too short to poll for), then its members are closed and join again.
    const silenceLines = () =>
      first.logs.lines.filter((line) => line.includes('redis subscriber did not answer'));
    await waitFor('the silence noticed', async () => silenceLines().length > 0, 20_000);
    expect(Date.now() - frozenAt).toBeGreaterThanOrEqual(9_000);
    await waitFor('Agent43 closed', async () => carol.closeCodes.length > 0, 10_000);
    await waitFor('Agent43 joined again', async () => carol.socket !== null, 10_000);
    await waitFor('the first server whole', async () => !(await isDegraded(first)), 10_000);
    const daveAfter = dave.sent.length;
    await waitFor('a few more messages', async () => dave.sent.length >= daveAfter + 4, 10_000);
    sending = false;
    await sender;

    const missing = () =>
      dave.sent
        .filter((entry) => entry.outcome === 'acked' && !carol.received.has(entry.content))
        .map((entry) => entry.content);
    await waitFor(
      'every acknowledged message at Agent43',
      async () => missing().length === 0,
      5_000,
    ).catch(() => undefined);
    expect(missing()).toEqual([]);
    expect(dave.sent.filter((entry) => entry.outcome === 'acked').length).toBeGreaterThan(20);
    expect(carol.closeCodes).toEqual([RELAY_INTERRUPTED_CLOSE.code]);
    expect(dave.closeCodes).toEqual([]);
    expect(silenceLines()).toHaveLength(1);
    const lines = (text: string) => first.logs.lines.filter((line) => line.includes(text));
    expect(lines('redis unavailable: degraded')).toHaveLength(2);
    expect(lines('redis events may have been missed')).toHaveLength(2);
  }, 60_000);
});
