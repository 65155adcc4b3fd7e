/**
 * `npm run build` (after the client) and `npm start` (when missing or stale): compiles server/ and
 * shared/ from TypeScript to plain JavaScript in dist-server/, one file per source file with the
 * same layout, and copies the files the server reads beside its code (migrations, the .mjs worker
 * and init scripts). The server then runs without a TypeScript loader: tsx compiling at load and
 * keeping its source maps cost about 30 MB of resident memory (docs/benchmarks.md, "Idle memory").
 *
 * esbuild only strips types; `npm run typecheck` is what checks them.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_OUT_DIR = path.join(root, 'dist-server');
/** The compiled entry point `npm start` runs. */
export const SERVER_ENTRY = path.join(SERVER_OUT_DIR, 'server/main.js');
/** Written when a build completes; its time is what the staleness check compares with. */
const BUILT_STAMP = path.join(SERVER_OUT_DIR, 'built-at');
/** Folders compiled into dist-server/ (their sources decide whether it is stale). */
export const SERVER_SOURCES = ['server', 'shared'].map((folder) => path.join(root, folder));

function listFiles(folder) {
  const files = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) files.push(...listFiles(full));
    else files.push(full);
  }
  return files;
}

/** Newest modification time of a file or of anything under a folder. */
export function newestMtime(target) {
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target))
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** True when dist-server/ is missing or older than any file of server/ or shared/. */
export function isServerBuildStale() {
  if (!existsSync(SERVER_ENTRY) || !existsSync(BUILT_STAMP)) return true;
  const built = statSync(BUILT_STAMP).mtimeMs;
  return SERVER_SOURCES.some((folder) => existsSync(folder) && newestMtime(folder) > built);
}

/**
 * Compiles TypeScript files into dist-server/ at their paths relative to the repository, one
 * JavaScript file each (imports stay as written). Also used by the bench for its server entries,
 * which then import the compiled server beside them.
 */
export async function compileToServerOut(files) {
  // Loaded here, not at the top: `npm start` imports this file for its staleness check only.
  const { build } = await import('esbuild');
  await build({
    entryPoints: files,
    outdir: SERVER_OUT_DIR,
    outbase: root,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: false,
    logLevel: 'warning',
  });
}

export async function buildServer() {
  const startedAt = Date.now();
  rmSync(SERVER_OUT_DIR, { recursive: true, force: true });
  const sources = SERVER_SOURCES.flatMap(listFiles);
  await compileToServerOut(
    sources.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts')),
  );
  // Everything else the code reads relative to itself; documentation stays behind.
  for (const file of sources) {
    if (file.endsWith('.ts') || file.endsWith('.md')) continue;
    const target = path.join(SERVER_OUT_DIR, path.relative(root, file));
    mkdirSync(path.dirname(target), { recursive: true });
    cpSync(file, target);
  }
  // The compiled files are ES modules like their sources (package.json "type": "module").
  writeFileSync(path.join(SERVER_OUT_DIR, 'package.json'), '{ "type": "module" }\n');
  if (!existsSync(SERVER_ENTRY)) throw new Error('dist-server/server/main.js was not written');
  writeFileSync(BUILT_STAMP, `${new Date(startedAt).toISOString()}\n`);
  // The stamp carries the time the build started, so a source saved during the build is newer.
  utimesSync(BUILT_STAMP, startedAt / 1000, startedAt / 1000);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildServer();
}
