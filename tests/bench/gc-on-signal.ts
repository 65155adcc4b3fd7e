/**
 * For the memory scenario: on SIGUSR2 a server under test runs a full garbage collection (node runs
 * with --expose-gc) and writes its `process.memoryUsage()` to {@link heapReportPath}, so the bench
 * can read live JavaScript memory beside RSS.
 */
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { PerformanceObserver, constants, performance } from 'node:perf_hooks';
import os from 'node:os';
import path from 'node:path';

export const heapReportPath = (pid: number) =>
  path.join(os.tmpdir(), `securechannel-bench-heap-${pid}.json`);

export function collectOnSignal(): void {
  process.on('SIGUSR2', () => {
    (globalThis as { gc?: () => void }).gc?.();
    writeFileSync(heapReportPath(process.pid), JSON.stringify(process.memoryUsage()));
  });
}

export const gcLogPath = (pid: number) =>
  path.join(os.tmpdir(), `securechannel-bench-gc-${pid}.log`);

/**
 * Records every garbage collection's pause (perf_hooks `gc` entries) in {@link gcLogPath}, one
 * line each: start on the wall clock (ms since the epoch), duration (ms), perf_hooks' kind
 * (`constants.NODE_PERFORMANCE_GC_*`: 1 minor, 4 major, 8 incremental marking, 16 weak
 * callbacks; see {@link MAJOR_GC_KINDS}). Written every 200 ms, so that the fan-out
 * scenario can match its slowest messages against the server's pauses (issue 36, tails). Only
 * when started by the bench (`BENCH_GC_LOG=1`, server-process.ts), which removes the file.
 */
export function recordGcPauses(): void {
  if (process.env.BENCH_GC_LOG !== '1') return;
  const lines: string[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { detail } = entry as PerformanceEntry & { detail?: { kind?: number } };
      const start = performance.timeOrigin + entry.startTime;
      lines.push(`${start.toFixed(3)} ${entry.duration.toFixed(3)} ${detail?.kind ?? 0}`);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  setInterval(() => {
    if (lines.length === 0) return;
    appendFileSync(gcLogPath(process.pid), `${lines.join('\n')}\n`);
    lines.length = 0;
  }, 200).unref();
}

/**
 * The kinds of a major (mark-compact) collection's pauses on the main thread: its incremental
 * marking steps and the final atomic pause. Anything else is a scavenge or weak callbacks.
 */
export const MAJOR_GC_KINDS: ReadonlySet<number> = new Set([
  constants.NODE_PERFORMANCE_GC_MAJOR,
  constants.NODE_PERFORMANCE_GC_INCREMENTAL,
]);

/** The pauses {@link recordGcPauses} logged so far: [start (epoch ms), duration (ms), kind][]. */
export function readGcPauses(pid: number): [number, number, number][] {
  let text = '';
  try {
    text = readFileSync(gcLogPath(pid), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => {
      const [start = '0', duration = '0', kind = '0'] = line.split(' ');
      return [Number(start), Number(duration), Number(kind)];
    });
}

export function removeGcLog(pid: number): void {
  rmSync(gcLogPath(pid), { force: true });
}
