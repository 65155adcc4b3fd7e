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
import { ReconnectingMember as Member } from '../support/reconnecting-member.js';
import { waitFor } from '../support/wait.js';

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
    const alice = new Member('Agent41', room, { route: () => first.url });
    const bob = new Member('Agent42', room, { route: () => second.url });
    // Sends only once, while the first server is degraded.
    const idle = new Member('Agent40', room, { route: () => first.url });
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
    for (const member of [alice, bob, idle])
      expect(member.refusals.every((text) => text === WS_ERROR.notRelayed)).toBe(true);
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
    const carol = new Member('Agent43', room, { route: () => first.url });
    const dave = new Member('Agent44', room, { route: () => second.url });
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
