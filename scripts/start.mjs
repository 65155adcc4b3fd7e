/**
 * `npm start`: builds the client when it is missing or older than its sources, then runs the
 * server in this process (TypeScript through tsx), so SIGTERM/SIGINT reach server/main.ts. The
 * build runs in a child process: Vite's module graph and bundler would otherwise stay in the
 * server's memory for its whole life (about 300 MB of resident memory, docs/benchmarks.md).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = path.join(root, 'dist/client/index.html');

function newestMtime(target) {
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target))
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

const sources = ['client', 'shared', 'vite.config.ts', 'package-lock.json'].map((p) =>
  path.join(root, p),
);
const needsBuild =
  !existsSync(builtIndex) ||
  Math.max(...sources.filter(existsSync).map(newestMtime)) > statSync(builtIndex).mtimeMs;

if (needsBuild) {
  process.stdout.write('Building the client...\n');
  // vite/package.json exports no bin path; its folder is found through the package entry.
  const viteEntry = createRequire(import.meta.url).resolve('vite');
  const viteBin = path.join(viteEntry.slice(0, viteEntry.lastIndexOf('/dist/')), 'bin/vite.js');
  const result = spawnSync(process.execPath, [viteBin, 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    process.stderr.write('The client build failed.\n');
    process.exit(result.status ?? 1);
  }
}

process.chdir(root);
const { register } = await import('tsx/esm/api');
register();
await import('../server/main.ts');
