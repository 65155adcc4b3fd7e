/**
 * Idle memory: resident memory per idle connection with 1k, 5k and 10k sockets, each joined to a
 * room (rooms of ten), on SecureChannel and on the bare ws server. Per socket is
 * (RSS with N − RSS with 0) / N; each RSS is the minimum of several samples taken after a pause,
 * since the child's garbage collector cannot be forced. Target: within 2 KB per socket of bare,
 * judged on the growth from the first to the last step (see the note in the report).
 */
import { sleep, type BenchContext } from '../context.js';
import { closeAll, connectMany, type BenchClient } from '../load/clients.js';
import { rssBytes } from '../process-stats.js';
import { fixed, type ScenarioReport } from '../report.js';
import { SERVER_LABEL, type RunningServer, type ServerKind } from '../server-process.js';

interface MemorySettings {
  steps: number[];
  roomSize: number;
  settleMs: number;
  samples: number;
  sampleGapMs: number;
}

const TARGET_BYTES = 2048;

function settingsFor(isQuick: boolean): MemorySettings {
  return isQuick
    ? { steps: [100, 250], roomSize: 10, settleMs: 300, samples: 3, sampleGapMs: 100 }
    : { steps: [1000, 5000, 10_000], roomSize: 10, settleMs: 3000, samples: 5, sampleGapMs: 500 };
}

interface MemoryPoint {
  sockets: number;
  rssBytes: number;
  bytesPerSocket: number;
}

interface MemoryRun {
  server: ServerKind;
  baselineRssBytes: number;
  points: MemoryPoint[];
}

/** The smallest RSS over a few samples after a pause: the least garbage we can see. */
async function settledRss(pid: number, settings: MemorySettings): Promise<number> {
  await sleep(settings.settleMs);
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < settings.samples; i += 1) {
    if (i > 0) await sleep(settings.sampleGapMs);
    least = Math.min(least, rssBytes(pid));
  }
  return least;
}

async function measure(
  context: BenchContext,
  kind: ServerKind,
  settings: MemorySettings,
): Promise<MemoryRun> {
  const largest = Math.max(...settings.steps);
  const server: RunningServer = await context.acquireServer(
    kind,
    Math.ceil(largest / settings.roomSize),
  );
  const clients: BenchClient[] = [];
  try {
    const baselineRssBytes = await settledRss(server.pid, settings);
    const points: MemoryPoint[] = [];
    for (const step of settings.steps) {
      context.progress(`${SERVER_LABEL[kind]}: ${step} idle sockets`);
      const first = clients.length;
      const added = await connectMany({
        server,
        count: step - first,
        roomFor: (index) => server.rooms[Math.floor((first + index) / settings.roomSize)]!,
        concurrency: 200,
      });
      clients.push(...added.clients);
      const rss = await settledRss(server.pid, settings);
      points.push({
        sockets: step,
        rssBytes: rss,
        bytesPerSocket: (rss - baselineRssBytes) / step,
      });
    }
    return { server: kind, baselineRssBytes, points };
  } finally {
    await closeAll(clients);
    await context.releaseServer(server);
  }
}

const MB = 1024 * 1024;

export async function runMemory(context: BenchContext): Promise<ScenarioReport> {
  const settings = settingsFor(context.isQuick);
  const secure = await measure(context, 'securechannel', settings);
  const bare = await measure(context, 'bare', settings);
  const kb = (bytes: number) => fixed(bytes / 1024, 2);
  const signed = (bytes: number) => `${bytes >= 0 ? '+' : ''}${kb(bytes)}`;
  const rows = settings.steps.map((sockets, index) => {
    const a = secure.points[index]!;
    const b = bare.points[index]!;
    return [
      String(sockets),
      fixed(a.rssBytes / MB, 1),
      kb(a.bytesPerSocket),
      index === 0 ? '' : kb(marginal(secure, index - 1, index)),
      fixed(b.rssBytes / MB, 1),
      kb(b.bytesPerSocket),
      index === 0 ? '' : kb(marginal(bare, index - 1, index)),
      kb(a.bytesPerSocket - b.bytesPerSocket),
    ];
  });
  const last = settings.steps.length - 1;
  const fromZero = secure.points[last]!.bytesPerSocket - bare.points[last]!.bytesPerSocket;
  const secureSlope = marginal(secure, 0, last);
  const bareSlope = marginal(bare, 0, last);
  const slopeDifference = secureSlope - bareSlope;
  const first = settings.steps[0]!;
  const largest = settings.steps[last]!;
  return {
    scenario: 'memory',
    tables: [
      {
        title:
          `Idle memory per socket, rooms of ${settings.roomSize} (RSS at 0 sockets: ` +
          `SecureChannel ${fixed(secure.baselineRssBytes / MB, 1)} MB, bare ${fixed(bare.baselineRssBytes / MB, 1)} MB)`,
        columns: [
          'sockets',
          'SC RSS MB',
          'SC KB/socket',
          'SC Δ KB/socket',
          'bare RSS MB',
          'bare KB/socket',
          'bare Δ KB/socket',
          'SC − bare KB',
        ],
        rows,
      },
    ],
    checks: [
      {
        scenario: 'memory',
        name: `memory per idle socket, ${first} → ${largest} sockets`,
        target: '≤ bare + 2.00 KB',
        actual:
          `${signed(slopeDifference)} KB (${kb(secureSlope)} vs ${kb(bareSlope)} KB); ` +
          `from 0: ${signed(fromZero)} KB`,
        pass: slopeDifference <= TARGET_BYTES,
      },
    ],
    notes: [
      'RSS is VmRSS of the server process; each figure is the least of several samples taken after a pause (no forced GC)',
      'KB/socket = (RSS with N − RSS with 0) / N; Δ KB/socket = growth since the previous step per added socket',
      `the check uses the growth from ${first} to ${largest} sockets: RSS "with 0" still holds start-up garbage (PGlite's set-up) that a later collection may return, which can make the from-0 figure too low or even negative`,
    ],
    data: { settings, secure, bare, secureSlope, bareSlope, fromZero },
  };
}

/** RSS growth per added socket between two steps. */
function marginal(run: MemoryRun, from: number, to: number): number {
  const a = run.points[from]!;
  const b = run.points[to]!;
  return (b.rssBytes - a.rssBytes) / (b.sockets - a.sockets);
}
