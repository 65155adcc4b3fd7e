/**
 * What the installed tor can do, asked of the binary itself: whether it defends an onion service
 * with proof of work (`HiddenServicePoWDefensesEnabled`, tor 0.4.8 and later, and only when built
 * with the `pow` module). tor refuses to start with an option it was built without, so the torrc
 * carries the option only when `tor --list-modules` says `pow: yes`. The answer is kept per binary
 * for the life of the process: the binary does not change under a running server.
 */
import { execFile } from 'node:child_process';

/** Whether proof of work can be turned on, and if not, why (for one log line). */
export type PowSupport = { supported: true } | { supported: false; reason: string };

/** Runs `bin` with `args`; the standard output, or a rejection. */
export type RunBinary = (bin: string, args: readonly string[]) => Promise<string>;

const runBinary: RunBinary = (bin, args) =>
  new Promise((resolve, reject) => {
    // No shell, fixed arguments; tor answers these without reading a torrc or opening a port.
    execFile(
      bin,
      [...args],
      { timeout: 10_000, maxBuffer: 1024 * 1024, env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' } },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
  });

/** Reads `tor --list-modules` output: `pow: yes` when the module is built in. */
export function powSupportFromModules(listing: string): PowSupport {
  const line = /^pow:\s*(\S+)\s*$/m.exec(listing);
  if (!line) return { supported: false, reason: 'tor lists no pow module (tor before 0.4.8)' };
  if (line[1] !== 'yes') return { supported: false, reason: 'tor was built without proof of work' };
  return { supported: true };
}

const known = new Map<string, Promise<PowSupport>>();

/** Whether the tor at `bin` supports onion-service proof of work; asked once per binary. */
export function detectPowSupport(bin: string, run: RunBinary = runBinary): Promise<PowSupport> {
  let answer = known.get(bin);
  if (!answer) {
    answer = run(bin, ['--list-modules']).then(powSupportFromModules, (error: unknown) => ({
      supported: false as const,
      reason: `tor --list-modules failed (${error instanceof Error ? error.name : 'error'})`,
    }));
    known.set(bin, answer);
  }
  return answer;
}
