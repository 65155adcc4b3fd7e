/**
 * The throwaway PostgreSQL and Redis launcher of `npm test` (tests/support/test-services.ts,
 * issue 21): it starts each service on a free port in a temporary folder, the service answers,
 * and stopping it ends that process and removes its folder, while the machine's own services
 * (if any) keep running. Each case runs where the binaries are installed.
 */
import { existsSync } from 'node:fs';
import { Socket } from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  debianPostgresDirs,
  findBinary,
  hostPort,
  isReachable,
  startThrowawayPostgres,
  startThrowawayRedis,
} from '../support/test-services.js';

/** Sends one inline Redis command and resolves with the first reply line. */
function redisCommand(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    socket.once('error', reject);
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().trim());
    });
    socket.connect(port, '127.0.0.1', () => socket.write(`${command}\r\n`));
  });
}

const MACHINE_REDIS = { host: '127.0.0.1', port: 6379 };
const MACHINE_POSTGRES = { host: '127.0.0.1', port: 5432 };

describe('throwaway test services', () => {
  it.runIf(findBinary('redis-server') !== null)(
    'starts redis-server on a free port and stops only it',
    async () => {
      const machineRedisBefore = await isReachable(MACHINE_REDIS.host, MACHINE_REDIS.port);
      const redis = await startThrowawayRedis();
      const { port } = hostPort(redis.url);
      expect(port).not.toBe(MACHINE_REDIS.port);
      expect(await redisCommand(port, 'PING')).toBe('+PONG');
      const dir = (await redisCommand(port, 'CONFIG GET dir')).split('\r\n').at(-1) ?? '';
      expect(dir).toMatch(/sc-test-redis-/);

      await redis.stop();
      expect(await isReachable('127.0.0.1', port)).toBe(false);
      expect(existsSync(dir)).toBe(false);
      expect(await isReachable(MACHINE_REDIS.host, MACHINE_REDIS.port)).toBe(machineRedisBefore);
    },
  );

  it.runIf(findBinary('initdb', debianPostgresDirs()) !== null)(
    'starts PostgreSQL with a test database on a free port and stops only it',
    { timeout: 90_000 },
    async () => {
      const machineBefore = await isReachable(MACHINE_POSTGRES.host, MACHINE_POSTGRES.port);
      const postgres = await startThrowawayPostgres();
      const { port } = hostPort(postgres.url);
      expect(port).not.toBe(MACHINE_POSTGRES.port);
      const client = new pg.Client({ connectionString: postgres.url });
      await client.connect();
      const { rows } = await client.query<{ db: string; dir: string }>(
        "select current_database() as db, current_setting('data_directory') as dir",
      );
      await client.end();
      expect(rows[0]?.db).toBe('test');
      const dataDir = rows[0]?.dir ?? '';
      expect(dataDir).toMatch(/sc-test-postgres-/);

      await postgres.stop();
      expect(await isReachable('127.0.0.1', port)).toBe(false);
      expect(existsSync(dataDir)).toBe(false);
      expect(await isReachable(MACHINE_POSTGRES.host, MACHINE_POSTGRES.port)).toBe(machineBefore);
    },
  );
});
