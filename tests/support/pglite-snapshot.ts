/**
 * A migrated, empty PGlite data directory and PGlite's compiled WebAssembly module, made once and
 * shared by every in-memory test database (issue 36: a suite a team can wait for).
 *
 * A fresh in-memory PGlite runs initdb and then every migration: several seconds of WebAssembly per
 * server, and the suite starts hundreds. Starting from a snapshot of a database that already went
 * through exactly that skips both; the server still runs its migrations on open (finding nothing
 * left to do), so a snapshot that fell behind the migrations would still be brought up to date.
 *
 * The snapshot is a tarball in the system's temporary folder, named by a hash of the migrations,
 * PGlite's version and its options: the first process that needs it makes it (written to a
 * temporary name, then renamed, so processes starting at once never read half a file), every other
 * test process of the run, and of later runs, reads it. Within one process the module and the
 * tarball are kept after first use.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_OPTIONS, type PgliteStart } from '../../server/db/connect.js';
import { listMigrations, runMigrations } from '../../server/db/migrate.js';

const require = createRequire(import.meta.url);
const PGLITE_DIST = path.dirname(require.resolve('@electric-sql/pglite'));

let prepared: Promise<PgliteStart> | undefined;

/** What `openDatabase` needs to start an in-memory PGlite from the shared snapshot. */
export function pgliteSnapshot(): Promise<PgliteStart> {
  prepared ??= prepare();
  return prepared;
}

async function prepare(): Promise<PgliteStart> {
  const wasm = readFileSync(path.join(PGLITE_DIST, 'pglite.wasm'));
  const [pgliteWasmModule, tarball] = await Promise.all([
    WebAssembly.compile(wasm),
    snapshotTarball(),
  ]);
  return {
    pgliteWasmModule,
    fsBundle: new Blob([readFileSync(path.join(PGLITE_DIST, 'pglite.data'))]),
    loadDataDir: new Blob([tarball]),
  };
}

async function snapshotTarball(): Promise<Buffer<ArrayBuffer>> {
  const file = await snapshotPath();
  if (existsSync(file)) return readFileSync(file);
  // Made the long way, once: initdb, then every migration, as `openDatabase` runs them.
  const source = new PGlite({ ...PGLITE_OPTIONS });
  await source.waitReady;
  await runMigrations({
    exec: async (sql) => {
      await source.exec(sql);
    },
    query: async <Row>(sql: string, params: unknown[] = []) =>
      (await source.query<Row>(sql, params)).rows,
  });
  const dump = await source.dumpDataDir('none');
  await source.close();
  const bytes = Buffer.from(await dump.arrayBuffer());
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, bytes);
  renameSync(partial, file);
  return bytes;
}

async function snapshotPath(): Promise<string> {
  const hash = createHash('sha256');
  for (const migration of await listMigrations()) hash.update(migration.name).update(migration.sql);
  const pgliteVersion = (
    JSON.parse(readFileSync(path.join(PGLITE_DIST, '..', 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  hash.update(pgliteVersion).update(JSON.stringify(PGLITE_OPTIONS));
  const folder = path.join(tmpdir(), 'securechannel-test-pglite');
  mkdirSync(folder, { recursive: true });
  return path.join(folder, `${hash.digest('hex').slice(0, 24)}.tar`);
}
