/**
 * `npm start`: builds the client and the server when either is missing or older than its sources,
 * then runs the compiled server (dist-server/server/main.js, plain JavaScript) in this process,
 * so SIGTERM/SIGINT reach it. Both builds run in child processes: Vite's module graph and
 * bundler, or esbuild, would otherwise stay in the server's memory for its whole life (about
 * 300 MB of resident memory for Vite), and running TypeScript through tsx costs about 30 MB more
 * than the compiled JavaScript (docs/benchmarks.md, "Idle memory").
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isServerBuildStale, newestMtime, SERVER_ENTRY } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = path.join(root, 'dist/client/index.html');

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

if (isServerBuildStale()) {
  process.stdout.write('Building the server...\n');
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    process.stderr.write('The server build failed.\n');
    process.exit(result.status ?? 1);
  }
}

process.chdir(root);
await import(pathToFileURL(SERVER_ENTRY).href);
