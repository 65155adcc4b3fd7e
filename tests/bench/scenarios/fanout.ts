/**
 * Fan-out: R rooms × M members, S senders per room at a fixed rate. For SecureChannel and for
 * the bare ws server in the same run: server CPU per delivered message, deliveries per second,
 * share delivered and end-to-end latency. Targets: CPU per delivery ≤ 1.2× bare (≤ 1.4× for many
 * small rooms), every message delivered, p99 ≤ 1.5× bare.
 */
import { BENCH_TTL_SECONDS, OTHER_LOAD_LIMIT, sleep, type BenchContext } from '../context.js';
import { closeAll, connectMany, type BenchClient } from '../load/clients.js';
import { runChatLoad } from '../load/chat-load.js';
import { CpuMeter, OtherLoadMeter } from '../process-stats.js';
import { fixed, percent, times, type Check, type ScenarioReport, type Table } from '../report.js';
import { SERVER_LABEL, type ServerKind } from '../server-process.js';
import { ratio, type Distribution } from '../stats.js';

export interface FanoutConfig {
  label: string;
  rooms: number;
  members: number;
  sendersPerRoom: number;
  ratePerSender: number;
  /** Allowed CPU per delivery, as a multiple of the bare server's. */
  cpuTarget: number;
}

interface FanoutSettings {
  configs: FanoutConfig[];
  warmupMs: number;
  windowMs: number;
  drainMs: number;
  /** Pause after the joins, so that presence traffic is over before the warm-up. */
  settleMs: number;
}

const P99_TARGET = 1.5;

function config(
  rooms: number,
  members: number,
  sendersPerRoom: number,
  ratePerSender: number,
  cpuTarget: number,
): FanoutConfig {
  const label = `${rooms} room${rooms === 1 ? '' : 's'} × ${members}`;
  return { label, rooms, members, sendersPerRoom, ratePerSender, cpuTarget };
}

function settingsFor(isQuick: boolean): FanoutSettings {
  return isQuick
    ? {
        configs: [config(1, 10, 2, 10, 1.2), config(5, 4, 1, 10, 1.4)],
        warmupMs: 300,
        windowMs: 1000,
        drainMs: 300,
        settleMs: 100,
      }
    : {
        // Both configurations expect 10,000 deliveries a second; senders stay at 10 msg/s, half
        // the hub's per-connection limit.
        configs: [config(1, 100, 10, 10, 1.2), config(100, 10, 1, 10, 1.4)],
        warmupMs: 3000,
        windowMs: 10_000,
        drainMs: 2000,
        settleMs: 1000,
      };
}

interface FanoutRun {
  server: ServerKind;
  config: string;
  sent: number;
  expectedDeliveries: number;
  delivered: number;
  deliveredShare: number;
  deliveriesPerSecond: number;
  serverCpuMs: number;
  /** Share of one core the server used over the window. */
  serverCpuShare: number;
  cpuUsPerDelivery: number;
  generatorCpuShare: number;
  /** CPU used by processes other than the bench's during the window (share of one core). */
  otherCpuShare: number;
  framesPerSecond: number;
  errorFrames: number;
  errorSamples: string[];
  botChallenges: number;
  latencyMs: Distribution;
}

async function runOne(
  context: BenchContext,
  kind: ServerKind,
  config: FanoutConfig,
  settings: FanoutSettings,
): Promise<FanoutRun> {
  context.progress(`${config.label}: ${SERVER_LABEL[kind]}`);
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
    await sleep(settings.settleMs);
    let meter: CpuMeter | null = null;
    let other: OtherLoadMeter | null = null;
    let serverCpuMs = 0;
    let serverCpuShare = 0;
    let otherCpuShare = 0;
    const load = await runChatLoad({
      rooms,
      sendersPerRoom: config.sendersPerRoom,
      ratePerSender: config.ratePerSender,
      warmupMs: settings.warmupMs,
      windowMs: settings.windowMs,
      drainMs: settings.drainMs,
      onWindowStart: () => {
        meter = new CpuMeter(server.pid);
        other = new OtherLoadMeter([server.pid, process.pid]);
      },
      onWindowEnd: () => {
        serverCpuMs = meter?.usedMs() ?? 0;
        serverCpuShare = meter?.utilization() ?? 0;
        otherCpuShare = other?.share() ?? 0;
      },
    });
    await closeAll(connected.clients);
    return {
      server: kind,
      config: config.label,
      sent: load.sent,
      expectedDeliveries: load.expectedDeliveries,
      delivered: load.delivered,
      deliveredShare: ratio(load.delivered, load.expectedDeliveries),
      deliveriesPerSecond: (load.receivedInWindow * 1000) / load.windowMs,
      serverCpuMs,
      serverCpuShare,
      cpuUsPerDelivery: ratio(serverCpuMs * 1000, load.receivedInWindow),
      generatorCpuShare: load.generatorCpu,
      otherCpuShare,
      framesPerSecond: (load.framesInWindow * 1000) / load.windowMs,
      errorFrames: load.errorFrames,
      errorSamples: load.errorSamples,
      botChallenges: load.botChallenges,
      latencyMs: load.latency,
    };
  } finally {
    await context.releaseServer(server);
  }
}

function row(run: FanoutRun): string[] {
  return [
    SERVER_LABEL[run.server],
    String(run.sent),
    `${run.delivered}/${run.expectedDeliveries}`,
    percent(run.deliveredShare),
    fixed(run.deliveriesPerSecond, 0),
    fixed(run.framesPerSecond, 0),
    fixed(run.serverCpuShare * 100, 1),
    fixed(run.cpuUsPerDelivery, 2),
    fixed(run.latencyMs.p50, 2),
    fixed(run.latencyMs.p95, 2),
    fixed(run.latencyMs.p99, 2),
    fixed(run.latencyMs.max, 1),
    fixed(run.generatorCpuShare * 100, 0),
    fixed(run.otherCpuShare * 100, 0),
  ];
}

const COLUMNS = [
  'server',
  'sent',
  'delivered/expected',
  'share',
  'deliv/s',
  'frames/s',
  'srv CPU %',
  'CPU µs/deliv',
  'p50 ms',
  'p95 ms',
  'p99 ms',
  'max ms',
  'gen CPU %',
  'other CPU %',
];

export async function runFanout(context: BenchContext): Promise<ScenarioReport> {
  const settings = settingsFor(context.isQuick);
  const tables: Table[] = [];
  const checks: Check[] = [];
  const notes: string[] = [];
  const results: { config: FanoutConfig; runs: FanoutRun[]; cpuRatio: number; p99Ratio: number }[] =
    [];
  for (const config of settings.configs) {
    const secure = await runOne(context, 'securechannel', config, settings);
    const bare = await runOne(context, 'bare', config, settings);
    const cpuRatio = ratio(secure.cpuUsPerDelivery, bare.cpuUsPerDelivery);
    const p99Ratio = ratio(secure.latencyMs.p99, bare.latencyMs.p99);
    results.push({ config, runs: [secure, bare], cpuRatio, p99Ratio });
    const rate = config.rooms * config.sendersPerRoom * config.ratePerSender;
    tables.push({
      title:
        `Fan-out ${config.label}: ${config.sendersPerRoom} sender(s)/room × ${config.ratePerSender} msg/s ` +
        `= ${rate} msg/s in, ${rate * config.members} deliveries/s expected; ` +
        `window ${settings.windowMs / 1000} s after ${settings.warmupMs / 1000} s warm-up`,
      columns: COLUMNS,
      rows: [
        row(secure),
        row(bare),
        [
          'ratio SC/bare',
          '',
          '',
          '',
          '',
          '',
          '',
          times(cpuRatio),
          '',
          '',
          times(p99Ratio),
          '',
          '',
          '',
        ],
      ],
    });
    for (const run of [secure, bare]) {
      if (run.serverCpuShare > 0.9)
        notes.push(`${config.label} ${SERVER_LABEL[run.server]}: server CPU above 90% (saturated)`);
      if (run.generatorCpuShare > 0.8)
        notes.push(
          `${config.label}: load generator above 80% CPU; latency may include its queueing`,
        );
      if (run.otherCpuShare > OTHER_LOAD_LIMIT)
        notes.push(
          `${config.label} ${SERVER_LABEL[run.server]}: other processes used ${percent(run.otherCpuShare, 0)} of a core during the window; its figures are disturbed`,
        );
      if (run.botChallenges > 0)
        notes.push(
          `${config.label} ${SERVER_LABEL[run.server]}: ${run.botChallenges} sender(s) challenged as bots by the abuse control`,
        );
      if (run.errorFrames > 0)
        notes.push(
          `${config.label} ${SERVER_LABEL[run.server]}: ${run.errorFrames} error frames, e.g. ${run.errorSamples[0] ?? ''}`,
        );
    }
    checks.push(
      {
        scenario: 'fanout',
        name: `${config.label}: CPU per delivery`,
        target: `≤ ${config.cpuTarget.toFixed(2)}× bare`,
        actual: `${times(cpuRatio)} (${fixed(secure.cpuUsPerDelivery, 2)} vs ${fixed(bare.cpuUsPerDelivery, 2)} µs)`,
        pass: cpuRatio <= config.cpuTarget,
      },
      {
        scenario: 'fanout',
        name: `${config.label}: every message delivered`,
        target: '100% (below saturation)',
        actual: percent(secure.deliveredShare),
        pass: secure.delivered === secure.expectedDeliveries && secure.expectedDeliveries > 0,
      },
      {
        scenario: 'fanout',
        name: `${config.label}: p99 latency`,
        target: `≤ ${P99_TARGET.toFixed(2)}× bare`,
        actual: `${times(p99Ratio)} (${fixed(secure.latencyMs.p99, 2)} vs ${fixed(bare.latencyMs.p99, 2)} ms)`,
        pass: p99Ratio <= P99_TARGET,
      },
    );
  }
  notes.push(
    'deliv/s counts new_message frames of bench messages; frames/s counts every frame the members received (presence, expiry notices)',
    `message TTL ${BENCH_TTL_SECONDS} s (rate × TTL stays under the 500-message room cap); CPU is utime+stime of the server process over the window, ` +
      'divided by the deliveries received in that window',
  );
  return { scenario: 'fanout', tables, checks, notes, data: { settings, results } };
}
