/**
 * Creates an empty PGlite database in the folder given as the first argument, with the options
 * given as JSON in the second, then exits. Run as a child process on first start: initdb grows
 * PGlite's WebAssembly memory to several hundred MB, which a process never gives back, so it is
 * paid once in a process that then ends (docs/benchmarks.md, "Idle memory").
 */
import process from 'node:process';
import { PGlite } from '@electric-sql/pglite';

const [folder, optionsJson] = process.argv.slice(2);
if (!folder || !optionsJson) {
  process.stderr.write('usage: pglite-init.mjs FOLDER OPTIONS_JSON\n');
  process.exit(2);
}
const client = new PGlite(folder, JSON.parse(optionsJson));
await client.waitReady;
await client.close();
