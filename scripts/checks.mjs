/**
 * `npm test`'s first half: the three type-checks, ESLint, Prettier and the build, side by side
 * (each is one mostly single-threaded process, and the machine has more than one core), with each
 * one's output printed whole when it ends, in the order they end, and its time. Exits non-zero
 * when any of them failed, after all have ended, so that one run shows every failure.
 *
 * `npm run typecheck`, `npm run lint` and `npm run build` run the same commands one at a time.
 */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/** Each check: a name and the commands it runs one after the other. */
const CHECKS = [
  { name: 'typecheck: server', commands: [[bin('tsc'), '-p', 'tsconfig.server.json']] },
  { name: 'typecheck: client', commands: [[bin('tsc'), '-p', 'tsconfig.client.json']] },
  { name: 'typecheck: tests', commands: [[bin('tsc'), '-p', 'tsconfig.tests.json']] },
  { name: 'lint: eslint', commands: [[bin('eslint'), '.', '--max-warnings', '0']] },
  { name: 'lint: prettier', commands: [[bin('prettier'), '--check', '.']] },
  {
    name: 'build',
    commands: [
      [bin('vite'), 'build'],
      [process.execPath, 'scripts/build-server.mjs'],
    ],
  },
];

const LANES = Math.max(2, Math.min(CHECKS.length, availableParallelism()));

function runCommand([command, ...args], output) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, FORCE_COLOR: '1' } });
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      resolve(1);
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

async function runCheck(check) {
  const started = performance.now();
  const output = [];
  let code = 0;
  for (const command of check.commands) {
    code = await runCommand(command, output);
    if (code !== 0) break;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const verdict = code === 0 ? 'ok' : `FAILED (exit ${code})`;
  process.stdout.write(`\n── ${check.name}: ${verdict} in ${seconds} s\n`);
  process.stdout.write(Buffer.concat(output));
  return code === 0;
}

const queue = [...CHECKS];
const results = [];
const started = performance.now();
await Promise.all(
  Array.from({ length: LANES }, async () => {
    for (let check = queue.shift(); check; check = queue.shift())
      results.push(await runCheck(check));
  }),
);
const failed = results.filter((ok) => !ok).length;
const seconds = ((performance.now() - started) / 1000).toFixed(1);
process.stdout.write(
  `\n${failed === 0 ? 'All checks passed' : `${failed} check(s) failed`} in ${seconds} s (${LANES} at a time)\n`,
);
process.exit(failed === 0 ? 0 : 1);
