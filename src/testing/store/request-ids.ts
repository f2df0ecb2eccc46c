/**
 * The fake's request ids: one per request, unique within a store, and the same for the same
 * sequence of requests when the store has a `requestIdSeed`.
 *
 * @module
 */

/** The largest `requestIdSeed`: the seed is written as 8 hexadecimal digits. */
const MAX_SEED = 0xffff_ffff;

/**
 * Request ids `req_<8 hex digits>_<sequence>`: the digits are the seed's (random when none was
 * given, chosen anew on every reset), the sequence counts the store's requests from 1.
 */
export class RequestIds {
  readonly #seed: number | undefined;
  #prefix: string;
  #count = 0;

  /** @param seed - An integer from 0 to 2^32 - 1, or `undefined` for a random one. */
  constructor(seed: number | undefined) {
    if (seed !== undefined && !(Number.isInteger(seed) && seed >= 0 && seed <= MAX_SEED)) {
      throw new RangeError(`requestIdSeed must be an integer from 0 to ${MAX_SEED}, got ${String(seed)}`);
    }
    this.#seed = seed;
    this.#prefix = prefix(seed);
  }

  /** The next request's id. */
  next(): string {
    this.#count++;
    return `req_${this.#prefix}_${String(this.#count).padStart(6, '0')}`;
  }

  /** Starts the sequence again (with a new random prefix when unseeded, so ids stay unique). */
  reset(): void {
    this.#count = 0;
    this.#prefix = prefix(this.#seed);
  }
}

function prefix(seed: number | undefined): string {
  const value = seed ?? (crypto.getRandomValues(new Uint32Array(1))[0] as number);
  return value.toString(16).padStart(8, '0');
}
