/**
 * A Redis restart under three servers (DESIGN.md principle 10; issue 35). Three servers share one
 * PostgreSQL database and a throwaway Redis started for this file; alice, bob and carol are on
 * different servers in one room and keep sending, one message at a time.
 *
 * Scenario: Redis is killed (SIGKILL) while they send; every server reports itself degraded
 * (`/api/ping`, the metric, one log line); after a few seconds Redis starts again, empty, on the
 * same port; the servers recover by themselves (one log line each) and the members keep sending.
 * The third server reaches Redis through a small TCP relay (tests/support/redis-door.ts) that lets
 * it back in 1.5 s after the others, as a busier process or a farther machine would: the race of
 * issue 35, where the first processes back published messages that the last one's subscriber was
 * not there to hear.
 * Then: every message was either delivered to both other members or refused to its sender with
 * the not-relayed error frame (none acknowledged and lost), and every server's member list (the
 * HTTP list and the member frames) holds all three again without anyone rejoining.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WS_ERROR } from '../../shared/protocol/errors.js';
import { buildServer, type Server } from '../../server/app.js';
import { createThrowawayPostgres } from '../support/database.js';
import { captureLogs, type LogCapture } from '../support/logs.js';
import { startRedisDoor, type RedisDoor } from '../support/redis-door.js';
import { testPrefix } from '../support/redis.js';
import { testConfig } from '../support/server.js';
import { HAS_POSTGRES } from '../support/services.js';
import { startThrowawayRedis, type ThrowawayService } from '../support/test-services.js';
import { ReconnectingMember } from '../support/reconnecting-member.js';
import { waitFor } from '../support/wait.js';

const METRICS_TOKEN = 'faults-metrics-token-0123';

interface Running {
  server: Server;
  url: string;
  logs: LogCapture;
}

async function ping(server: Running): Promise<{ ok: boolean; degraded: boolean }> {
  const response = await fetch(`${server.url}/api/ping`, { signal: AbortSignal.timeout(5_000) });
  expect(response.status).toBe(200);
  return (await response.json()) as { ok: boolean; degraded: boolean };
}

/**
 * Waits until every server's `/api/ping` says `degraded` is `expected`. On a timeout it names the
 * server and what it last saw: the ping's answer or error, the process's own state and its two
 * Redis connections' states.
 */
async function waitForDegraded(servers: Running[], expected: boolean, what: string) {
  for (const [index, server] of servers.entries()) {
    let last = 'no answer yet';
    try {
      await waitFor(
        what,
        async () => {
          try {
            const answer = await ping(server);
            last = JSON.stringify(answer);
            return answer.degraded === expected;
          } catch (error) {
            last = String(error);
            throw error;
          }
        },
        15_000,
      );
    } catch (error) {
      const { redisHealth, redis } = server.server.shared;
      const reason = error instanceof Error ? error.message : String(error);
      const state =
        `isDegraded ${String(redisHealth?.isDegraded)}; ` +
        `client ${redis?.client.status}, subscriber ${redis?.subscriber.status}`;
      throw new Error(`server ${index}: ${reason}; last ping ${last}; ${state}`);
    }
  }
}

async function degradedGauge(server: Running): Promise<string | undefined> {
  const response = await fetch(`${server.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    signal: AbortSignal.timeout(5_000),
  });
  return /^securechannel_redis_degraded (\d)$/m.exec(await response.text())?.[1];
}

describe.runIf(HAS_POSTGRES)('a Redis restart under three servers', () => {
  let redis: ThrowawayService;
  let door: RedisDoor;
  let dropDatabase: () => Promise<void>;
  const servers: Running[] = [];
  const members: ReconnectingMember[] = [];

  beforeAll(async () => {
    redis = await startThrowawayRedis();
    door = await startRedisDoor(redis.url);
    const database = await createThrowawayPostgres();
    dropDatabase = database.drop;
    const env = { DATABASE_URL: database.url, REDIS_PREFIX: testPrefix(), METRICS_TOKEN };
    for (const redisUrl of [redis.url, redis.url, door.url]) {
      const logs = captureLogs();
      const config = testConfig({ ...env, REDIS_URL: redisUrl });
      const server = await buildServer(config, {
        announce: () => undefined,
        logStream: logs.stream,
      });
      const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
      servers.push({ server, url, logs });
    }
  }, 60_000);

  afterAll(async () => {
    for (const member of members) member.close();
    await Promise.all(servers.map(({ server }) => server.app.close()));
    await door?.close();
    await redis?.stop();
    await dropDatabase?.();
  });

  it('refuses or delivers every message, reports degraded, and heals presence without rejoining', async () => {
    const created = await fetch(`${servers[0]!.url}/api/rooms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'outage drill' }),
    });
    expect(created.status).toBe(200);
    const room = ((await created.json()) as { secureId: string }).secureId;

    // Members that stay on their server: none is expected to be closed (the servers stay up).
    for (const [index, name] of ['Agent71', 'Agent72', 'Agent73'].entries()) {
      members.push(
        new ReconnectingMember(name, room, {
          route: () => servers[index]!.url,
          rejoinsAfter: () => false,
        }),
      );
    }
    for (const member of members) await member.join();
    await members[0]!.socket!.waitForMembers(['Agent71', 'Agent72', 'Agent73'], 10_000);

    // Everyone sends, one message at a time, until told to stop.
    let sending = true;
    const senders = members.map(async (member) => {
      for (let index = 0; sending; index += 1) {
        await member.sendOne(`${member.name}:${index}`);
        // Paced below the bot detector's burst (32 messages in 3 s): refusals come at once.
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    });
    const sentSoFar = () => members.reduce((total, member) => total + member.sent.length, 0);
    await waitFor('a few messages before the outage', async () => sentSoFar() >= 6, 10_000);
    // Each server knows the other two (it learns its peers every second), so it waits for them.
    await waitFor(
      'every server to know its peers',
      async () => servers.every(({ server }) => server.shared.redisHealth?.peerCount === 2),
      10_000,
    );

    // The outage: Redis is killed; every server says it is degraded.
    door.isHeld = true;
    await redis.halt();
    await waitForDegraded(servers, true, 'degraded');
    expect(await degradedGauge(servers[0]!)).toBe('1');
    await waitFor(
      'a message refused during the outage',
      async () =>
        members.every((member) => member.sent.some((entry) => entry.outcome === 'refused')),
      5_000,
    );
    // Redis stays away a few seconds, long enough for the connections to back off.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await redis.resume();
    const resumedAt = Date.now();
    // The third server gets back in later than the others.
    setTimeout(() => (door.isHeld = false), 1_500);
    await waitForDegraded(servers, false, 'recovery');
    const healedAfterMs = Date.now() - resumedAt;
    expect(healedAfterMs).toBeLessThan(10_000);
    expect(await degradedGauge(servers[0]!)).toBe('0');

    // Member lists: every server's HTTP list and every member's frames hold all three again.
    for (const server of servers) {
      await waitFor(
        'the member list of every server',
        async () => {
          const response = await fetch(`${server.url}/api/connected-ips?roomId=${room}`, {
            signal: AbortSignal.timeout(5_000),
          });
          const body = (await response.json()) as { ips: { username: string }[] };
          return body.ips.length === 3;
        },
        5_000,
      );
    }
    for (const member of members) {
      await waitFor(
        'a member list frame naming all three',
        async () =>
          member.socket!.frames.some(
            (frame) =>
              frame.type === 'user_list_update' &&
              Date.parse(frame.timestamp as string) >= resumedAt &&
              (frame.users as unknown[]).length === 3,
          ),
        5_000,
      );
    }

    // A few more messages after recovery, then stop.
    const sentAtRecovery = sentSoFar();
    await waitFor('messages after recovery', async () => sentSoFar() >= sentAtRecovery + 6, 10_000);
    sending = false;
    await Promise.all(senders);

    // Every message: refused to its sender, or delivered to both others (given a moment to arrive).
    const all = members.flatMap((member) => member.sent.map((entry) => ({ member, entry })));
    expect(all.filter(({ entry }) => entry.outcome === 'silent')).toEqual([]);
    const deliveredToOthers = (member: ReconnectingMember, content: string) =>
      members.every((other) => other === member || other.received.has(content));
    await waitFor(
      'every acknowledged message at every other member',
      async () =>
        all.every(
          ({ member, entry }) =>
            entry.outcome === 'refused' || deliveredToOthers(member, entry.content),
        ),
      5_000,
    ).catch(() => undefined);
    const lost = all
      .filter(
        ({ member, entry }) =>
          entry.outcome === 'acked' && !deliveredToOthers(member, entry.content),
      )
      .map(({ entry }) => entry.content);
    expect(lost).toEqual([]);
    // The drill did what it says: some refused, some delivered after Redis came back.
    expect(all.some(({ entry }) => entry.outcome === 'refused')).toBe(true);
    const lastOfEach = members.map((member) => member.sent.at(-1)!);
    expect(lastOfEach.map((entry) => entry.outcome)).toEqual(['acked', 'acked', 'acked']);
    for (const member of members) {
      expect(member.refusals.every((text) => text === WS_ERROR.notRelayed)).toBe(true);
      // No server closed a member's socket: the lists healed without anyone rejoining.
      expect(member.closeCodes).toEqual([]);
    }

    // One line on entering the degraded state and one on leaving it, on every server, and no
    // message content in any log (refusals are not logged one by one).
    for (const { logs } of servers) {
      for (const { entry } of all) expect(logs.text()).not.toContain(entry.content);
      expect(
        logs.lines.filter((line) => line.includes('redis unavailable: degraded')),
      ).toHaveLength(1);
      expect(logs.lines.filter((line) => line.includes('redis available again'))).toHaveLength(1);
    }
  }, 60_000);
});
