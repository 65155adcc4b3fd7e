/**
 * One fan-out measurement: R rooms × M members on a service (a fresh server of one kind, or
 * several processes of one service), chat load, and the service's CPU over the window; and the
 * pooling of several such runs.
 */
import { sleep, type BenchContext } from '../context.js';
import { closeAll, connectMany, type BenchClient } from '../load/clients.js';
import { runChatLoad, type ChatLoadResult } from '../load/chat-load.js';
import { readFileSync } from 'node:fs';
import { MAJOR_GC_KINDS, readGcPauses } from '../gc-on-signal.js';
import { SERVER_LABEL, type ServerKind } from '../server-process.js';
import { distribution, ratio, type Distribution } from '../stats.js';
import {
  addressCounter,
  listDatabasePids,
  processFor,
  ServiceMeter,
  singleServer,
  type ServiceCpu,
  type ServiceTarget,
} from '../target.js';

export interface FanoutConfig {
  label: string;
  rooms: number;
  members: number;
  sendersPerRoom: number;
  ratePerSender: number;
  /** Allowed CPU per delivery, as a multiple of the bare server's. */
  cpuTarget: number;
  /** Allowed p99 latency, as a multiple of the bare server's (default 1.5). */
  p99Target?: number;
}

export interface FanoutTiming {
  warmupMs: number;
  windowMs: number;
  drainMs: number;
  /** Pause after the joins, so that presence traffic is over before the warm-up. */
  settleMs: number;
}

/** Raw figures of one run (or of several pooled), all additive. */
export interface FanoutRun {
  server: ServerKind;
  /** "#1", "#2" … for one round, "all" when pooled. */
  round: string;
  windowMs: number;
  sent: number;
  expectedDeliveries: number;
  delivered: number;
  receivedInWindow: number;
  framesInWindow: number;
  /** CPU of the service's server processes over the window, summed. */
  serverCpuMs: number;
  /** redis-server's CPU over the window (null: no Redis, or not measured). */
  redisCpuMs: number | null;
  /** The PostgreSQL backends' CPU over the window (null: no PostgreSQL). */
  databaseCpuMs: number | null;
  generatorCpuMs: number;
  /** CPU used by processes other than the bench's during the window. */
  otherCpuMs: number;
  errorFrames: number;
  errorSamples: string[];
  botChallenges: number;
  latencyMs: Distribution;
  /** Every latency sample (kept out of the JSON results). */
  latencies: Float64Array;
  /** The servers' garbage collections that started in the window: count, pause ms summed. */
  gcCount: number;
  gcMs: number;
  /** The longest of those pauses, ms. */
  gcMaxMs: number;
  /** Of those, the full (mark-sweep-compact) collections: count, pause ms summed. */
  gcMajorCount: number;
  gcMajorMs: number;
  /**
   * How long the servers' main threads were runnable but waited for a CPU during the window (ms,
   * `/proc/<pid>/schedstat`): the time other processes took from them.
   */
  runQueueMs: number;
  /** Deliveries slower than the run's own p99, their latency summed (ms). */
  slowDeliveries: number;
  slowMs: number;
  /** Of {@link slowMs}, the time a server was paused for GC while they were in flight (ms). */
  slowGcMs: number;
}

/** Time the thread `pid` has waited on a run queue so far, ms (0 when unreadable). */
function runQueueWaitMs(pid: number): number {
  try {
    const [, waitNs = '0'] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(' ');
    return Number(waitNs) / 1e6;
  } catch {
    return 0;
  }
}

/**
 * The servers' GC pauses in the window (gc-on-signal.ts), and how much of the time the deliveries
 * above the run's p99 spent in flight (sent, not yet received) a server spent paused for GC. Both
 * clocks are read as wall-clock ms (each process's `performance.timeOrigin` plus its monotonic
 * time).
 */
function gcFigures(target: ServiceTarget, load: ChatLoadResult, p99: number) {
  const from = performance.timeOrigin + load.windowStartedAt;
  const to = from + load.windowMs;
  const pauses = target.servers
    .flatMap((server) => readGcPauses(server.pid))
    .filter(([start]) => start >= from && start < to)
    .sort((a, b) => a[0] - b[0]);
  // A major collection's pauses: its incremental marking steps and its final mark-compact.
  const majors = pauses.filter(([, , kind]) => MAJOR_GC_KINDS.has(kind));
  const latencies = load.latencySamples();
  const sentAt = load.sendTimeSamples();
  let slowDeliveries = 0;
  let slowMs = 0;
  let slowGcMs = 0;
  for (let i = 0; i < latencies.length; i += 1) {
    const latency = latencies[i]!;
    if (latency <= p99) continue;
    slowDeliveries += 1;
    slowMs += latency;
    const sent = performance.timeOrigin + sentAt[i]!;
    const received = sent + latency;
    for (const [start, duration] of pauses) {
      const overlap = Math.min(received, start + duration) - Math.max(sent, start);
      if (overlap > 0) slowGcMs += overlap;
    }
  }
  return {
    gcCount: pauses.length,
    gcMs: pauses.reduce((sum, [, duration]) => sum + duration, 0),
    gcMaxMs: pauses.reduce((max, [, duration]) => Math.max(max, duration), 0),
    gcMajorCount: majors.length,
    gcMajorMs: majors.reduce((sum, [, duration]) => sum + duration, 0),
    slowDeliveries,
    slowMs,
    slowGcMs,
  };
}

export async function runFanoutOnce(
  context: BenchContext,
  kind: ServerKind,
  config: FanoutConfig,
  timing: FanoutTiming,
  round: number,
): Promise<FanoutRun> {
  context.progress(`${config.label}: ${SERVER_LABEL[kind]} #${round}`);
  const server = await context.acquireServer(kind, config.rooms);
  try {
    return await measureFanout(singleServer(server), config, timing, `#${round}`);
  } finally {
    await context.releaseServer(server);
  }
}

/**
 * One fan-out run on a running service: connects and joins the members (member m of room r on
 * processFor(target, r, m)), lets presence settle, runs the chat load, closes the members.
 */
export async function measureFanout(
  target: ServiceTarget,
  config: FanoutConfig,
  timing: FanoutTiming,
  round: string,
): Promise<FanoutRun> {
  if (target.rooms.length < config.rooms)
    throw new Error(
      `${config.label} needs ${config.rooms} rooms, the service has ${target.rooms.length}`,
    );
  const roomOf = (index: number) => Math.floor(index / config.members);
  const connected = await connectMany({
    server: addressCounter(target),
    serverFor: (index) => processFor(target, roomOf(index), index % config.members),
    count: config.rooms * config.members,
    roomFor: (index) => target.rooms[roomOf(index)]!,
    concurrency: 100,
  });
  try {
    const rooms: BenchClient[][] = [];
    for (let room = 0; room < config.rooms; room += 1) {
      rooms.push(connected.clients.slice(room * config.members, (room + 1) * config.members));
    }
    await sleep(timing.settleMs);
    const databasePids = await listDatabasePids(target);
    let meter: ServiceMeter | null = null;
    const inWindow: { cpu: ServiceCpu | null; waitMs: number } = { cpu: null, waitMs: 0 };
    const waited = () =>
      target.servers.reduce((sum, server) => sum + runQueueWaitMs(server.pid), 0);
    const load = await runChatLoad({
      rooms,
      sendersPerRoom: config.sendersPerRoom,
      ratePerSender: config.ratePerSender,
      ...timing,
      onWindowStart: () => {
        meter = new ServiceMeter(target, databasePids);
        inWindow.waitMs = -waited();
      },
      onWindowEnd: () => {
        inWindow.cpu = meter?.read() ?? null;
        inWindow.waitMs += waited();
      },
    });
    const measured = inWindow.cpu;
    return {
      server: target.kind,
      round,
      windowMs: load.windowMs,
      sent: load.sent,
      expectedDeliveries: load.expectedDeliveries,
      delivered: load.delivered,
      receivedInWindow: load.receivedInWindow,
      framesInWindow: load.framesInWindow,
      serverCpuMs: measured?.serverCpuMs ?? 0,
      redisCpuMs: measured?.redisCpuMs ?? null,
      databaseCpuMs: measured?.databaseCpuMs ?? null,
      generatorCpuMs: load.generatorCpuMs,
      otherCpuMs: measured?.otherCpuMs ?? 0,
      errorFrames: load.errorFrames,
      errorSamples: load.errorSamples,
      botChallenges: load.botChallenges,
      latencyMs: load.latency,
      latencies: load.latencySamples(),
      ...gcFigures(target, load, load.latency.p99),
      runQueueMs: inWindow.waitMs,
    };
  } finally {
    await closeAll(connected.clients);
  }
}

/** Several runs of one server as one: sums, and the latency distribution of all samples. */
export function poolRuns(runs: readonly FanoutRun[]): FanoutRun {
  const sum = (pick: (run: FanoutRun) => number) => runs.reduce((a, run) => a + pick(run), 0);
  const sumOrNull = (pick: (run: FanoutRun) => number | null) =>
    runs.some((run) => pick(run) === null) ? null : sum((run) => pick(run) ?? 0);
  const latencies = new Float64Array(sum((run) => run.latencies.length));
  let offset = 0;
  for (const run of runs) {
    latencies.set(run.latencies, offset);
    offset += run.latencies.length;
  }
  return {
    server: runs[0]!.server,
    round: 'all',
    windowMs: sum((run) => run.windowMs),
    sent: sum((run) => run.sent),
    expectedDeliveries: sum((run) => run.expectedDeliveries),
    delivered: sum((run) => run.delivered),
    receivedInWindow: sum((run) => run.receivedInWindow),
    framesInWindow: sum((run) => run.framesInWindow),
    serverCpuMs: sum((run) => run.serverCpuMs),
    redisCpuMs: sumOrNull((run) => run.redisCpuMs),
    databaseCpuMs: sumOrNull((run) => run.databaseCpuMs),
    generatorCpuMs: sum((run) => run.generatorCpuMs),
    otherCpuMs: sum((run) => run.otherCpuMs),
    errorFrames: sum((run) => run.errorFrames),
    errorSamples: runs.flatMap((run) => run.errorSamples).slice(0, 5),
    botChallenges: sum((run) => run.botChallenges),
    latencyMs: distribution(latencies),
    latencies,
    gcCount: sum((run) => run.gcCount),
    gcMs: sum((run) => run.gcMs),
    gcMaxMs: runs.reduce((max, run) => Math.max(max, run.gcMaxMs), 0),
    runQueueMs: sum((run) => run.runQueueMs),
    gcMajorCount: sum((run) => run.gcMajorCount),
    gcMajorMs: sum((run) => run.gcMajorMs),
    slowDeliveries: sum((run) => run.slowDeliveries),
    slowMs: sum((run) => run.slowMs),
    slowGcMs: sum((run) => run.slowGcMs),
  };
}

/** Figures derived from a run, as the table shows them. */
export function derive(run: FanoutRun) {
  return {
    deliveredShare: ratio(run.delivered, run.expectedDeliveries),
    deliveriesPerSecond: (run.receivedInWindow * 1000) / run.windowMs,
    framesPerSecond: (run.framesInWindow * 1000) / run.windowMs,
    serverCpuShare: run.serverCpuMs / run.windowMs,
    cpuUsPerDelivery: ratio(run.serverCpuMs * 1000, run.receivedInWindow),
    redisCpuUsPerDelivery:
      run.redisCpuMs === null ? Number.NaN : ratio(run.redisCpuMs * 1000, run.receivedInWindow),
    databaseCpuUsPerDelivery:
      run.databaseCpuMs === null
        ? Number.NaN
        : ratio(run.databaseCpuMs * 1000, run.receivedInWindow),
    generatorCpuShare: run.generatorCpuMs / run.windowMs,
    otherCpuShare: run.otherCpuMs / run.windowMs,
  };
}

/** A run for the JSON results: raw and derived figures, without the latency samples. */
export function runForJson(run: FanoutRun) {
  const { latencies: _latencies, ...figures } = run;
  return { ...figures, ...derive(run) };
}
