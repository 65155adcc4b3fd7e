/**
 * What the bench reads about a process from /proc: CPU time (utime + stime, every thread, in
 * clock ticks) and resident memory. Linux only, like the rest of the bench.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

let clockTicks: number | null = null;

/** `getconf CLK_TCK`: clock ticks per second, the unit of utime and stime (usually 100). */
export function clockTicksPerSecond(): number {
  if (clockTicks === null) {
    const value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    clockTicks = Number.isFinite(value) && value > 0 ? value : 100;
  }
  return clockTicks;
}

/** CPU time the process has used so far (user + system, all threads), in milliseconds. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name, field 3 (state) is index 0, so utime (14) is 11 and stime (15) is 12.
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / clockTicksPerSecond();
}

/** Resident set size in bytes (VmRSS of /proc/<pid>/status). */
export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}

/** The CPUs a process may run on, as `taskset -p` prints them (e.g. "1"). */
export function affinityOf(pid: number): string {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return /^Cpus_allowed_list:\s+(\S+)$/m.exec(status)?.[1] ?? 'unknown';
}

/**
 * Pins every thread of this process (and, by inheritance, threads and children it starts later)
 * to `cpu`. Returns the affinity actually in force, so the report shows it.
 */
export function pinSelf(cpu: number): string {
  try {
    execFileSync('taskset', ['-a', '-cp', String(cpu), String(process.pid)], { stdio: 'ignore' });
  } catch {
    // Without taskset the bench still runs; the report shows the affinity it really had.
  }
  return affinityOf(process.pid);
}

/**
 * Lowers this process's nice value to `nice` when allowed (root), so that other processes on a
 * shared machine disturb the measurement less; children (the servers) inherit it. With
 * autogroup scheduling a nice value only counts inside the session's group, so the group's nice
 * is lowered too, and put back when this process exits. Returns the nice value in force.
 */
export function raisePriority(nice: number): number {
  try {
    os.setPriority(0, nice);
  } catch {
    // Not permitted: run at the priority we have; the report shows it.
  }
  const autogroup = '/proc/self/autogroup';
  try {
    const before = /nice (-?\d+)/.exec(readFileSync(autogroup, 'utf8'))?.[1];
    if (before !== undefined) {
      writeFileSync(autogroup, String(nice));
      process.once('exit', () => writeFileSync(autogroup, before));
    }
  } catch {
    // No autogroup scheduling, or not permitted.
  }
  return os.getPriority(0);
}

/** A CPU meter over one window: start, then read the milliseconds used since. */
export class CpuMeter {
  private readonly startMs: number;
  private readonly startWall: number;

  constructor(private readonly pid: number) {
    this.startMs = cpuMs(pid);
    this.startWall = performance.now();
  }

  /** CPU milliseconds used by the process since the meter started. */
  usedMs(): number {
    return cpuMs(this.pid) - this.startMs;
  }

  /** Share of one core used since the meter started (1 = one core fully busy). */
  utilization(): number {
    const wall = performance.now() - this.startWall;
    return wall > 0 ? this.usedMs() / wall : 0;
  }
}

/** CPU time all processes on the machine have used (everything but idle and iowait), in ms. */
export function machineBusyMs(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
  // cpu  user nice system idle iowait irq softirq steal guest guest_nice
  const [user, nice, system, , , irq, softirq, steal] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const busy = [user, nice, system, irq, softirq, steal].reduce<number>(
    (sum, v) => sum + (v ?? 0),
    0,
  );
  return (busy * 1000) / clockTicksPerSecond();
}

/** CPU time of a process in ms, or 0 when it is gone (or not visible). */
export function cpuMsOrZero(pid: number): number {
  try {
    return cpuMs(pid);
  } catch {
    return 0;
  }
}

/**
 * How much CPU processes other than the bench's own used during a window, as a share of one
 * core. The bench pins its processes but cannot keep others off its CPUs: when this is more
 * than a few percent, latency figures of that window are disturbed.
 */
export class OtherLoadMeter {
  private readonly startMachine = machineBusyMs();
  private readonly startOurs: number;
  private readonly startWall = performance.now();

  constructor(private readonly pids: readonly number[]) {
    this.startOurs = this.ours();
  }

  /**
   * `knownMs`: CPU milliseconds that further processes of the bench's own (redis-server, database
   * backends) used in the window, measured elsewhere; it is not counted as other load.
   */
  share(knownMs = 0): number {
    const wall = performance.now() - this.startWall;
    const other = machineBusyMs() - this.startMachine - (this.ours() - this.startOurs) - knownMs;
    return wall > 0 ? Math.max(0, other) / wall : 0;
  }

  private ours(): number {
    return this.pids.reduce((sum, pid) => sum + cpuMsOrZero(pid), 0);
  }
}
