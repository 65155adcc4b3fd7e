/**
 * Runs a script inside a fresh network namespace that has only loopback (`unshare -n`, then
 * `ip link set lo up`), so that a real tor started by it can never reach the network. Needs
 * root (or user namespaces); `namespaceProblem()` says why it cannot run here, or null.
 */
import { spawn, spawnSync } from 'node:child_process';
import { ROOT } from '../processes.js';

/** Why a loopback-only namespace cannot be made here, or null when it can. */
export function namespaceProblem(): string | null {
  const probe = spawnSync('unshare', ['-n', 'sh', '-c', 'ip link set lo up && ip -o link show'], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (probe.error) return `unshare could not run (${probe.error.message})`;
  if (probe.status !== 0) return `unshare -n failed (needs root): ${probe.stderr.trim()}`;
  const links = probe.stdout.trim().split('\n');
  if (links.length !== 1 || !/\blo\b/.test(links[0]!))
    return 'the namespace has more than loopback';
  return null;
}

/** True when the real `tor` binary is installed. */
export function torBinaryPath(): string | null {
  for (const candidate of ['/usr/sbin/tor', '/usr/bin/tor']) {
    if (spawnSync(candidate, ['--version'], { timeout: 10_000 }).status === 0) return candidate;
  }
  return null;
}

export interface NamespaceRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node --import tsx <script>` in a loopback-only namespace and waits for it. */
export function runInNamespace(
  script: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<NamespaceRun> {
  return new Promise((resolve, reject) => {
    const command = `ip link set lo up && exec "${process.execPath}" --import tsx "${script}"`;
    const child = spawn('unshare', ['-n', 'sh', '-c', command], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not finish in ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
