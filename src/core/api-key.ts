/**
 * The client's API key: a string, none (the application's backend adds it), or a function called
 * before each attempt. Each call redacts the keys its own attempts used; redaction outside a call
 * hides those of the call that last asked for one.
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

/** The rate-limit store's name for each key function: random, so no two processes share one. */
const functionNames = new WeakMap<ApiKeyFunction, string>();

/** Redaction by the keys one call used (or the fixed key). */
export interface KeyRedactor {
  add(key: string): void;
  redact<T>(value: T): T;
}

/** A {@link KeyRedactor} whose pattern is made when first used after a key is added. */
export function keyRedactor(): KeyRedactor {
  const keys: string[] = [];
  let pattern: RegExp | undefined | null = null;
  // A text shorter than every key holds none: it needs no pattern, which costs more to make than to use.
  let shortest = Infinity;
  return {
    add(key) {
      if (keys.includes(key)) return;
      keys.push(key);
      shortest = Math.min(shortest, key.length);
      pattern = null;
    },
    redact(value) {
      if (typeof value === 'string' && value.length < shortest) return value;
      pattern ??= keyPattern(keys);
      return redactWith(value, pattern);
    },
  };
}

/** The client's key: the header for each attempt, the name pacing knows it by, and redaction. */
export class ApiKey {
  /** The key function; none for a string key or none at all. */
  readonly #source?: ApiKeyFunction;
  #latest = keyRedactor();
  // `declare`d fields are set by the constructor alone, so a bundle defines each once.
  /** The key when it is a string; `null` for none; `undefined` for a function. */
  declare readonly fixed: string | null | undefined;
  /** What the rate-limit store keeps this key's state under. */
  declare readonly scopeName: string;

  constructor(source: string | null | ApiKeyFunction) {
    if (typeof source === 'function') {
      this.#source = source;
      const name = functionNames.get(source) ?? `apiKey function ${Math.random()}`;
      functionNames.set(source, name);
      this.scopeName = name;
    } else {
      this.fixed = source;
      this.scopeName = source ?? '';
      if (source !== null) this.#latest.add(source);
    }
  }

  /**
   * The key function's key for the next attempt (only a key function has one), added to `used`; a
   * {@link PetStoreError} when the function fails.
   */
  async next(used: KeyRedactor): Promise<string> {
    let key: unknown;
    try {
      key = await (this.#source as ApiKeyFunction)();
    } catch (error) {
      throw new PetStoreError('The apiKey function failed; nothing was sent.', { cause: error });
    }
    const problem = keyProblem(key);
    if (problem) {
      throw new PetStoreError(`The key the apiKey function returned ${problem}; nothing was sent.`);
    }
    used.add(key as string);
    this.#latest = used;
    return key as string;
  }

  /** `value` with the key, or the latest call's keys, replaced by `[redacted]`. */
  readonly redact = <T>(value: T): T => this.#latest.redact(value);
}
