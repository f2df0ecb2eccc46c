/**
 * The client's API key: a string, none at all (a backend of the application's own adds it), or a
 * function the client calls before each attempt (a short-lived key fetched from that backend). Every
 * key the client used is remembered, so that none of them reaches an error or a log line.
 *
 * @module
 */
import { PetStoreError } from '../errors.js';
import { FIELD_VALUE } from './headers.js';
import { keyPattern, redactWith } from './redact.js';

/** A function that returns the key for the next attempt, or a promise of it. */
export type ApiKeyFunction = () => string | PromiseLike<string>;

/** Why `key` cannot be sent as a bearer token, or `undefined` when it can. */
export function keyProblem(key: unknown): string | undefined {
  if (typeof key !== 'string' || key.trim() === '') return 'is empty';
  if (!FIELD_VALUE.test(key) || key !== key.trim()) {
    return 'must be Latin-1 text without control characters or surrounding spaces';
  }
  return undefined;
}

/**
 * What the rate-limit store knows each key function by: never a key, and random so that no two
 * processes (or applications sharing a store) take each other's functions for the same.
 */
const functionNames = new WeakMap<ApiKeyFunction, string>();

/**
 * The client's key: the header for each attempt, the name pacing knows it by, and redaction. Its
 * fields are `declare`d and set by the constructor alone, so a bundle defines each once.
 */
export class ApiKey {
  readonly #source: string | null | ApiKeyFunction;
  /** Every key used so far: a set that grows as a key function returns new ones. */
  readonly secrets = new Set<string>();
  /** The key itself when it is a string, for headers set once; `null` for none; `undefined` for a function. */
  declare readonly fixed: string | null | undefined;
  /** What the rate-limit store keeps this key's state under: the key, `''` for none, or the function's name. */
  declare readonly scopeName: string;

  constructor(source: string | null | ApiKeyFunction) {
    this.#source = source;
    if (typeof source === 'function') {
      const name = functionNames.get(source) ?? `apiKey function ${Math.random()}`;
      functionNames.set(source, name);
      this.scopeName = name;
    } else {
      this.fixed = source;
      this.scopeName = source ?? '';
      if (source !== null) this.#add(source);
    }
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
    this.#add(key as string);
    return key as string;
  }

  /** `value` with every key used so far, in any of its forms, replaced by `[redacted]`. */
  redact<T>(value: T): T {
    return redactWith(value, this.#pattern);
  }

  /** Finds every key used so far: made again as keys are added, since making it costs far more than using it. */
  #pattern: RegExp | undefined;

  #add(key: string): void {
    this.secrets.add(key);
    this.#pattern = keyPattern(this.secrets);
  }
}
