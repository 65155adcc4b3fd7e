/**
 * Vitest globalSetup of the integration project (issue 21): makes sure PostgreSQL and Redis are
 * there for the suites that need them, or says clearly which suites will not run and why.
 *
 * For each service: TEST_DATABASE_URL / TEST_REDIS_URL when given, else DATABASE_URL /
 * REDIS_URL, else 127.0.0.1:5432 / :6379. When that server answers, it is used (and nothing is
 * skipped). When it does not, a throwaway instance is started from the installed binaries
 * (test-services.ts) and removed after the run. When that is impossible too, the suites that
 * need the service are left out with a printed message naming them; under CI (`CI` set) the run
 * fails instead, so CI always runs them all.
 *
 * The outcome reaches the test workers through the environment: TEST_DATABASE_URL /
 * TEST_REDIS_URL, or TEST_POSTGRES_MISSING / TEST_REDIS_MISSING with the reason
 * (tests/support/services.ts reads them).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  hostPort,
  isReachable,
  startThrowawayPostgres,
  startThrowawayRedis,
  type ThrowawayService,
} from './test-services.js';
import { DEFAULT_POSTGRES_URL, DEFAULT_REDIS_URL, POSTGRES_USE, REDIS_USE } from './services.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** Test files that name `pattern`, relative to the project root (for the skip message). */
function filesUsing(pattern: RegExp): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.test.ts') && pattern.test(readFileSync(full, 'utf8')))
        found.push(path.relative(ROOT, full));
    }
  };
  for (const dir of ['tests/integration', 'tests/contracts']) walk(path.join(ROOT, dir));
  return found.sort();
}

function say(line: string): void {
  process.stdout.write(`[test services] ${line}\n`);
}

async function ensure(options: {
  label: string;
  configured: string;
  urlVar: 'TEST_DATABASE_URL' | 'TEST_REDIS_URL';
  missingVar: 'TEST_POSTGRES_MISSING' | 'TEST_REDIS_MISSING';
  marker: RegExp;
  start: () => Promise<ThrowawayService>;
  started: ThrowawayService[];
}): Promise<void> {
  const { host, port } = hostPort(options.configured);
  if (await isReachable(host, port)) {
    process.env[options.urlVar] = options.configured;
    return;
  }
  let reason: string;
  try {
    const service = await options.start();
    options.started.push(service);
    process.env[options.urlVar] = service.url;
    say(
      `${options.label}: nothing answered at ${host}:${port}; started a throwaway instance at ${service.url} (removed after the run)`,
    );
    return;
  } catch (error) {
    reason = `nothing answered at ${host}:${port} and no throwaway instance could be started (${error instanceof Error ? error.message : String(error)})`;
  }
  if (process.env.CI) throw new Error(`${options.label} is required under CI: ${reason}`);
  process.env[options.missingVar] = reason;
  say(`${options.label}: ${reason}.`);
  say(`  SKIPPED (the ${options.label} parts of): ${filesUsing(options.marker).join(', ')}`);
  say(`  Set ${options.urlVar} to a running server, or install it, to run them.`);
}

export default async function setup(): Promise<() => Promise<void>> {
  const started: ThrowawayService[] = [];
  await ensure({
    label: 'PostgreSQL',
    configured: process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? DEFAULT_POSTGRES_URL,
    urlVar: 'TEST_DATABASE_URL',
    missingVar: 'TEST_POSTGRES_MISSING',
    marker: POSTGRES_USE,
    start: startThrowawayPostgres,
    started,
  });
  await ensure({
    label: 'Redis',
    configured: process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? DEFAULT_REDIS_URL,
    urlVar: 'TEST_REDIS_URL',
    missingVar: 'TEST_REDIS_MISSING',
    marker: REDIS_USE,
    start: startThrowawayRedis,
    started,
  });
  return async () => {
    for (const service of started.reverse()) await service.stop();
  };
}
