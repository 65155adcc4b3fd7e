/**
 * One fan-out measurement: a fresh server of one kind, R rooms × M members, chat load, and the
 * server's CPU over the window; and the pooling of several such runs.
 */
import { sleep, type BenchContext } from '../context.js';
import { closeAll, connectMany, type BenchClient } from '../load/clients.js';
import { runChatLoad } from '../load/chat-load.js';
import { CpuMeter, OtherLoadMeter } from '../process-stats.js';
import { SERVER_LABEL, type ServerKind } from '../server-process.js';
import { distribution, ratio, type Distribution } from '../stats.js';

export interface FanoutConfig {
  label: string;
  rooms: number;
  members: number;
  sendersPerRoom: number;
  ratePerSender: number;
  /** Allowed CPU per delivery, as a multiple of the bare server's. */
  cpuTarget: number;
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
  serverCpuMs: number;
  generatorCpuMs: number;
  /** CPU used by processes other than the bench's during the window. */
  otherCpuMs: number;
  errorFrames: number;
  errorSamples: string[];
  botChallenges: number;
  latencyMs: Distribution;
  /** Every latency sample (kept out of the JSON results). */
  latencies: Float64Array;
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
    const connected = await connectMany({
      server,
      count: config.rooms * config.members,
      roomFor: (index) => server.rooms[Math.floor(index / config.members)]!,
      concurrency: 100,
    });
    const rooms: BenchClient[][] = [];
    for (let room = 0; room < config.rooms; room += 1) {
      rooms.push(connected.clients.slice(room * config.members, (room + 1) * config.members));
    }
    await sleep(timing.settleMs);
    let meter: CpuMeter | null = null;
    let other: OtherLoadMeter | null = null;
    let serverCpuMs = 0;
    let otherCpuMs = 0;
    const load = await runChatLoad({
      rooms,
      sendersPerRoom: config.sendersPerRoom,
      ratePerSender: config.ratePerSender,
      ...timing,
      onWindowStart: () => {
        meter = new CpuMeter(server.pid);
        other = new OtherLoadMeter([server.pid, process.pid]);
      },
      onWindowEnd: () => {
        serverCpuMs = meter?.usedMs() ?? 0;
        otherCpuMs = (other?.share() ?? 0) * timing.windowMs;
      },
    });
    await closeAll(connected.clients);
    return {
      server: kind,
      round: `#${round}`,
      windowMs: load.windowMs,
      sent: load.sent,
      expectedDeliveries: load.expectedDeliveries,
      delivered: load.delivered,
      receivedInWindow: load.receivedInWindow,
      framesInWindow: load.framesInWindow,
      serverCpuMs,
      generatorCpuMs: load.generatorCpuMs,
      otherCpuMs,
      errorFrames: load.errorFrames,
      errorSamples: load.errorSamples,
      botChallenges: load.botChallenges,
      latencyMs: load.latency,
      latencies: load.latencySamples(),
    };
  } finally {
    await context.releaseServer(server);
  }
}

/** Several runs of one server as one: sums, and the latency distribution of all samples. */
export function poolRuns(runs: readonly FanoutRun[]): FanoutRun {
  const sum = (pick: (run: FanoutRun) => number) => runs.reduce((a, run) => a + pick(run), 0);
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
    generatorCpuMs: sum((run) => run.generatorCpuMs),
    otherCpuMs: sum((run) => run.otherCpuMs),
    errorFrames: sum((run) => run.errorFrames),
    errorSamples: runs.flatMap((run) => run.errorSamples).slice(0, 5),
    botChallenges: sum((run) => run.botChallenges),
    latencyMs: distribution(latencies),
    latencies,
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
    generatorCpuShare: run.generatorCpuMs / run.windowMs,
    otherCpuShare: run.otherCpuMs / run.windowMs,
  };
}

/** A run for the JSON results: raw and derived figures, without the latency samples. */
export function runForJson(run: FanoutRun) {
  const { latencies: _latencies, ...figures } = run;
  return { ...figures, ...derive(run) };
}
