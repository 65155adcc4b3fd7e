/**
 * A seeded random source (mulberry32): the same seed gives the same game, so physics tests are
 * exact. Production seeds each game from `crypto.randomInt`.
 */
export type RandomSource = () => number;

/** Numbers in [0, 1) from a 32-bit seed. */
export function seededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
