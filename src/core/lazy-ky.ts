/**
 * ky, loaded on the first request rather than when the SDK is imported. ky probes the runtime's
 * `Request` as its module loads, and on Node that loads the whole of Node's fetch (some 40 ms), a
 * cost an application that imports the SDK without calling it yet should not pay at import.
 *
 * @module
 */
import type { KyInstance, KyResponse, Options } from 'ky';

type KyModule = typeof import('ky');

let loaded: KyModule | undefined;
let loading: Promise<KyModule> | undefined;

function load(): Promise<KyModule> {
  loading ??= import('ky').then((module) => {
    loaded = module;
    return module;
  });
  return loading;
}

/** A ky instance made on its first call; it resolves with ky's response. */
export type LazyKyInstance = (input: string, options: Options) => Promise<KyResponse>;

/**
 * `ky.create`, deferred: the instance is created with `defaults` when it is first called.
 *
 * @example
 * ```ts
 * import { ky } from './lazy-ky.js';
 *
 * const api = ky.create({ timeout: 5_000 });
 * const response = await api('https://example.com/', { method: 'GET' });
 * ```
 */
export const ky = {
  create(defaults: Options): LazyKyInstance {
    let instance: KyInstance | undefined;
    return async (input, options) => {
      instance ??= (await load()).default.create(defaults);
      return instance(input, options);
    };
  },
};

// ky's type guards, usable before ky has loaded: until then they apply the rule ky's own guards
// apply across realms, the error's name, since an error from ky can only exist once ky has loaded.

function guard<K extends 'isHTTPError' | 'isNetworkError' | 'isTimeoutError'>(
  name: K,
  errorName: string,
): KyModule[K] {
  return ((error: unknown) =>
    loaded === undefined
      ? (error as Error | undefined)?.name === errorName
      : loaded[name](error)) as KyModule[K];
}

/** ky's `isHTTPError`. */
export const isHTTPError = guard('isHTTPError', 'HTTPError');

/** ky's `isNetworkError`. */
export const isNetworkError = guard('isNetworkError', 'NetworkError');

/** ky's `isTimeoutError`. */
export const isTimeoutError = guard('isTimeoutError', 'TimeoutError');
