/** Runs the product's own commands (npm scripts' targets) as child processes. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { isServerBuildStale, SERVER_ENTRY } from '../../scripts/build-server.mjs';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a TypeScript entry point with tsx and waits for it to exit. */
export function runTs(
  script: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not finish in ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * How a server process runs by default: the compiled server `npm start` runs (dist-server/, which
 * `npm test` builds before the tests) when it is up to date with server/ and shared/, else the
 * TypeScript sources through tsx. Compiled, a start costs about 3.4 CPU-seconds against 6 through
 * tsx on the 2-core CI machine, and runs the code as shipped; a stale build is never used.
 */
function serverEntryArgs(): string[] {
  return isServerBuildStale() ? ['--import', 'tsx', 'server/main.ts'] : [SERVER_ENTRY];
}

/**
 * Starts the server (`serverEntryArgs()`; or the given node arguments, e.g.
 * `['scripts/start.mjs']` for `npm start`) on a free port and resolves once it listens.
 */
export function startServerProcess(
  env: Record<string, string>,
  timeoutMs = 30_000,
  nodeArgs: string[] = serverEntryArgs(),
): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, nodeArgs, {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: '0', ...env },
    });
    let output = '';
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start: ${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"address":"(http[^"]+)"/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        child,
        url: match[1]!,
        output: () => output,
        stop: async (signal = 'SIGTERM') => {
          child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout.on('data', (chunk: Buffer) => {
      onData(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${output}`));
    });
  });
}

/** Creates a public room through `server`'s HTTP API; its secureId. */
export async function createRoomOn(server: ServerProcess, name: string): Promise<string> {
  const response = await fetch(`${server.url}/api/rooms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  return ((await response.json()) as { secureId: string }).secureId;
}
