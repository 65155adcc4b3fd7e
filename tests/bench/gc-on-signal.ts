/**
 * For the memory scenario: on SIGUSR2 a server under test runs a full garbage collection (node runs
 * with --expose-gc) and writes its `process.memoryUsage()` to {@link heapReportPath}, so the bench
 * can read live JavaScript memory beside RSS.
 */
import { writeFileSync } from 'node:fs';
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
