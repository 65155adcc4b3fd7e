/**
 * Compiles PGlite's WebAssembly with V8's baseline compiler (Liftoff) only.
 *
 * With V8's default tiering, opening PGlite left about 56 MB more resident memory behind (optimised
 * code and the compiler's memory, which the process keeps): an idle `npm start` measured 241 MB
 * against 185 MB with Liftoff only (docs/benchmarks.md, "Idle memory"). Statements of the size
 * this server runs take about as long either way (0.4–0.6 ms per statement in both runs of the
 * same probe).
 *
 * V8 flags are process-wide, so the flag is set only while a PGlite instance opens (counted, for
 * instances opening at once) and cleared afterwards, so that WebAssembly compiled later in the
 * process (the login verify workers' liboqs) is optimised as usual. Clearing `--liftoff-only` is
 * not enough for that: setting it also turned off the flags it implies (`--wasm-tier-up`,
 * `--wasm-dynamic-tiering`), and V8 does not turn them back on. Left off, every later module ran at
 * Liftoff's speed: ML-DSA-65 verification took 0.55 ms instead of 0.12 ms (docs/benchmarks.md,
 * "Key logins"). Turning `--wasm-dynamic-tiering` back on, and only it, gives modules compiled
 * afterwards their tiering while PGlite's, compiled under Liftoff only, stays there: turning
 * `--wasm-tier-up` back on as well let PGlite's hot functions be optimised later, and an idle
 * `npm start` grew from 189 to 278 MB. tests/unit/server/liftoff.test.ts checks both halves.
 */
import v8 from 'node:v8';

let opening = 0;

export async function withLiftoffOnly<T>(open: () => Promise<T>): Promise<T> {
  if (opening === 0) v8.setFlagsFromString('--liftoff-only');
  opening += 1;
  try {
    return await open();
  } finally {
    opening -= 1;
    if (opening === 0) {
      v8.setFlagsFromString('--no-liftoff-only');
      v8.setFlagsFromString('--wasm-dynamic-tiering');
    }
  }
}
