/**
 * Two (or more) real server processes sharing one throwaway PostgreSQL database and one Redis
 * key prefix: what the scale-out suites start in `beforeAll` and remove in `afterAll`. Processes
 * started later (`start`) are stopped with the others.
 */
import { connectRedis } from '../../server/redis/connect.js';
import { createThrowawayPostgres } from './database.js';
import { startServerProcess, type ServerProcess } from './processes.js';
import { deletePrefix, REDIS_TEST_URL, testPrefix } from './redis.js';

export interface ProcessesOnRedis {
  servers: ServerProcess[];
  /** Starts one more process on the same database and prefix (a restart's replacement). */
  start: () => Promise<ServerProcess>;
  /** Kills the processes, deletes the Redis prefix and drops the database. */
  stop: () => Promise<void>;
}

/** Starts `count` processes of the real server on one database and one Redis prefix. */
export async function startProcessesOnRedis(
  count: number,
  env: Record<string, string>,
): Promise<ProcessesOnRedis> {
  const database = await createThrowawayPostgres();
  const prefix = testPrefix();
  const shared = {
    DATABASE_URL: database.url,
    REDIS_URL: REDIS_TEST_URL,
    REDIS_PREFIX: prefix,
    LOG_LEVEL: 'info',
    ...env,
  };
  const servers = await Promise.all(
    Array.from({ length: count }, () => startServerProcess(shared, 100_000)),
  );
  return {
    servers,
    start: async () => {
      const server = await startServerProcess(shared, 100_000);
      servers.push(server);
      return server;
    },
    stop: async () => {
      await Promise.all(servers.map((server) => server.stop('SIGKILL')));
      const redis = await connectRedis(REDIS_TEST_URL, prefix);
      await deletePrefix(redis, prefix);
      await redis.close();
      await database.drop();
    },
  };
}
