/**
 * PGlite's WebAssembly is compiled by Liftoff only (server/db/liftoff.ts), and WebAssembly compiled
 * afterwards — the login verifier's liboqs — gets V8's normal tiering again. Checked in a child
 * process with V8's natives syntax: a hot function of a module compiled while PGlite opens stays at
 * Liftoff, then and afterwards (optimised PGlite code is resident memory an idle server keeps); a
 * hot function of a module compiled after the opening reaches TurboFan.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const liftoffModule = fileURLToPath(new URL('../../../server/db/liftoff.ts', import.meta.url));

// (module (func (export "add") (param i32 i32) (result i32) local.get 0 local.get 1 i32.add))
const ADD_WASM = [
  0, 97, 115, 109, 1, 0, 0, 0, 1, 7, 1, 96, 2, 127, 127, 1, 127, 3, 2, 1, 0, 7, 7, 1, 3, 97, 100,
  100, 0, 0, 10, 9, 1, 7, 0, 32, 0, 32, 1, 106, 11,
];

const PROBE = `
const { withLiftoffOnly } = await import(${JSON.stringify(liftoffModule)});
const bytes = new Uint8Array(${JSON.stringify(ADD_WASM)});
async function tiersUp(add) {
  let sum = 0;
  for (let round = 0; round < 50; round++) {
    for (let i = 0; i < 200000; i++) sum = add(sum, i) | 0;
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (%IsTurboFanFunction(add)) return true;
  }
  return false;
}
let opened;
const during = await withLiftoffOnly(async () => {
  opened = (await WebAssembly.instantiate(bytes)).instance;
  return tiersUp(opened.exports.add);
});
const openedLater = await tiersUp(opened.exports.add);
// Other bytes (i32.sub), so that V8's cache of compiled modules does not hand back the first one.
const later = bytes.slice();
later[later.length - 2] = 107;
const after = await tiersUp((await WebAssembly.instantiate(later)).instance.exports.add);
console.log(JSON.stringify({ during, openedLater, after }));
`;

describe('withLiftoffOnly', () => {
  it('keeps what it opens at Liftoff for good and gives WebAssembly compiled later its normal tiering', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '--eval', PROBE],
      { timeout: 60_000 },
    );
    expect(JSON.parse(stdout.trim())).toEqual({ during: false, openedLater: false, after: true });
  }, 90_000);
});
