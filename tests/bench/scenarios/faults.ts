/**
 * `--scenario faults`: recovery times of three server processes sharing a throwaway PostgreSQL
 * and a throwaway Redis started for the run (tests/support/test-services.ts), two members of one
 * room on each (issue 35, item 5; the same faults tests/faults/ asserts on).
 *
 * - Redis restart: Redis is killed, the processes report themselves degraded, Redis starts again
 *   on the same port after 3 s; measured from Redis answering to every process un-degraded
 *   (`/api/ping`) and every process's member list (`/api/connected-ips`) holding the six members.
 * - PostgreSQL restart: a fast shutdown (room creation answers 503), started again; measured from
 *   PostgreSQL accepting logins to the first 2xx of `POST /api/rooms`.
 * - kill -9 of one process: measured from the kill to its two members gone from the other
 *   processes' member lists.
 *
 * Informational figures (no targets); servers are not pinned: the figures are timings of
 * detection and healing, not of CPU.
 */
import type { BenchContext } from '../context.js';
import { fixed, type ScenarioReport } from '../report.js';
import { testPrefix } from '../../support/redis.js';
import { createRoomOn, startServerProcess, type ServerProcess } from '../../support/processes.js';
import {
  startThrowawayPostgres,
  startThrowawayRedis,
  type ThrowawayService,
} from '../../support/test-services.js';
import { TestSocket } from '../../support/ws-client.js';

const MEMBERS_PER_PROCESS = 2;
const PROCESSES = 3;
/** Longest a recovery may take before the scenario gives up on it. */
const RECOVERY_LIMIT_MS = 120_000;

/** Milliseconds until `check` holds, polled every 50 ms; throws after the limit. */
async function timeUntil(what: string, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check().catch(() => false)) return performance.now() - started;
    if (performance.now() - started > RECOVERY_LIMIT_MS) {
      throw new Error(`faults: ${what} did not happen within ${RECOVERY_LIMIT_MS} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function degraded(server: ServerProcess): Promise<boolean> {
  const response = await fetch(`${server.url}/api/ping`, { signal: AbortSignal.timeout(2_000) });
  return ((await response.json()) as { degraded?: boolean }).degraded === true;
}

async function listed(server: ServerProcess, room: string): Promise<number> {
  const response = await fetch(`${server.url}/api/connected-ips?roomId=${room}`, {
    signal: AbortSignal.timeout(2_000),
  });
  return ((await response.json()) as { ips: unknown[] }).ips.length;
}

async function createRoomStatus(server: ServerProcess): Promise<number> {
  const response = await fetch(`${server.url}/api/rooms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'faults bench' }),
    signal: AbortSignal.timeout(5_000),
  });
  return response.status;
}

export async function runFaults(context: BenchContext): Promise<ScenarioReport> {
  const services: ThrowawayService[] = [];
  const servers: ServerProcess[] = [];
  const sockets: TestSocket[] = [];
  try {
    context.progress('starting a throwaway Redis and PostgreSQL and three processes');
    const redis = await startThrowawayRedis();
    services.push(redis);
    const postgres = await startThrowawayPostgres();
    services.push(postgres);
    const env = {
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: testPrefix(),
      ADMIN_PASSWORD: context.adminPassword,
    };
    for (let index = 0; index < PROCESSES; index += 1) {
      servers.push(await startServerProcess(env, 100_000));
    }
    const room = await createRoomOn(servers[0]!, 'faults bench');
    const total = PROCESSES * MEMBERS_PER_PROCESS;
    for (let index = 0; index < total; index += 1) {
      const server = servers[index % PROCESSES]!;
      const socket = await TestSocket.connect(`${server.url.replace('http', 'ws')}/chat-ws`);
      sockets.push(socket);
      socket.send({ type: 'join_room', roomId: room, username: `Agent6${index + 1}` });
      const joined = await socket.next(
        (frame) => frame.type === 'room_joined' || frame.type === 'error',
        10_000,
      );
      if (joined.type !== 'room_joined') {
        throw new Error(`faults: join refused: ${String(joined.message)}`);
      }
    }
    const allListed = (expected: number, among: ServerProcess[]) => async () =>
      (await Promise.all(among.map((server) => listed(server, room)))).every(
        (count) => count === expected,
      );
    await timeUntil('every member listed', allListed(total, servers));
    // Each process learns its peers every second; give them a moment to know each other.
    await new Promise((resolve) => setTimeout(resolve, 2_000));

    context.progress('Redis restart');
    await redis.halt();
    const degradedMs = await timeUntil('every process degraded', async () =>
      (await Promise.all(servers.map(degraded))).every(Boolean),
    );
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await redis.resume();
    const undegradedMs = await timeUntil('every process un-degraded', async () =>
      (await Promise.all(servers.map(degraded))).every((value) => !value),
    );
    const redisHealedMs =
      undegradedMs + (await timeUntil('lists healed', allListed(total, servers)));

    context.progress('PostgreSQL restart');
    await postgres.halt();
    const statusDuringOutage = await createRoomStatus(servers[0]!);
    await postgres.resume();
    const postgresMs = await timeUntil('a 2xx after PostgreSQL is back', async () => {
      const status = await createRoomStatus(servers[0]!);
      return status >= 200 && status < 300;
    });

    context.progress('kill -9 of one process');
    const killed = servers.pop()!;
    await killed.stop('SIGKILL');
    const killMs = await timeUntil(
      "the killed process's members gone",
      allListed(total - MEMBERS_PER_PROCESS, servers),
    );

    const rows = [
      ['Redis restart: every process degraded after the kill', fixed(degradedMs, 0)],
      ['Redis restart: Redis back → every process un-degraded', fixed(undegradedMs, 0)],
      ['Redis restart: Redis back → un-degraded and lists healed', fixed(redisHealedMs, 0)],
      [
        `PostgreSQL restart: back → first 2xx (${statusDuringOutage} meanwhile)`,
        fixed(postgresMs, 0),
      ],
      ['kill -9: kill → its members gone from the others', fixed(killMs, 0)],
    ];
    return {
      scenario: 'faults',
      tables: [
        {
          title: `Recovery, ${PROCESSES} processes × ${MEMBERS_PER_PROCESS} members of one room, throwaway Redis and PostgreSQL`,
          columns: ['fault', 'ms'],
          rows,
        },
      ],
      checks: [
        {
          scenario: 'faults',
          name: 'Redis restart: lists healed',
          target: 'none set (informational)',
          actual: `${fixed(redisHealedMs / 1000, 2)} s`,
          pass: null,
        },
        {
          scenario: 'faults',
          name: 'PostgreSQL restart: first 2xx',
          target: 'none set (informational)',
          actual: `${fixed(postgresMs / 1000, 2)} s`,
          pass: null,
        },
        {
          scenario: 'faults',
          name: 'kill -9: members gone elsewhere',
          target: 'none set (informational)',
          actual: `${fixed(killMs / 1000, 2)} s`,
          pass: null,
        },
      ],
      notes: [
        'Redis is away 3 s; times are polled every 50 ms (each figure is up to ~50 ms late).',
      ],
      data: {
        processes: PROCESSES,
        membersPerProcess: MEMBERS_PER_PROCESS,
        redisDegradedAfterKillMs: degradedMs,
        redisBackToUndegradedMs: undegradedMs,
        redisBackToListsHealedMs: redisHealedMs,
        postgresStatusDuringOutage: statusDuringOutage,
        postgresBackToFirst2xxMs: postgresMs,
        killToMembersGoneMs: killMs,
      },
    };
  } finally {
    for (const socket of sockets) socket.close();
    await Promise.all(servers.map((server) => server.stop('SIGKILL')));
    for (const service of services.reverse()) await service.stop();
  }
}
