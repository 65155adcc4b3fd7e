/**
 * Starts a server under test as its own process, pinned to CPU 0 (`taskset -c 0`) with a raised
 * open-file limit, and waits for the JSON line it prints once it listens. Its pid is the pid of
 * the Node process itself (the shell wrapper `exec`s taskset, or chrt and then taskset, which
 * `exec`s node), so /proc/<pid>
 * measures the server and nothing else.
 */
import { removeGcLog } from './gc-on-signal.js';
import { initPgliteFolder } from '../../server/db/connect.js';
import {
  compileToServerOut,
  isServerBuildStale,
  SERVER_OUT_DIR,
} from '../../scripts/build-server.mjs';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

export type ServerKind = 'securechannel' | 'bare';

export const SERVER_LABEL: Record<ServerKind, string> = {
  securechannel: 'SecureChannel',
  bare: 'bare ws',
};

const ROOT = path.resolve(import.meta.dirname, '../..');
const ENTRY: Record<ServerKind, string> = {
  securechannel: 'tests/bench/server-entry.ts',
  bare: 'tests/bench/bare-ws-server.ts',
};

let compiled: Promise<Record<ServerKind, string>> | null = null;

/**
 * The servers compiled to plain JavaScript, once per bench run: the server as `npm start` runs
 * it (dist-server/, built first when older than its sources, as `npm start` does) and both bench
 * entries beside it, so that no server under test carries tsx. Through tsx the SecureChannel
 * server held 45.5 MB of live heap against 37.2 compiled (270 against 196 MB resident), which
 * made each of its full collections longer than the shipped server's.
 */
function compiledEntries(): Promise<Record<ServerKind, string>> {
  compiled ??= (async () => {
    if (isServerBuildStale()) {
      execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs')], {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
    }
    await compileToServerOut(
      [...Object.values(ENTRY), 'tests/bench/gc-on-signal.ts'].map((file) => path.join(ROOT, file)),
    );
    const out = (entry: string) => path.join(SERVER_OUT_DIR, entry.replace(/\.ts$/, '.js'));
    return { securechannel: out(ENTRY.securechannel), bare: out(ENTRY.bare) };
  })();
  return compiled;
}
/** Enough descriptors for 10k sockets and then some; raised in the child only. */
const OPEN_FILES = 65_536;

const ReadyLineSchema = z.object({
  url: z.string(),
  wsPath: z.string(),
  rooms: z.array(z.string()).min(1),
});

export interface ServerOptions {
  kind: ServerKind;
  /** Extra rooms to create before listening (room 0 always exists). */
  rooms?: number;
  /** Environment for the server (ADMIN_PASSWORD, MESSAGE_TTL_SECONDS …). */
  env?: Record<string, string>;
  /** The CPU to pin the server to. */
  cpu?: number;
  /** When set, the server writes a V8 CPU profile (`--cpu-prof`) into this folder on exit. */
  profileDir?: string | null;
  /**
   * Runs every thread of the server under SCHED_IDLE (`chrt --idle 0`): it gets the CPU only
   * when no ordinary thread wants it, and an ordinary thread that wakes preempts it at once.
   */
  idlePriority?: boolean;
}

export interface RunningServer {
  kind: ServerKind;
  pid: number;
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** ws://127.0.0.1:<port><path> */
  wsUrl: string;
  /** Room ids ready to join: [0] is the default room. */
  rooms: string[];
  /**
   * Sockets opened to this server so far; the next one's source address depends on it (see
   * load/clients.ts).
   */
  connectionsOpened: number;
  /** What the server wrote to stderr (warnings, crashes). */
  errors(): string;
  stop(): Promise<void>;
}

let dataTemplate: Promise<string> | null = null;
/** The template and every data folder not yet removed; whatever is left goes when the bench exits. */
const dataFolders = new Set<string>();
const removeFolder = (folder: string) => {
  rmSync(folder, { recursive: true, force: true });
  dataFolders.delete(folder);
};

/**
 * A fresh data folder for a SecureChannel server on the embedded database: a copy of one
 * created once per bench run, so that each server starts as `npm start` does on a folder it
 * made before (migrations run, initdb does not: 2–3 s each). Null on PostgreSQL.
 */
async function freshDataDir(options: ServerOptions): Promise<string | null> {
  if (options.kind !== 'securechannel' || options.env?.DATABASE_URL) return null;
  dataTemplate ??= (async () => {
    const template = mkdtempSync(path.join(os.tmpdir(), 'securechannel-bench-template-'));
    dataFolders.add(template);
    process.once('exit', () => dataFolders.forEach(removeFolder));
    mkdirSync(path.join(template, 'db'));
    await initPgliteFolder(path.join(template, 'db'));
    return template;
  })();
  const template = await dataTemplate;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'securechannel-bench-data-'));
  dataFolders.add(dataDir);
  cpSync(template, dataDir, { recursive: true });
  return dataDir;
}

export async function startServer(
  options: ServerOptions,
  timeoutMs = 60_000,
): Promise<RunningServer> {
  const entry = (await compiledEntries())[options.kind];
  const dataDir = await freshDataDir(options);
  const removeDataDir = () => {
    if (dataDir) removeFolder(dataDir);
  };
  try {
    return await spawnServer(options, entry, dataDir, removeDataDir, timeoutMs);
  } catch (error) {
    removeDataDir();
    throw error;
  }
}

function spawnServer(
  options: ServerOptions,
  entry: string,
  dataDir: string | null,
  removeDataDir: () => void,
  timeoutMs: number,
): Promise<RunningServer> {
  const cpu = options.cpu ?? 0;
  // `ulimit -n` may only be raised up to the hard limit when not root; fall back quietly.
  const idle = options.idlePriority ? 'chrt --idle 0 ' : '';
  const script = `ulimit -n ${OPEN_FILES} 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec ${idle}taskset -c ${cpu} "$@"`;
  // SecureChannel starts as `npm start` starts it, through scripts/start.sh, which adds the Node
  // flags for the CPUs the server may use (one here: taskset); the bare server runs Node as is.
  const node =
    options.kind === 'securechannel'
      ? ['sh', path.join(ROOT, 'scripts/start.sh')]
      : [process.execPath];
  const child = spawn(
    'sh',
    [
      '-c',
      script,
      'sh',
      ...node,
      '--expose-gc',
      ...(options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : []),
      entry,
    ],
    {
      cwd: ROOT,
      env: {
        NODE: process.execPath,
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        BENCH_ROOMS: String(options.rooms ?? 0),
        BENCH_GC_LOG: '1',
        ...(dataDir ? { DATA_DIR: dataDir } : {}),
        ...options.env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  return waitUntilReady(options.kind, child, removeDataDir, timeoutMs);
}

function waitUntilReady(
  kind: ServerKind,
  child: ChildProcess,
  removeDataDir: () => void,
  timeoutMs: number,
): Promise<RunningServer> {
  let stdout = '';
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stderr?.on('data', (chunk: Buffer) => {
    // Keep the tail only: a crash's stack is at the end.
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${kind} server did not start in ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`${kind} server exited with ${code} before listening: ${stderr}`));
    };
    child.once('exit', onExit);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      const ready = ReadyLineSchema.parse(JSON.parse(stdout.slice(0, newline)));
      const pid = child.pid;
      if (pid === undefined) {
        reject(new Error(`${kind} server has no pid`));
        return;
      }
      const url = new URL(ready.url);
      resolve({
        kind,
        pid,
        baseUrl: ready.url,
        wsUrl: `ws://${url.host}${ready.wsPath}`,
        rooms: ready.rooms,
        connectionsOpened: 0,
        errors: () => stderr,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) {
            const force = setTimeout(() => child.kill('SIGKILL'), 8000);
            child.kill('SIGTERM');
            await exited;
            clearTimeout(force);
          }
          removeGcLog(pid);
          removeDataDir();
        },
      });
    });
  });
}
