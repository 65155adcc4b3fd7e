/**
 * PostgreSQL and Redis for `npm test` on a machine that does not run them (issue 21): when the
 * configured server cannot be reached, a throwaway instance is started from the installed
 * binaries on a free port in a temporary folder, and removed afterwards. Only processes started
 * here are ever stopped, by their own handle; the machine's services are never touched.
 *
 * - PostgreSQL: `initdb` + `postgres` from PATH or Debian's /usr/lib/postgresql/<v>/bin. The
 *   server refuses to run as root: as root it runs as the `postgres` user through `runuser`
 *   (the folder is handed to that user); without such a user it is not started.
 * - Redis: `redis-server` with no persistence.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** True when a TCP connection to host:port opens within `timeoutMs`. */
export function isReachable(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (value: boolean) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, host, () => done(true));
  });
}

/** Host and port of a postgres:// or redis:// URL (defaults 5432 / 6379). */
export function hostPort(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  const fallback = parsed.protocol.startsWith('redis') ? 6379 : 5432;
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
    port: parsed.port ? Number(parsed.port) : fallback,
  };
}

/** A free TCP port on 127.0.0.1 (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The path of `name` in PATH or in `extraDirs`, or null. */
export function findBinary(name: string, extraDirs: readonly string[] = []): string | null {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), ...extraDirs];
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/** Debian's versioned PostgreSQL folders, newest first. */
export function debianPostgresDirs(root = '/usr/lib/postgresql'): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((version) => /^\d+$/.test(version))
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => path.join(root, version, 'bin'));
}

/** A started throwaway service. */
export interface ThrowawayService {
  url: string;
  /** Stops the process started here (and only it) and removes its folder. */
  stop(): Promise<void>;
  /**
   * Stops the server as an outage would (Redis: SIGKILL; PostgreSQL: a fast shutdown, which ends
   * every session with 57P01) and keeps its folder, for {@link resume} (tests/faults).
   */
  halt(): Promise<void>;
  /** Starts it again on the same port after {@link halt}; resolves once it answers. */
  resume(): Promise<void>;
}

/** Why a service could not be started (a sentence for the test run's output). */
export class ServiceUnavailable extends Error {
  override readonly name = 'ServiceUnavailable';
}

async function waitUntilReachable(
  port: number,
  child: ChildProcess,
  timeoutMs: number,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new ServiceUnavailable(
        `exited early (${child.exitCode ?? child.signalCode}): ${output().slice(-400)}`,
      );
    }
    if (await isReachable('127.0.0.1', port, 300)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new ServiceUnavailable(`did not open port ${port} within ${timeoutMs} ms`);
}

function stopChild(child: ChildProcess, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function collect(child: ChildProcess): () => string {
  let text = '';
  const add = (chunk: Buffer) => {
    text = (text + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
  return () => text;
}

/** Starts `redis-server` on a free port with no persistence, in a temporary folder. */
export async function startThrowawayRedis(): Promise<ThrowawayService> {
  const binary = findBinary('redis-server');
  if (!binary) throw new ServiceUnavailable('redis-server is not installed');
  const dir = await mkdtemp(path.join(tmpdir(), 'sc-test-redis-'));
  const port = await freePort();
  const launch = async () => {
    const child = spawn(
      binary,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      await waitUntilReachable(port, child, 15_000, collect(child));
    } catch (error) {
      await stopChild(child);
      throw error;
    }
    return child;
  };
  let child: ChildProcess | null = null;
  const stop = async () => {
    if (child) await stopChild(child);
    child = null;
    await rm(dir, { recursive: true, force: true });
  };
  try {
    child = await launch();
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop,
    halt: async () => {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        running.once('exit', () => resolve());
        running.kill('SIGKILL');
      });
    },
    resume: async () => {
      child ??= await launch();
    },
  };
}

/** The command prefix that runs a program as `user` when this process is root, or null. */
function asUser(user: string): string[] | null {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return [];
  const runuser = findBinary('runuser', ['/usr/sbin', '/sbin']);
  if (!runuser) return null;
  const probe = spawnSync('id', ['-u', user], { encoding: 'utf8' });
  if (probe.status !== 0) return null;
  return [runuser, '-u', user, '--'];
}

function userIds(user: string): { uid: number; gid: number } | null {
  const uid = spawnSync('id', ['-u', user], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', user], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return null;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * Starts PostgreSQL on a free port in a temporary folder (trust authentication, user
 * `postgres`, no fsync) and creates the database `test`; its URL points at that database.
 */
export async function startThrowawayPostgres(): Promise<ThrowawayService> {
  const extra = debianPostgresDirs();
  const initdb = findBinary('initdb', extra);
  const postgres = initdb ? path.join(path.dirname(initdb), 'postgres') : null;
  if (!initdb || !postgres || !existsSync(postgres)) {
    throw new ServiceUnavailable('initdb and postgres are not installed');
  }
  const prefix = asUser('postgres');
  if (prefix === null) {
    throw new ServiceUnavailable(
      'PostgreSQL refuses to run as root, and there is no `postgres` user to run it as (runuser)',
    );
  }
  const root = await mkdtemp(path.join(tmpdir(), 'sc-test-postgres-'));
  const dataDir = path.join(root, 'data');
  if (prefix.length > 0) {
    const ids = userIds('postgres');
    if (ids) await chown(root, ids.uid, ids.gid);
  }
  const run = (command: string, args: string[]) => {
    const [head, ...rest] = [...prefix, command, ...args];
    return { head: head ?? command, rest };
  };
  const init = run(initdb, [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  const initResult = spawnSync(init.head, init.rest, { encoding: 'utf8' });
  if (initResult.status !== 0) {
    await rm(root, { recursive: true, force: true });
    throw new ServiceUnavailable(
      `initdb failed: ${(initResult.stderr || initResult.stdout).slice(-400)}`,
    );
  }
  const port = await freePort();
  const server = run(postgres, [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-h',
    '127.0.0.1',
    '-k',
    root,
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=200',
  ]);
  /** Starts the server; resolves once it accepts logins (and runs `firstQuery`, if given). */
  const launch = async (firstQuery: string) => {
    const started = spawn(server.head, server.rest, { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      await waitUntilReachable(port, started, 30_000, collect(started));
      const pg = (await import('pg')).default;
      // The port opens a moment before the server accepts logins: retry briefly.
      const deadline = Date.now() + 15_000;
      for (;;) {
        const client = new pg.Client({
          connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
        });
        try {
          await client.connect();
          await client.query(firstQuery);
          await client.end();
          break;
        } catch (error) {
          await client.end().catch(() => undefined);
          if (Date.now() > deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    } catch (error) {
      await stopChild(started);
      throw error;
    }
    return started;
  };
  let child: ChildProcess | null = null;
  const stop = async () => {
    // runuser passes SIGTERM on to postgres (a "smart" shutdown); SIGKILL only if it hangs.
    if (child) await stopChild(child);
    child = null;
    await rm(root, { recursive: true, force: true });
  };
  try {
    child = await launch('CREATE DATABASE test');
  } catch (error) {
    await stop();
    throw error instanceof ServiceUnavailable ? error : new ServiceUnavailable(String(error));
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/test`,
    stop,
    halt: async () => {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      // A fast shutdown (SIGINT to the postmaster this helper started, named by its pid file):
      // sessions end with 57P01 at once, as when an operator restarts PostgreSQL.
      const pidFile = await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8');
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      process.kill(Number(pidFile.split('\n')[0]), 'SIGINT');
      await exited;
    },
    resume: async () => {
      child ??= await launch('SELECT 1');
    },
  };
}
