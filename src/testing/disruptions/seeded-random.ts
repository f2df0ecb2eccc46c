/**
 * Seeded pseudo-random numbers for chaos: the numbers of the nth draw depend on the seed and n only, on
 * every runtime.
 *
 * Written here rather than taken from a package: `Math.random` cannot be seeded, the job is a dozen
 * lines of well-known public-domain mixing (murmur3's finalizer to spread the seed and the index, then
 * mulberry32), and the fake needs no cryptographic strength, only the same numbers everywhere.
 *
 * @module
 */

/** Spreads the bits of a 32-bit value (murmur3's fmix32), so nearby inputs give unrelated outputs. */
function mix(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85eb_ca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2_ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * A generator of numbers in [0, 1) for draw number `index` under `seed`: each call gives the next one
 * (mulberry32).
 */
export function seededRandom(seed: number, index: number): () => number {
  let state = mix(mix(seed) ^ Math.imul(index, 0x9e37_79b9));
  return () => {
    state = (state + 0x6d2b_79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
