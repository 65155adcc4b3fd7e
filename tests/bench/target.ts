/**
 * What one measurement runs against: the processes of one service (one server, or several
 * SecureChannel processes sharing a database and a Redis prefix), and the meter that reads their
 * CPU over a window together with redis-server's, the database backends' and everyone else's.
 */
import { cpuMs, cpuMsOrZero, OtherLoadMeter } from './process-stats.js';
import type { RunningServer, ServerKind } from './server-process.js';

export interface ServiceTarget {
  kind: ServerKind;
  /** The service's processes (at least one). */
  servers: readonly RunningServer[];
  /** Room ids any of the processes can join; [0] is the default room. */
  rooms: readonly string[];
  /** redis-server's pid when the service uses Redis and that process is visible here. */
  redisPid: number | null;
  /** Lists the PostgreSQL backends serving the service now; null without PostgreSQL. */
  databasePids: (() => Promise<number[]>) | null;
}

/** The service's PostgreSQL backends now (none without PostgreSQL). */
export function listDatabasePids(target: ServiceTarget): Promise<number[]> {
  return target.databasePids ? target.databasePids() : Promise.resolve([]);
}

/** One server process on its own. */
export function singleServer(server: RunningServer): ServiceTarget {
  return {
    kind: server.kind,
    servers: [server],
    rooms: server.rooms,
    redisPid: null,
    databasePids: null,
  };
}

/**
 * The process that member `member` of room `room` connects to: members of a room alternate
 * between the processes, each room starting one process further, so that with several processes
 * every room has members (and senders, who are a room's first members) on each of them.
 */
export function processFor(target: ServiceTarget, room: number, member: number): RunningServer {
  return target.servers[(room + member) % target.servers.length]!;
}

/**
 * Where sockets come from: the source-address counter of the service's first process, for every
 * process (processes sharing Redis share one per-address HTTP limit).
 */
export function addressCounter(target: ServiceTarget): RunningServer {
  return target.servers[0]!;
}

/** CPU over one window, in ms; null where that process was not measured. */
export interface ServiceCpu {
  wallMs: number;
  /** Sum over every server process of the service. */
  serverCpuMs: number;
  redisCpuMs: number | null;
  /**
   * PostgreSQL backends of the service. A lower bound: a backend that ended inside the window
   * loses what it used since the start.
   */
  databaseCpuMs: number | null;
  /** CPU used by every other process on the machine (the load generator excluded). */
  otherCpuMs: number;
}

export class ServiceMeter {
  private readonly startWall = performance.now();
  private readonly serverStart: Map<number, number>;
  private readonly redisStart: number | null;
  private readonly databaseStart: Map<number, number>;
  private readonly other: OtherLoadMeter;

  /** Starts metering now; `databasePids` as listed just before (listDatabasePids). */
  constructor(
    private readonly target: ServiceTarget,
    databasePids: readonly number[],
  ) {
    const pids = target.servers.map((server) => server.pid);
    this.serverStart = new Map(pids.map((pid) => [pid, cpuMs(pid)]));
    this.redisStart = target.redisPid === null ? null : cpuMsOrZero(target.redisPid);
    this.databaseStart = new Map(databasePids.map((pid) => [pid, cpuMsOrZero(pid)]));
    this.other = new OtherLoadMeter([...pids, process.pid]);
  }

  /** Lists the database backends, then starts metering. */
  static async start(target: ServiceTarget): Promise<ServiceMeter> {
    return new ServiceMeter(target, await listDatabasePids(target));
  }

  /**
   * CPU since the start. `laterDatabasePids`: backends listed now; those that were not there at
   * the start count with all their CPU (they began inside the window).
   */
  read(laterDatabasePids: readonly number[] = []): ServiceCpu {
    const wallMs = performance.now() - this.startWall;
    let serverCpuMs = 0;
    for (const [pid, start] of this.serverStart) serverCpuMs += cpuMs(pid) - start;
    const redisCpuMs =
      this.redisStart === null || this.target.redisPid === null
        ? null
        : cpuMsOrZero(this.target.redisPid) - this.redisStart;
    let databaseCpuMs = 0;
    for (const [pid, start] of this.databaseStart) {
      const now = cpuMsOrZero(pid);
      if (now >= start) databaseCpuMs += now - start;
    }
    for (const pid of laterDatabasePids) {
      if (!this.databaseStart.has(pid)) databaseCpuMs += cpuMsOrZero(pid);
    }
    const known = (redisCpuMs ?? 0) + databaseCpuMs;
    return {
      wallMs,
      serverCpuMs,
      redisCpuMs,
      databaseCpuMs: this.target.databasePids ? databaseCpuMs : null,
      otherCpuMs: this.other.share(known) * wallMs,
    };
  }
}
