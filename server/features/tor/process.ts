/**
 * tor as a child process: spawn with our torrc, keep the last log lines, stop with SIGTERM (then
 * SIGKILL). Restarting after a crash, with backoff, is the service's job (service.ts); this file
 * only reports the exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants as fsConstants } from 'node:fs';
import path from 'node:path';

/** Lines of tor's output kept for the admin tab (spec 001 §4 "logs"). */
export const LOG_LINES_KEPT = 200;
/** One log line is cut at this length. */
const MAX_LOG_LINE = 500;
const STOP_GRACE_MS = 5000;

/** Finds the tor binary: TOR_BIN, else `tor` on PATH (and Debian's /usr/sbin), else null. */
export function findTorBinary(configured: string | null, searchPath: string): string | null {
  if (configured) return isExecutable(configured) ? configured : null;
  const folders = [...searchPath.split(path.delimiter), '/usr/sbin', '/usr/bin'];
  for (const folder of folders) {
    if (!folder) continue;
    const candidate = path.join(folder, 'tor');
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

export function isExecutable(file: string): boolean {
  try {
    accessSync(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface TorChildOptions {
  bin: string;
  torrcPath: string;
  onExit: (code: number | null, signal: NodeJS.Signals | null) => void;
  onLog: (line: string) => void;
}

/** One running tor. */
export class TorChild {
  private readonly child: ChildProcess;
  private exited = false;
  private readonly exitPromise: Promise<void>;

  constructor(options: TorChildOptions) {
    // No shell, fixed arguments: the torrc path is ours.
    this.child = spawn(options.bin, ['-f', options.torrcPath, '--defaults-torrc', '/dev/null'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', HOME: path.dirname(options.torrcPath) },
    });
    const collect = (stream: NodeJS.ReadableStream | null) => {
      let rest = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        rest += chunk;
        const parts = rest.split('\n');
        rest = (parts.pop() ?? '').slice(-MAX_LOG_LINE);
        for (const line of parts) if (line.trim()) options.onLog(line.slice(0, MAX_LOG_LINE));
      });
    };
    collect(this.child.stdout);
    collect(this.child.stderr);
    this.exitPromise = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exited = true;
        options.onExit(code, signal);
        resolve();
      });
      this.child.once('error', (error) => {
        options.onLog(`[spawn] ${error.name}: could not run tor`);
        if (!this.exited) {
          this.exited = true;
          options.onExit(null, null);
        }
        resolve();
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get hasExited(): boolean {
    return this.exited;
  }

  /** SIGTERM, then SIGKILL after a grace period; resolves once tor has exited. */
  async stop(): Promise<void> {
    if (this.exited) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => {
      if (!this.exited) this.child.kill('SIGKILL');
    }, STOP_GRACE_MS);
    await this.exitPromise;
    clearTimeout(timer);
  }
}

/** A ring of the last log lines. */
export class LogRing {
  private readonly lines: string[] = [];
  constructor(private readonly limit = LOG_LINES_KEPT) {}
  push(line: string): void {
    this.lines.push(line);
    if (this.lines.length > this.limit) this.lines.shift();
  }
  last(count = this.limit): string[] {
    return this.lines.slice(-count);
  }
}
