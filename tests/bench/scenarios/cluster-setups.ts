/**
 * The four setups of the cluster scenario and how each is started and removed again: bare ws,
 * SecureChannel in one process (state in memory, the embedded database on disk), one process
 * with Redis, and two processes sharing Redis. The Redis setups get a throwaway PostgreSQL
 * database and a Redis key prefix of their own per set of servers; stopping a set drops both.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { connectRedis, type RedisHandles } from '../../../server/redis/connect.js';
import { createThrowawayPostgres, POSTGRES_ADMIN_URL } from '../../support/database.js';
import { deletePrefix, REDIS_TEST_URL } from '../../support/redis.js';
import type { BenchContext } from '../context.js';
import type { RunningServer, ServerKind } from '../server-process.js';
import type { ServiceTarget } from '../target.js';

export type SetupId = 'bare' | 'single' | 'redis' | 'redis2';

export interface Setup {
  id: SetupId;
  label: string;
  kind: ServerKind;
  processes: number;
  usesRedis: boolean;
}

export const SETUPS: readonly Setup[] = [
  { id: 'bare', label: 'bare ws', kind: 'bare', processes: 1, usesRedis: false },
  { id: 'single', label: 'SC 1 proc', kind: 'securechannel', processes: 1, usesRedis: false },
  {
    id: 'redis',
    label: 'SC 1 proc + Redis',
    kind: 'securechannel',
    processes: 1,
    usesRedis: true,
  },
  {
    id: 'redis2',
    label: 'SC 2 procs + Redis',
    kind: 'securechannel',
    processes: 2,
    usesRedis: true,
  },
];

/** A running set of servers of one setup. */
export interface Deployment extends ServiceTarget {
  setup: Setup;
  /** The Redis key prefix of this set (null without Redis). */
  redisPrefix: string | null;
  /** Stops the servers, deletes the set's Redis keys and drops its database. */
  stop(): Promise<void>;
}

/** Runs every step, even after one fails; then throws the first failure. */
async function runAll(steps: readonly (() => Promise<void>)[]): Promise<void> {
  let failure: unknown = null;
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure !== null) throw failure;
}

/** The pid of the redis-server answering `handles`, when that process is visible here. */
async function redisServerPid(handles: RedisHandles): Promise<number | null> {
  const info = await handles.client.info('server');
  const pid = Number(/^process_id:(\d+)/m.exec(info)?.[1]);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    // Redis in another container or on another machine would name an unrelated local process.
    return readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('redis') ? pid : null;
  } catch {
    return null;
  }
}

/**
 * What the scenario shares across its setups: one Redis connection (clean-up, redis-server's
 * pid), one PostgreSQL connection to list a database's backends, and the run's key prefix.
 */
export class ClusterResources {
  private sets = 0;

  private constructor(
    private readonly redis: RedisHandles,
    private readonly admin: pg.Client,
    /** Every key of this run starts with it: `scbench:<random>:`. */
    readonly runPrefix: string,
    readonly redisPid: number | null,
  ) {}

  static async open(): Promise<ClusterResources> {
    const runPrefix = `scbench:${randomBytes(4).toString('hex')}:`;
    const redis = await connectRedis(REDIS_TEST_URL, runPrefix);
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    try {
      await admin.connect();
      return new ClusterResources(redis, admin, runPrefix, await redisServerPid(redis));
    } catch (error) {
      await redis.close();
      await admin.end().catch(() => undefined);
      throw error;
    }
  }

  /**
   * A fresh prefix for one set of servers. Each set starts with empty Redis state, the global
   * per-address HTTP limit's counters included.
   */
  nextPrefix(): string {
    this.sets += 1;
    return `${this.runPrefix}${this.sets}:`;
  }

  deletePrefix(prefix: string): Promise<void> {
    return deletePrefix(this.redis, prefix);
  }

  /** The PostgreSQL backends connected to database `name`. */
  async databasePids(name: string): Promise<number[]> {
    const result = await this.admin.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = $1',
      [name],
    );
    return result.rows.map((row) => row.pid);
  }

  /** Deletes whatever is left under the run's prefix and closes the connections. */
  async close(): Promise<void> {
    await runAll([
      () => deletePrefix(this.redis, this.runPrefix),
      () => this.redis.close(),
      () => this.admin.end(),
    ]);
  }
}

/**
 * What a set of servers shares: a throwaway PostgreSQL database and a fresh Redis prefix. Their
 * removal goes onto `cleanup`, which the caller runs last-first after stopping the servers.
 */
export async function sharedState(
  resources: ClusterResources,
  cleanup: (() => Promise<void>)[],
): Promise<{ env: Record<string, string>; databaseName: string; prefix: string }> {
  const database = await createThrowawayPostgres();
  cleanup.push(database.drop);
  const prefix = resources.nextPrefix();
  cleanup.push(() => resources.deletePrefix(prefix));
  return {
    env: { DATABASE_URL: database.url, REDIS_URL: REDIS_TEST_URL, REDIS_PREFIX: prefix },
    databaseName: new URL(database.url).pathname.slice(1),
    prefix,
  };
}

/**
 * Starts a set of servers of `setup` with `rooms` rooms (room 0, the default room, included).
 * With two processes the first creates the rooms in the shared database and the second starts
 * with none of its own; both serve every room. Fails cleanly: whatever was started is removed.
 */
export async function deploy(
  context: BenchContext,
  resources: ClusterResources,
  setup: Setup,
  rooms: number,
): Promise<Deployment> {
  // Clean-up steps, run last-first: servers, then Redis keys, then the database.
  const cleanup: (() => Promise<void>)[] = [];
  const stop = () => runAll([...cleanup].reverse());
  const release = (server: RunningServer) => cleanup.push(() => context.releaseServer(server));
  try {
    if (!setup.usesRedis) {
      const server = await context.startFreshServer(setup.kind, rooms);
      release(server);
      return {
        setup,
        kind: setup.kind,
        servers: [server],
        rooms: server.rooms,
        redisPid: null,
        databasePids: null,
        redisPrefix: null,
        stop,
      };
    }
    const { env, databaseName, prefix } = await sharedState(resources, cleanup);
    const first = await context.startFreshServer(setup.kind, rooms, env);
    release(first);
    const servers = [first];
    while (servers.length < setup.processes) {
      const next = await context.startFreshServer(setup.kind, 1, env);
      release(next);
      servers.push(next);
    }
    return {
      setup,
      kind: setup.kind,
      servers,
      rooms: first.rooms,
      redisPid: resources.redisPid,
      databasePids: () => resources.databasePids(databaseName),
      redisPrefix: prefix,
      stop,
    };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
