/**
 * The client's API key: a string, none at all (a backend of the application's own adds it), or a
 * function the client calls before each attempt (a short-lived key fetched from that backend). Every
 * key the client used is remembered, so that none of them reaches an error or a log line.
 *
 * @module
 */
import { PetStoreError } from '../errors.js';
import { FIELD_VALUE } from './headers.js';
import { redact } from './redact.js';

/** A function that returns the key for the next attempt, or a promise of it. */
export type ApiKeyFunction = () => string | PromiseLike<string>;

/** Why `key` cannot be sent as a bearer token, or `undefined` when it can. */
export function keyProblem(key: unknown): string | undefined {
  if (typeof key !== 'string' || key.trim() === '') return 'is empty';
  if (!FIELD_VALUE.test(key) || key !== key.trim()) {
    return 'must be Latin-1 text without NUL, line breaks or surrounding spaces';
  }
  return undefined;
}

/** A name for each key function, the same for every client given the same function. */
const functionNames = new WeakMap<ApiKeyFunction, string>();
let functionsNamed = 0;

/**
 * What the rate-limit store knows a key function by. It is never a key, and it is random so that no
 * two processes (or applications sharing a store) ever take each other's functions for the same.
 */
function nameOf(source: ApiKeyFunction): string {
  let name = functionNames.get(source);
  if (name === undefined) {
    name = `apiKey function ${++functionsNamed} ${Math.random().toString(36).slice(2)}`;
    functionNames.set(source, name);
  }
  return name;
}

export class ApiKey {
  readonly #source: string | null | ApiKeyFunction;
  readonly #used = new Set<string>();
  /** What the rate-limit store keeps this key's state under: the key, `''` for none, or the function's name. */
  readonly scopeName: string;

  constructor(source: string | null | ApiKeyFunction) {
    this.#source = source;
    if (typeof source === 'string') this.#used.add(source);
    this.scopeName = typeof source === 'function' ? nameOf(source) : (source ?? '');
  }

  /** The key itself when it is a string, for headers set once; `null` for none; `undefined` for a function. */
  get fixed(): string | null | undefined {
    return typeof this.#source === 'function' ? undefined : this.#source;
  }

  /** Every key used so far: a set that grows as a key function returns new ones. */
  get secrets(): ReadonlySet<string> {
    return this.#used;
  }

  /**
   * Calls the key function for the next attempt and checks what it returns.
   *
   * @throws {@link PetStoreError} when the function throws, rejects or returns no valid key.
   */
  async next(): Promise<string> {
    const source = this.#source;
    if (typeof source !== 'function') return source ?? '';
    let key: unknown;
    try {
      key = await source();
    } catch (error) {
      throw new PetStoreError('The apiKey function failed; nothing was sent.', { cause: error });
    }
    const problem = keyProblem(key);
    if (problem !== undefined) {
      throw new PetStoreError(`The key the apiKey function returned ${problem}; nothing was sent.`);
    }
    this.#used.add(key as string);
    return key as string;
  }

  /** `value` with every key used so far replaced by `[redacted]`. */
  redact<T>(value: T): T {
    return redact(value, this.#used);
  }
}
