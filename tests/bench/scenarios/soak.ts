/**
 * `--scenario soak [--minutes N] [--rate N]`: one SecureChannel process under chat traffic at half
 * the given capacity (messages a second in, default the fan-out 100 × 10 figure) for N minutes
 * (default 30), rooms of 10 members with one sender each at most 10 msg/s. Each minute: the
 * server's RSS and the p99 of that minute's messages, and whether every message arrived. The
 * verdict on growth is the slope of RSS (sampled every 5 s) over the last two thirds of the run,
 * by least squares: the first third is warm-up (caches, JIT, pools). Informational; issue 35.
 */
import type { BenchContext } from '../context.js';
import { closeAll, connectMany, type BenchClient } from '../load/clients.js';
import { runChatLoad } from '../load/chat-load.js';
import { rssBytes } from '../process-stats.js';
import { fixed, type ScenarioReport } from '../report.js';

const MEMBERS = 10;
const MAX_RATE_PER_SENDER = 10;
const RSS_SAMPLE_MS = 5_000;
/** Above this RSS slope over the last two thirds, the verdict is growth. */
const GROWTH_LIMIT_MB_PER_MINUTE = 1;
/**
 * Shorter runs get the slope but no verdict: their last two thirds are still warm-up (a 2-minute
 * run showed +14 MB/min while heap and pools filled).
 */
const MIN_VERDICT_MINUTES = 10;

export interface SoakOptions {
  minutes: number;
  /** Measured capacity, messages a second in; the soak sends half. */
  rate: number;
}

/** Least-squares slope of y over x. */
function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const meanX = points.reduce((sum, point) => sum + point.x, 0) / n;
  const meanY = points.reduce((sum, point) => sum + point.y, 0) / n;
  let numerator = 0;
  let denominator = 0;
  for (const point of points) {
    numerator += (point.x - meanX) * (point.y - meanY);
    denominator += (point.x - meanX) ** 2;
  }
  return denominator === 0 ? Number.NaN : numerator / denominator;
}

export async function runSoak(
  context: BenchContext,
  options: SoakOptions,
): Promise<ScenarioReport> {
  const target = options.rate / 2;
  const rooms = Math.max(1, Math.ceil(target / MAX_RATE_PER_SENDER));
  const ratePerSender = target / rooms;
  const minutes = Math.max(1, Math.round(options.minutes));
  const server = await context.startFreshServer('securechannel', rooms);
  let clients: BenchClient[] = [];
  const samples: { minute: number; rssMb: number }[] = [];
  let started = performance.now();
  const sampler = setInterval(() => {
    samples.push({
      minute: (performance.now() - started) / 60_000,
      rssMb: rssBytes(server.pid) / 2 ** 20,
    });
  }, RSS_SAMPLE_MS);
  try {
    const connected = await connectMany({
      server,
      count: rooms * MEMBERS,
      roomFor: (index) => server.rooms[Math.floor(index / MEMBERS)]!,
      concurrency: 50,
    });
    clients = connected.clients;
    const byRoom: BenchClient[][] = [];
    for (let room = 0; room < rooms; room += 1) {
      byRoom.push(clients.slice(room * MEMBERS, (room + 1) * MEMBERS));
    }
    context.progress(
      `${rooms} rooms × ${MEMBERS}, ${fixed(target, 0)} msg/s in for ${minutes} min (half of ${options.rate})`,
    );
    started = performance.now();
    samples.push({ minute: 0, rssMb: rssBytes(server.pid) / 2 ** 20 });
    const rows: string[][] = [];
    const perMinute: {
      minute: number;
      rssMb: number;
      p50Ms: number;
      p99Ms: number;
      sent: number;
      delivered: number;
      expected: number;
      errorFrames: number;
    }[] = [];
    for (let minute = 1; minute <= minutes; minute += 1) {
      const load = await runChatLoad({
        rooms: byRoom,
        sendersPerRoom: 1,
        ratePerSender,
        warmupMs: 0,
        windowMs: 59_000,
        drainMs: 1_000,
      });
      const rssMb = rssBytes(server.pid) / 2 ** 20;
      perMinute.push({
        minute,
        rssMb,
        p50Ms: load.latency.p50,
        p99Ms: load.latency.p99,
        sent: load.sent,
        delivered: load.delivered,
        expected: load.expectedDeliveries,
        errorFrames: load.errorFrames,
      });
      rows.push([
        String(minute),
        fixed(rssMb, 1),
        fixed(load.latency.p50, 2),
        fixed(load.latency.p99, 2),
        `${load.delivered}/${load.expectedDeliveries}`,
        String(load.errorFrames),
      ]);
      context.progress(
        `minute ${minute}: RSS ${fixed(rssMb, 1)} MB, p99 ${fixed(load.latency.p99, 2)} ms`,
      );
    }
    const tail = samples.filter((sample) => sample.minute >= minutes / 3);
    const mbPerMinute = slope(tail.map((sample) => ({ x: sample.minute, y: sample.rssMb })));
    const canJudge = Number.isFinite(mbPerMinute) && minutes >= MIN_VERDICT_MINUTES;
    const grows = canJudge && mbPerMinute > GROWTH_LIMIT_MB_PER_MINUTE;
    const slopeText = `RSS ${mbPerMinute >= 0 ? '+' : ''}${fixed(mbPerMinute, 2)} MB/min over the last two thirds`;
    const verdict = canJudge
      ? `${grows ? 'growth' : 'no growth'}: ${slopeText} (limit ${GROWTH_LIMIT_MB_PER_MINUTE} MB/min)`
      : Number.isFinite(mbPerMinute)
        ? `too short to judge (${MIN_VERDICT_MINUTES} minutes at least): ${slopeText}`
        : 'too short to judge';
    const lost = perMinute.reduce((total, entry) => total + entry.expected - entry.delivered, 0);
    return {
      scenario: 'soak',
      tables: [
        {
          title: `Soak, ${rooms} rooms × ${MEMBERS}, 1 sender × ${fixed(ratePerSender, 1)} msg/s each = ${fixed(target, 0)} msg/s in (half of ${options.rate}), ${minutes} min`,
          columns: ['minute', 'RSS MB', 'p50 ms', 'p99 ms', 'delivered', 'errors'],
          rows,
        },
      ],
      checks: [
        {
          scenario: 'soak',
          name: 'RSS slope, last two thirds',
          target: `≤ ${GROWTH_LIMIT_MB_PER_MINUTE} MB/min`,
          actual: Number.isFinite(mbPerMinute) ? `${fixed(mbPerMinute, 2)} MB/min` : 'n/a',
          pass: canJudge ? !grows : null,
        },
        {
          scenario: 'soak',
          name: 'deliveries lost',
          target: '0',
          actual: String(lost),
          pass: lost === 0,
        },
      ],
      notes: [
        verdict,
        `RSS sampled every ${RSS_SAMPLE_MS / 1000} s; the slope uses ${tail.length} samples`,
      ],
      data: {
        minutes,
        capacity: options.rate,
        messagesPerSecond: target,
        rooms,
        members: MEMBERS,
        perMinute,
        rssSamples: samples,
        rssSlopeMbPerMinute: mbPerMinute,
        verdict,
      },
    };
  } finally {
    clearInterval(sampler);
    await closeAll(clients);
    await context.releaseServer(server);
  }
}
