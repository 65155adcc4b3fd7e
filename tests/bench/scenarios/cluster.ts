/**
 * Cluster (`--cluster`): fan-out and connect + join for four setups in the same run, each on
 * fresh servers: bare ws, SecureChannel in one process without Redis, one process with Redis,
 * and two processes sharing Redis and one PostgreSQL database (members of each room alternate
 * between the processes, so every message crosses Redis to reach half of its room). Server CPU
 * is summed over a setup's processes; redis-server's CPU over the same window is given apart.
 * Every server process is pinned to the one server CPU, so the two-process figures show what
 * going through Redis costs, not how the service scales. Checked: every message is delivered, and
 * (issue 22, target 7) two processes on Redis cost at most 1.5× one process in memory per
 * delivery, counting redis-server's CPU; every other figure is informational.
 */
import { BENCH_TTL_SECONDS, OTHER_LOAD_LIMIT, type BenchContext } from '../context.js';
import { fixed, percent, times, type Check, type ScenarioReport, type Table } from '../report.js';
import { ratio } from '../stats.js';
import {
  connectSettingsFor,
  measureConnect,
  type ConnectRun,
  type ConnectSettings,
} from './connect.js';
import {
  ClusterResources,
  deploy,
  SETUPS,
  type Deployment,
  type Setup,
  type SetupId,
} from './cluster-setups.js';
import {
  derive,
  measureFanout,
  runForJson,
  type FanoutConfig,
  type FanoutRun,
  type FanoutTiming,
} from './fanout-run.js';
import { fanoutSettingsFor, runNotes } from './fanout.js';

interface ClusterSettings {
  /** The fan-out scenario's configurations and timing; one run per setup and configuration. */
  configs: FanoutConfig[];
  timing: FanoutTiming;
  connect: ConnectSettings;
  /** One set of servers per setup for every measurement (quick runs), not one per measurement. */
  reuseServers: boolean;
}

function settingsFor(isQuick: boolean): ClusterSettings {
  const fanout = fanoutSettingsFor(isQuick);
  return {
    configs: fanout.configs,
    timing: fanout.timing,
    connect: connectSettingsFor(isQuick),
    reuseServers: isQuick,
  };
}

/** One measurement: its figures, or why it could not be made. */
type Outcome<T> =
  { setup: Setup; run: T; error: null } | { setup: Setup; run: null; error: string };

/**
 * An error in one line for the notes: its message's first line and, from a server's stack on
 * stderr, the first frame ("at …"), which names the file.
 */
function describe(error: unknown): string {
  const lines = (error instanceof Error ? error.message : String(error))
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const frame = lines.slice(1).find((line) => line.startsWith('at '));
  return [lines[0] ?? 'unknown error', frame].filter(Boolean).join(' ').slice(0, 400);
}

const FAILED = 'failed (see notes)';

/** Issue 22, target 7: CPU per delivery of two processes on Redis ÷ one process in memory. */
export const SCALE_OUT_CPU_TARGET = 1.5;

/**
 * Hands out sets of servers: a fresh set per measurement, or, when servers are reused, one set
 * per setup with enough rooms for every measurement, stopped by close().
 */
class Deployments {
  private readonly kept = new Map<SetupId, Promise<Deployment>>();

  constructor(
    private readonly context: BenchContext,
    private readonly resources: ClusterResources,
    private readonly settings: ClusterSettings,
  ) {}

  private get roomsForAll(): number {
    const { connect } = this.settings;
    const configRooms = this.settings.configs.map((config) => config.rooms);
    return Math.max(...configRooms, Math.ceil(connect.sockets / connect.roomSize));
  }

  /** Runs `measure` on a set of servers of `setup` with at least `rooms` rooms. */
  async with<T>(setup: Setup, rooms: number, measure: (set: Deployment) => Promise<T>) {
    if (this.settings.reuseServers) {
      let set = this.kept.get(setup.id);
      if (!set) {
        set = deploy(this.context, this.resources, setup, this.roomsForAll);
        this.kept.set(setup.id, set);
      }
      return measure(await set);
    }
    const set = await deploy(this.context, this.resources, setup, rooms);
    try {
      return await measure(set);
    } finally {
      await set.stop();
    }
  }

  async close(): Promise<void> {
    const sets = await Promise.allSettled(this.kept.values());
    this.kept.clear();
    const stops = await Promise.allSettled(
      sets.flatMap((set) => (set.status === 'fulfilled' ? [set.value.stop()] : [])),
    );
    const failed = stops.find((stop) => stop.status === 'rejected');
    if (failed) throw failed.reason;
  }
}

async function attempt<T>(setup: Setup, measure: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { setup, run: await measure(), error: null };
  } catch (error) {
    return { setup, run: null, error: describe(error) };
  }
}

const FANOUT_COLUMNS = [
  'setup',
  'delivered/expected',
  'share',
  'deliv/s',
  'srv CPU %',
  'srv µs/deliv',
  'Redis µs/deliv',
  'srv ×bare',
  '+Redis ×bare',
  'p50 ms',
  'p95 ms',
  'p99 ms',
  'max ms',
  'p99 ×bare',
  'gen CPU %',
  'other CPU %',
];

/** "-" where a figure does not apply (no Redis, or the bare row's ratio to itself). */
const NONE = '-';

function fanoutRow(outcome: Outcome<FanoutRun>, bare: FanoutRun | null): string[] {
  if (!outcome.run) return [outcome.setup.label, FAILED];
  const run = outcome.run;
  const figures = derive(run);
  const bareCpu = bare ? derive(bare).cpuUsPerDelivery : Number.NaN;
  const isBare = outcome.setup.id === 'bare';
  const withRedis = figures.cpuUsPerDelivery + (figures.redisCpuUsPerDelivery || 0);
  return [
    outcome.setup.label,
    `${run.delivered}/${run.expectedDeliveries}`,
    percent(figures.deliveredShare),
    fixed(figures.deliveriesPerSecond, 0),
    fixed(figures.serverCpuShare * 100, 1),
    fixed(figures.cpuUsPerDelivery, 2),
    run.redisCpuMs === null ? NONE : fixed(figures.redisCpuUsPerDelivery, 2),
    isBare ? NONE : times(ratio(figures.cpuUsPerDelivery, bareCpu)),
    isBare || run.redisCpuMs === null ? NONE : times(ratio(withRedis, bareCpu)),
    fixed(run.latencyMs.p50, 2),
    fixed(run.latencyMs.p95, 2),
    fixed(run.latencyMs.p99, 2),
    fixed(run.latencyMs.max, 1),
    isBare ? NONE : times(ratio(run.latencyMs.p99, bare?.latencyMs.p99 ?? Number.NaN)),
    fixed(figures.generatorCpuShare * 100, 0),
    fixed(figures.otherCpuShare * 100, 0),
  ];
}

const perJoin = (ms: number | null, joins: number) =>
  ms === null ? NONE : fixed((ms * 1000) / joins, 0);

function connectRow(
  outcome: Outcome<ConnectRun>,
  bare: ConnectRun | null,
  sockets: number,
): string[] {
  if (!outcome.run) return [outcome.setup.label, FAILED];
  const run = outcome.run;
  const isBare = outcome.setup.id === 'bare';
  return [
    outcome.setup.label,
    fixed(run.wallMs / 1000, 2),
    isBare ? NONE : times(ratio(run.wallMs, bare?.wallMs ?? Number.NaN)),
    fixed(run.joinsPerSecond, 0),
    fixed(run.joinMs.p50, 1),
    fixed(run.joinMs.p99, 1),
    fixed(run.joinMs.max, 1),
    fixed(run.serverCpuUsPerJoin, 0),
    isBare ? NONE : times(ratio(run.serverCpuUsPerJoin, bare?.serverCpuUsPerJoin ?? Number.NaN)),
    perJoin(run.redisCpuMs, sockets),
    perJoin(run.databaseCpuMs, sockets),
    fixed(run.otherCpuShare * 100, 0),
  ];
}

/**
 * The scale-out target: CPU per delivery of "SC 2 procs + Redis" (both servers plus
 * redis-server, the whole cost) ÷ "SC 1 proc" (in memory); the servers-only ratio beside it.
 */
function scaleOutCheck(config: FanoutConfig, outcomes: readonly Outcome<FanoutRun>[]): Check {
  const runOf = (id: SetupId) => outcomes.find((outcome) => outcome.setup.id === id)?.run ?? null;
  const single = runOf('single');
  const two = runOf('redis2');
  const check = {
    scenario: 'cluster' as const,
    name: `${config.label}: CPU per delivery, 2 procs + Redis vs 1 proc in memory (servers + redis-server)`,
    target: `≤ ${SCALE_OUT_CPU_TARGET.toFixed(2)}×`,
  };
  if (!single || !two) return { ...check, actual: FAILED, pass: false };
  // A run that lost messages (refused as a bot's when the machine stalls) did less work per
  // delivery than it should have: its ratio is printed, never passed.
  const complete = [single, two].every((run) => run.delivered === run.expectedDeliveries);
  const one = derive(single).cpuUsPerDelivery;
  const { cpuUsPerDelivery: servers, redisCpuUsPerDelivery: redis } = derive(two);
  // Without a visible redis-server its share is unknown: no verdict on the whole cost.
  const whole = servers + redis;
  const wholeRatio = ratio(whole, one);
  return {
    ...check,
    actual:
      `${times(wholeRatio)} (${fixed(whole, 2)} = ${fixed(servers, 2)} servers + ` +
      `${fixed(redis, 2)} Redis vs ${fixed(one, 2)} µs); servers only ${times(ratio(servers, one))}` +
      (complete ? '' : '; not every message was delivered, so no verdict'),
    pass: Number.isFinite(wholeRatio) ? complete && wholeRatio <= SCALE_OUT_CPU_TARGET : null,
  };
}

function fanoutChecks(
  config: FanoutConfig,
  outcomes: readonly Outcome<FanoutRun>[],
  bare: FanoutRun | null,
): Check[] {
  const checks: Check[] = [scaleOutCheck(config, outcomes)];
  for (const outcome of outcomes) {
    const name = `${config.label}, ${outcome.setup.label}`;
    const run = outcome.run;
    checks.push({
      scenario: 'cluster',
      name: `${name}: every message delivered`,
      target: '100%',
      actual: run
        ? `${percent(derive(run).deliveredShare)} (${run.delivered}/${run.expectedDeliveries})`
        : FAILED,
      pass: run !== null && run.expectedDeliveries > 0 && run.delivered === run.expectedDeliveries,
    });
  }
  for (const outcome of outcomes) {
    const run = outcome.run;
    if (outcome.setup.id === 'bare' || !run || !bare) continue;
    const name = `${config.label}, ${outcome.setup.label}`;
    const figures = derive(run);
    const bareFigures = derive(bare);
    const redis =
      run.redisCpuMs === null
        ? ''
        : `; Redis +${fixed(figures.redisCpuUsPerDelivery, 2)} µs, together ${times(
            ratio(
              figures.cpuUsPerDelivery + figures.redisCpuUsPerDelivery,
              bareFigures.cpuUsPerDelivery,
            ),
          )}`;
    checks.push(
      {
        scenario: 'cluster',
        name: `${name}: deliveries/s, server CPU per delivery`,
        target: 'none set (informational)',
        actual:
          `${fixed(figures.deliveriesPerSecond, 0)}/s; ` +
          `${times(ratio(figures.cpuUsPerDelivery, bareFigures.cpuUsPerDelivery))} bare ` +
          `(${fixed(figures.cpuUsPerDelivery, 2)} vs ${fixed(bareFigures.cpuUsPerDelivery, 2)} µs)${redis}`,
        pass: null,
      },
      {
        scenario: 'cluster',
        name: `${name}: p99 latency`,
        target: 'none set (informational)',
        actual: `${times(ratio(run.latencyMs.p99, bare.latencyMs.p99))} bare (${fixed(run.latencyMs.p99, 2)} vs ${fixed(bare.latencyMs.p99, 2)} ms)`,
        pass: null,
      },
    );
  }
  return checks;
}

export async function runCluster(context: BenchContext): Promise<ScenarioReport> {
  const settings = settingsFor(context.isQuick);
  const { timing, connect } = settings;
  const resources = await ClusterResources.open();
  const fanoutResults: { config: FanoutConfig; outcomes: Outcome<FanoutRun>[] }[] = [];
  const connectOutcomes: Outcome<ConnectRun>[] = [];
  try {
    const deployments = new Deployments(context, resources, settings);
    try {
      for (const config of settings.configs) {
        const outcomes: Outcome<FanoutRun>[] = [];
        for (const setup of SETUPS) {
          context.progress(`${config.label}: ${setup.label}`);
          outcomes.push(
            await attempt(setup, () =>
              deployments.with(setup, config.rooms, (set) =>
                measureFanout(set, config, timing, '#1'),
              ),
            ),
          );
        }
        fanoutResults.push({ config, outcomes });
      }
      for (const setup of SETUPS) {
        context.progress(`${setup.label}: ${connect.sockets} sockets connect and join`);
        connectOutcomes.push(
          await attempt(setup, () =>
            deployments.with(setup, Math.ceil(connect.sockets / connect.roomSize), (set) =>
              measureConnect(set, connect),
            ),
          ),
        );
      }
    } finally {
      await deployments.close();
    }
  } finally {
    await resources.close();
  }

  const tables: Table[] = [];
  const checks: Check[] = [];
  const notes: string[] = [];
  for (const { config, outcomes } of fanoutResults) {
    const bare = outcomes.find((outcome) => outcome.setup.id === 'bare')?.run ?? null;
    const rate = config.rooms * config.sendersPerRoom * config.ratePerSender;
    tables.push({
      title:
        `Fan-out ${config.label}: ${config.sendersPerRoom} sender(s)/room × ${config.ratePerSender} msg/s ` +
        `= ${rate} msg/s in, ${rate * config.members} deliveries/s expected; ` +
        `one ${timing.windowMs / 1000} s window after ${timing.warmupMs / 1000} s warm-up per setup`,
      columns: FANOUT_COLUMNS,
      rows: outcomes.map((outcome) => fanoutRow(outcome, bare)),
    });
    checks.push(...fanoutChecks(config, outcomes, bare));
    for (const outcome of outcomes) {
      if (outcome.run)
        notes.push(...runNotes(`${config.label} ${outcome.setup.label}`, outcome.run));
      else notes.push(`${config.label} ${outcome.setup.label}: failed: ${outcome.error}`);
    }
  }

  const bareConnect = connectOutcomes.find((outcome) => outcome.setup.id === 'bare')?.run ?? null;
  tables.push({
    title:
      `Connect + join: ${connect.sockets} sockets, rooms of ${connect.roomSize}, ` +
      `${connect.concurrency} connecting at once`,
    columns: [
      'setup',
      'total s',
      '×bare',
      'joins/s',
      'p50 ms',
      'p99 ms',
      'max ms',
      'srv CPU µs/join',
      'srv ×bare',
      'Redis µs/join',
      'PG µs/join',
      'other CPU %',
    ],
    rows: connectOutcomes.map((outcome) => connectRow(outcome, bareConnect, connect.sockets)),
  });
  for (const outcome of connectOutcomes) {
    const name = `connect ${outcome.setup.label}`;
    if (!outcome.run) notes.push(`${name}: failed: ${outcome.error}`);
    else if (outcome.run.otherCpuShare > OTHER_LOAD_LIMIT)
      notes.push(
        `${name}: other processes used ${percent(outcome.run.otherCpuShare, 0)} of a core meanwhile; its figures are disturbed`,
      );
    if (outcome.setup.id === 'bare') continue;
    checks.push({
      scenario: 'cluster',
      name: `${outcome.setup.label}: time for ${connect.sockets} sockets to connect and join`,
      target: 'none set (informational)',
      actual: outcome.run
        ? `${fixed(outcome.run.wallMs / 1000, 2)} s vs ${fixed((bareConnect?.wallMs ?? Number.NaN) / 1000, 2)} s bare (${times(ratio(outcome.run.wallMs, bareConnect?.wallMs ?? Number.NaN))})`
        : FAILED,
      pass: null,
    });
  }

  notes.push(
    'every server process of every setup is pinned to the one server CPU: the two processes share one core here, so the two-process figures show the cost of going through Redis, not scaling',
    `setups: "SC 1 proc" keeps its state in memory with the embedded database in a data folder on disk (as in the fanout scenario); the Redis setups use Redis (prefix ${resources.runPrefix}<set>:) and a throwaway PostgreSQL database per set of servers, both removed afterwards; ` +
      (settings.reuseServers
        ? 'quick run: one set of servers per setup for every measurement'
        : 'every measurement runs on a fresh set of servers'),
    'two processes: member m of room r is on process (r + m) mod 2, so every message crosses Redis to reach half of its room and senders are on both processes; for connect, consecutive sockets alternate between the processes',
    `srv µs/deliv sums utime+stime of every server process of the setup over the window, divided by the deliveries received in it; Redis µs/deliv is redis-server's CPU over the same window ${
      resources.redisPid === null
        ? '(not measured: its process is not visible here)'
        : `(pid ${resources.redisPid}, not pinned, so on either CPU; it counts every client of that Redis)`
    }; "+Redis ×bare" compares server + Redis with the bare server`,
    'PG µs/join is the CPU of the PostgreSQL backends of the set (a lower bound: a backend that closes meanwhile loses its share); fan-out runs record it in the JSON results only. Redis and PostgreSQL CPU are left out of "other CPU %"',
    `message TTL ${BENCH_TTL_SECONDS} s; deliv/s counts new_message frames of bench messages received in the window`,
  );

  return {
    scenario: 'cluster',
    tables,
    checks,
    notes,
    data: {
      settings,
      setups: SETUPS,
      redisPid: resources.redisPid,
      redisPrefix: resources.runPrefix,
      fanout: fanoutResults.map(({ config, outcomes }) => ({
        config,
        runs: outcomes.map((outcome) => ({
          setup: outcome.setup.id,
          error: outcome.error,
          run: outcome.run ? runForJson(outcome.run) : null,
        })),
      })),
      connect: connectOutcomes.map((outcome) => ({
        setup: outcome.setup.id,
        error: outcome.error,
        run: outcome.run,
      })),
    },
  };
}
