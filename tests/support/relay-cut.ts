/**
 * Two in-process servers on one PostgreSQL database and a throwaway Redis, the first reaching
 * Redis through a relay (redis-door.ts) that can cut off its subscriber alone while Redis, the
 * first server's command connection and the second server carry on (tests/faults,
 * tests/adversary).
 */
import { expect } from 'vitest';
import { Redis } from 'ioredis';
import { buildServer, type Server } from '../../server/app.js';
import { createThrowawayPostgres } from './database.js';
import { captureLogs, type LogCapture } from './logs.js';
import { startRedisDoor, type RedisDoor } from './redis-door.js';
import { testPrefix } from './redis.js';
import { testConfig } from './server.js';
import { startThrowawayRedis, type ThrowawayService } from './test-services.js';

export interface Running {
  server: Server;
  url: string;
  logs: LogCapture;
}

export interface RelayPair {
  redis: ThrowawayService;
  door: RedisDoor;
  /** The first reaches Redis through `door`, the second directly. */
  servers: [Running, Running];
  stop(): Promise<void>;
}

export async function startRelayPair(env: Record<string, string> = {}): Promise<RelayPair> {
  const redis = await startThrowawayRedis();
  const door = await startRedisDoor(redis.url);
  const database = await createThrowawayPostgres();
  const shared = { ...env, DATABASE_URL: database.url, REDIS_PREFIX: testPrefix() };
  const servers: Running[] = [];
  for (const redisUrl of [door.url, redis.url]) {
    const logs = captureLogs();
    const server = await buildServer(testConfig({ ...shared, REDIS_URL: redisUrl }), {
      announce: () => undefined,
      logStream: logs.stream,
    });
    const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
    servers.push({ server, url, logs });
  }
  return {
    redis,
    door,
    servers: servers as [Running, Running],
    stop: async () => {
      await Promise.all(servers.map(({ server }) => server.app.close()));
      await door.close();
      await redis.stop();
      await database.drop();
    },
  };
}

/** Whether the server says it is degraded (`GET /api/ping`). */
export async function isDegraded(server: Running): Promise<boolean> {
  const response = await fetch(`${server.url}/api/ping`, { signal: AbortSignal.timeout(5_000) });
  expect(response.status).toBe(200);
  return ((await response.json()) as { degraded: boolean }).degraded;
}

async function withAdmin<T>(redisUrl: string, work: (admin: Redis) => Promise<T>): Promise<T> {
  const admin = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.quit();
  }
}

/**
 * The Redis client id and port of each subscriber that connects through the door (one is
 * expected), from a separate connection to Redis.
 */
export async function subscribersBehind(pair: RelayPair): Promise<{ id: string; port: number }[]> {
  const ports = pair.door.upstreamPorts();
  const list = String(await withAdmin(pair.redis.url, (admin) => admin.call('CLIENT', 'LIST')));
  return list.split('\n').flatMap((line) => {
    const id = /\bid=(\d+)/.exec(line)?.[1];
    const port = Number(/\baddr=[^ ]*:(\d+)/.exec(line)?.[1]);
    const subscriptions = Number(/\bsub=(\d+)/.exec(line)?.[1] ?? 0);
    return id && ports.has(port) && subscriptions > 0 ? [{ id, port }] : [];
  });
}

/**
 * Ends the first server's subscriber connection (`CLIENT KILL ID`) and keeps the door shut, so
 * that it cannot connect again until `door.isHeld` is set back to false.
 */
export async function cutSubscriber(pair: RelayPair): Promise<void> {
  const found = await subscribersBehind(pair);
  expect(found).toHaveLength(1);
  pair.door.isHeld = true;
  const killed = await withAdmin(pair.redis.url, (admin) =>
    admin.call('CLIENT', 'KILL', 'ID', found[0]!.id),
  );
  expect(killed).toBe(1);
}
