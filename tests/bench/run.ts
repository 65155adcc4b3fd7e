/**
 * `npm run bench`: runs the benchmark scenarios against SecureChannel and a bare `ws` baseline on
 * 127.0.0.1, prints a table per scenario and a summary of targets, and writes the results as
 * JSON. Servers run as child processes pinned to CPU 0; this process (the load generator) pins
 * itself to CPU 1. Never part of `npm test`.
 */
import os from 'node:os';
import { parseArgs, USAGE, type ScenarioName } from './args.js';
import { createContext, OTHER_LOAD_LIMIT, sleep, type BenchContext } from './context.js';
import { OtherLoadMeter, pinSelf, raisePriority } from './process-stats.js';
import { formatScenario, formatSummary, writeResults, type ScenarioReport } from './report.js';
import { runBundle } from './scenarios/bundle.js';
import { runCluster } from './scenarios/cluster.js';
import { runConnect } from './scenarios/connect.js';
import { runCrypto } from './scenarios/crypto.js';
import { runFanout } from './scenarios/fanout.js';
import { runLogins } from './scenarios/logins.js';
import { runMemory } from './scenarios/memory.js';
import { runFaults } from './scenarios/faults.js';
import { runPong } from './scenarios/pong.js';
import { runSoak } from './scenarios/soak.js';

const RUNNERS: Record<
  Exclude<ScenarioName, 'soak'>,
  (context: BenchContext) => Promise<ScenarioReport>
> = {
  fanout: runFanout,
  memory: runMemory,
  connect: runConnect,
  logins: runLogins,
  crypto: runCrypto,
  cluster: runCluster,
  pong: runPong,
  bundle: runBundle,
  faults: runFaults,
};

/** Servers and load generator run at this nice value when allowed (they inherit it). */
const BENCH_NICE = -10;

/** Nothing in a run may take longer than this; the bench stops itself. */
const WATCHDOG_MS = { quick: 120_000, full: 900_000 };

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (args.isHelp) {
    process.stdout.write(USAGE);
    return 0;
  }
  // The soak runs as long as asked, on top of the usual limit.
  const soakMs = args.scenarios.includes('soak') ? args.minutes * 60_000 : 0;
  const watchdog = setTimeout(
    () => {
      process.stderr.write('bench: watchdog expired; stopping\n');
      process.exit(3);
    },
    (args.isQuick ? WATCHDOG_MS.quick : WATCHDOG_MS.full) + soakMs,
  );
  watchdog.unref();

  const context = createContext(args.isQuick, args.profileDir);
  const affinity = pinSelf(context.generatorCpu);
  const nice = raisePriority(BENCH_NICE);
  const started = new Date();
  // The bench cannot keep other processes off its CPUs; say how busy the machine already is.
  const idleCheck = new OtherLoadMeter([process.pid]);
  await sleep(args.isQuick ? 300 : 1000);
  const otherLoadAtStart = idleCheck.share();
  process.stdout.write(
    `SecureChannel bench${args.isQuick ? ' (quick)' : ''}: ${args.scenarios.join(', ')}\n` +
      `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), ` +
      `servers on CPU ${context.serverCpu}, load generator on CPU ${affinity}, nice ${nice}\n` +
      `other processes at start: ${(otherLoadAtStart * 100).toFixed(0)}% of a core` +
      (otherLoadAtStart > OTHER_LOAD_LIMIT
        ? ' (busy machine: latency figures will be disturbed)'
        : '') +
      '\n' +
      (args.isQuick
        ? args.isCluster
          ? 'quick run: tiny sizes and one set of servers per setup; a smoke test of the harness, not a measurement\n'
          : 'quick run: tiny sizes and one server of each kind shared by all scenarios; a smoke test of the harness, not a measurement\n'
        : ''),
  );
  const reports: ScenarioReport[] = [];
  try {
    for (const scenario of args.scenarios) {
      process.stdout.write(`\n-- ${scenario}\n`);
      const scenarioStart = performance.now();
      const report =
        scenario === 'soak'
          ? await runSoak(context, { minutes: args.minutes, rate: args.rate })
          : await RUNNERS[scenario](context);
      reports.push(report);
      const seconds = (performance.now() - scenarioStart) / 1000;
      process.stdout.write(`${formatScenario(report)}\n(${scenario}: ${seconds.toFixed(0)} s)\n`);
    }
  } finally {
    await context.close();
  }
  process.stdout.write(`${formatSummary(reports)}\n`);
  await writeResults(args.out, {
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
    isQuick: args.isQuick,
    machine: {
      node: process.version,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? null,
      totalMemoryBytes: os.totalmem(),
      generatorAffinity: affinity,
      serverCpu: context.serverCpu,
      otherLoadAtStart,
      nice,
    },
    reports: reports.map(({ scenario, tables, checks, notes, data }) => ({
      scenario,
      tables,
      checks,
      notes,
      data,
    })),
  });
  process.stdout.write(`\nresults written to ${args.out}\n`);
  return 0;
}

main()
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
