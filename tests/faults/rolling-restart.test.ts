/**
 * A rolling restart of three server processes, as docs/operations.md "Rolling restart" tells it
 * (DESIGN.md principle 10; issue 35, items 4 and 5). Three real processes share one throwaway
 * PostgreSQL database and one Redis prefix; two members on each are in one room and keep sending,
 * one message at a time.
 *
 * Scenario: the processes are restarted one by one. Each gets SIGTERM, closes its sockets with
 * 1001 and exits 0; its members reconnect to a live process (the newest, as a load balancer
 * would send them) and join the room again; a replacement process starts and is waited for
 * (`/api/ping` 200, not degraded) before the next one. Then: every message whose sender saw its
 * echo (or found it in `room_joined` after reconnecting) reached every other member, live or in
 * the `room_joined` of its next join, including members that were reconnecting or joining again
 * while it was relayed; and every member's list and every live process's list hold the six
 * members, with no ghost of a stopped process (a draining process's members leave their rooms
 * everywhere before it closes Redis).
 *
 * Members are tests/support/reconnecting-member.ts, heard from each socket's first frame (what
 * this file once took for a join race).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProcessesOnRedis, type ProcessesOnRedis } from '../support/cluster.js';
import { createRoomOn, type ServerProcess } from '../support/processes.js';
import { HAS_POSTGRES } from '../support/services.js';
import { ReconnectingMember as Member } from '../support/reconnecting-member.js';
import { waitFor } from '../support/wait.js';

const NAMES = ['Agent81', 'Agent82', 'Agent83', 'Agent84', 'Agent85', 'Agent86'];

async function isReady(server: ServerProcess): Promise<boolean> {
  const response = await fetch(`${server.url}/api/ping`, { signal: AbortSignal.timeout(5_000) });
  if (response.status !== 200) return false;
  return !((await response.json()) as { degraded?: boolean }).degraded;
}

async function listedNames(server: ServerProcess, room: string): Promise<string[]> {
  const response = await fetch(`${server.url}/api/connected-ips?roomId=${room}`, {
    signal: AbortSignal.timeout(5_000),
  });
  const body = (await response.json()) as { ips: { username: string }[] };
  return body.ips.map((entry) => entry.username).sort();
}

describe.runIf(HAS_POSTGRES)('a rolling restart of three processes', () => {
  let cluster: ProcessesOnRedis;
  const members: Member[] = [];

  beforeAll(async () => {
    cluster = await startProcessesOnRedis(3, {});
  }, 120_000);

  afterAll(async () => {
    for (const member of members) member.close();
    await cluster?.stop();
  });

  it('loses no acknowledged message and ends with the right member lists', async () => {
    const live = [...cluster.servers];
    // The load balancer: the newest live process.
    const route = () => live.at(-1)!;
    const room = await createRoomOn(live[0]!, 'rolling restart');

    for (const [index, name] of NAMES.entries()) {
      const member = new Member(name, room, {
        route: () => route().url,
        rejoinsAfter: (code) => code === 1001,
      });
      members.push(member);
      await member.join(live[index % 3]!.url);
    }
    await waitFor(
      'every member listing all six',
      async () => members.every((member) => member.socket?.rosterNames().length === 6),
      15_000,
    );

    let sending = true;
    const senders = members.map(async (member) => {
      for (let index = 0; sending; index += 1) {
        await member.sendOne(`${member.name}:${index}`);
        // Paced well below the bot detector's burst.
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    });
    const sentSoFar = () => members.reduce((total, member) => total + member.sent.length, 0);
    await waitFor('messages before the restarts', async () => sentSoFar() >= 12, 15_000);

    for (const old of [...live]) {
      const before = sentSoFar();
      live.splice(live.indexOf(old), 1);
      expect(await old.stop('SIGTERM')).toBe(0);
      const replacement = await cluster.start();
      await waitFor('the new process ready', () => isReady(replacement), 20_000);
      live.push(replacement);
      await waitFor(
        'every member connected again and sending',
        async () => members.every((member) => member.socket) && sentSoFar() >= before + 12,
        20_000,
      );
    }

    sending = false;
    await Promise.all(senders);

    // Each original process's members were moved at least once.
    expect(members.every((member) => member.reconnects >= 1)).toBe(true);
    const all = members.flatMap((member) => member.sent.map((entry) => ({ member, entry })));
    const acked = all.filter(({ entry }) => entry.outcome === 'acked');
    // Almost everything was acknowledged: at most the one in flight at each close was not.
    expect(all.length - acked.length).toBeLessThanOrEqual(
      members.reduce((total, member) => total + member.reconnects, 0),
    );
    // Who must have it: every other member, wherever it was when the message was sent: in the
    // room (live), reconnecting or joining again (in its next room_joined, or live after it; see
    // docs/protocol.md "What a member receives"). Every member was in the room before the first
    // message and is in it at the end; a room keeps its newest 500 messages, far more than are
    // sent while a member reconnects.
    const missing = () =>
      acked.flatMap(({ member, entry }) =>
        members
          .filter((other) => other !== member && !other.received.has(entry.content))
          .map((other) => `${entry.content} at ${other.name}`),
      );
    await waitFor(
      'every acknowledged message everywhere',
      async () => missing().length === 0,
      5_000,
    ).catch(() => undefined);
    expect(missing()).toEqual([]);

    // Member lists: each member's and each live process's hold the six, no ghost.
    for (const member of members) {
      await member.socket!.waitForMembers(NAMES, 10_000);
    }
    for (const server of live) {
      await waitFor(
        'the member list of every live process',
        async () => JSON.stringify(await listedNames(server, room)) === JSON.stringify(NAMES),
        10_000,
      );
    }
  }, 120_000);
});
