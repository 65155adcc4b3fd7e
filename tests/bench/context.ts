/**
 * What every scenario gets from the runner: the run's settings, progress output and servers.
 * A full run starts a fresh server process for every measurement. A quick run (a smoke test of
 * the harness) keeps one server of each kind for the whole run, because starting SecureChannel
 * (PGlite's in-memory initdb and migrations) takes about five seconds on one pinned core.
 */
import { randomBytes } from 'node:crypto';
import {
  startServer,
  type RunningServer,
  type ServerKind,
  type ServerOptions,
} from './server-process.js';

/**
 * Message lifetime on bench servers. Short enough that a room's held messages (rate × TTL, at
 * most 100 msg/s × 4 s = 400 here) stay under the 500-message room cap, beyond which every new
 * message would also evict one and send an extra messages_expired frame (docs/decisions.md).
 */
export const BENCH_TTL_SECONDS = 4;
/** Above this share of a core used by other processes, a window's figures are flagged. */
export const OTHER_LOAD_LIMIT = 0.05;
/** Rooms the shared server of a quick run holds: enough for every quick scenario. */
const QUICK_ROOMS = 40;

export interface BenchContext {
  isQuick: boolean;
  /** The admin password every server under test starts with (random per run). */
  adminPassword: string;
  /** The CPU servers are pinned to, and the CPU of the load generator. */
  serverCpu: number;
  generatorCpu: number;
  /** Prints a progress line. */
  progress(message: string): void;
  /** A server of `kind` with at least `rooms` rooms (room 0 included), idle. */
  acquireServer(kind: ServerKind, rooms: number): Promise<RunningServer>;
  /**
   * A fresh server of `kind`, never shared, with `rooms` rooms (room 0 included) and `env` added
   * to the bench's (DATABASE_URL, REDIS_URL …), `idlePriority` as in ServerOptions. releaseServer
   * stops it, in a quick run too.
   */
  startFreshServer(
    kind: ServerKind,
    rooms: number,
    env?: Record<string, string>,
    options?: Pick<ServerOptions, 'idlePriority'>,
  ): Promise<RunningServer>;
  /**
   * Hands a server back: a full run stops it, a quick run keeps a shared one for the next
   * scenario.
   */
  releaseServer(server: RunningServer): Promise<void>;
  /** Stops whatever is still running. */
  close(): Promise<void>;
}

export function createContext(isQuick: boolean, profileDir: string | null): BenchContext {
  const adminPassword = `bench-${randomBytes(12).toString('hex')}`;
  const shared = new Map<ServerKind, Promise<RunningServer>>();
  const sharedServers = new Set<RunningServer>();
  const running = new Set<RunningServer>();
  const start = async (
    kind: ServerKind,
    rooms: number,
    env: Record<string, string> = {},
    options: Pick<ServerOptions, 'idlePriority'> = {},
  ) => {
    const server = await startServer({
      kind,
      rooms: rooms - 1,
      cpu: 0,
      profileDir,
      ...options,
      env: {
        ADMIN_PASSWORD: adminPassword,
        MESSAGE_TTL_SECONDS: String(BENCH_TTL_SECONDS),
        ...env,
      },
    });
    running.add(server);
    return server;
  };
  return {
    isQuick,
    adminPassword,
    serverCpu: 0,
    generatorCpu: 1,
    progress: (message) => process.stdout.write(`  · ${message}\n`),
    acquireServer: async (kind, rooms) => {
      if (!isQuick) return start(kind, rooms);
      if (rooms > QUICK_ROOMS)
        throw new Error(`a quick run has ${QUICK_ROOMS} rooms, not ${rooms}`);
      let server = shared.get(kind);
      if (!server) {
        server = start(kind, QUICK_ROOMS).then((started) => {
          sharedServers.add(started);
          return started;
        });
        shared.set(kind, server);
      }
      return server;
    },
    startFreshServer: (kind, rooms, env, options) => start(kind, rooms, env, options),
    releaseServer: async (server) => {
      if (sharedServers.has(server)) return;
      running.delete(server);
      await server.stop();
    },
    close: async () => {
      await Promise.all([...running].map((server) => server.stop()));
      running.clear();
    },
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
