/**
 * `letFakeStoreThrough()`: msw's unhandled-request option that passes the fake's own traffic (a
 * `listen()` server on whatever port it chose, a fake `connectFakePetStore` drives) and keeps a
 * strategy for everything else.
 *
 * @module
 */
import { checkNames } from '../../shared/option-names.js';
import { isFakeOrigin } from './fake-origins.js';

/**
 * Options of {@link letFakeStoreThrough}.
 *
 * @inline
 */
export interface LetFakeStoreThroughOptions {
  /** What msw does with any other unhandled request, as its own strategies do. Default `'error'`. */
  readonly otherwise?: 'error' | 'warn' | 'bypass';
  /**
   * More URLs whose origin is let through: a fake another process started, which this one reaches
   * without `connectFakePetStore` (a fake's `listen()` and `connectFakePetStore` are let through
   * without it).
   */
  readonly urls?: readonly (string | URL)[];
}

/** What msw passes to an `onUnhandledFrame` callback (msw 3), as far as this reads it.
 *
 * @inline
 */
export interface UnhandledFrameArgs {
  /** The unhandled frame; an HTTP frame's `data` holds its `request`. */
  readonly frame: {
    /** What the frame carries. */
    readonly data: unknown;
  };
  /** msw's own strategies for an unhandled frame. */
  readonly defaults: {
    /** Prints msw's warning. */
    warn(): void;
    /** Prints msw's error. */
    error(): void;
  };
}

/**
 * The unhandled-request option under both of msw's names: msw 3 reads `onUnhandledFrame`, msw 2
 * `onUnhandledRequest`, and each ignores the other.
 *
 * @inline
 */
export interface FakeStoreUnhandledOptions {
  /** msw 3's option. */
  readonly onUnhandledFrame: (args: UnhandledFrameArgs) => void;
  /** msw 2's option. */
  readonly onUnhandledRequest: (request: Request, print: { warning(): void; error(): void }) => void;
}

const OPTION_NAMES = Object.keys({ otherwise: 0, urls: 0 } satisfies Record<
  keyof LetFakeStoreThroughOptions,
  0
>);
const STRATEGIES: readonly unknown[] = ['error', 'warn', 'bypass'];

/**
 * msw's unhandled-request option that lets the fake's own requests through and applies `otherwise`
 * (default `'error'`) to the rest. The fake's own: those to a server `store.listen()` started in this
 * process, while it runs, on whatever port it chose (also by `localhost`, `127.0.0.1` or `[::1]` when
 * it listens on loopback); those to a fake `connectFakePetStore()` drives, its sessions included; and
 * those to the origins of `urls`. msw's `'error'` strategy alone refuses them all, and a filter on
 * one fixed origin misses a port chosen at random. Spread it into `server.listen()` or
 * `worker.start()`; it works with msw 2 and 3.
 *
 * @example
 * ```ts
 * import { PetStoreClient } from 'animal-store-sdk';
 * import { createFakePetStore, fakePetStoreConstants, letFakeStoreThrough } from 'animal-store-sdk/testing';
 * import { setupServer } from 'msw/node';
 *
 * const server = setupServer(); // with the app's other handlers
 * server.listen(letFakeStoreThrough()); // in a page: worker.start({ ...letFakeStoreThrough(), quiet: true })
 *
 * const fake = await createFakePetStore().listen(); // a random port
 * const client = new PetStoreClient({ apiKey: fakePetStoreConstants.defaultApiKey, baseUrl: fake.url });
 * await client.listPets(); // reaches the fake; a request elsewhere with no handler fails
 * await fake.close();
 * server.close();
 * ```
 */
export function letFakeStoreThrough(options: LetFakeStoreThroughOptions = {}): FakeStoreUnhandledOptions {
  checkNames('letFakeStoreThrough option', options, OPTION_NAMES);
  const { otherwise = 'error', urls = [] } = options;
  if (!STRATEGIES.includes(otherwise)) {
    throw new TypeError(
      `letFakeStoreThrough: otherwise must be "error", "warn" or "bypass", got ${String(otherwise)}`,
    );
  }
  const origins = new Set(urls.map((url) => new URL(url).origin));
  const isFake = (url: string) => isFakeOrigin(url) || origins.has(new URL(url).origin);
  return {
    onUnhandledFrame({ frame, defaults }) {
      const { request } = frame.data as { request?: Request };
      if ((request !== undefined && isFake(request.url)) || otherwise === 'bypass') return;
      if (otherwise === 'warn') return defaults.warn();
      defaults.error();
      // msw 3's defaults.error(), and later msw 2's print.error(), only print: a thrown network error
      // is what fails the request, as HttpResponse.error() in a handler (any other throw is a 500).
      throw Response.error();
    },
    onUnhandledRequest(request, print) {
      if (isFake(request.url) || otherwise === 'bypass') return;
      if (otherwise === 'warn') return print.warning();
      print.error();
      throw Response.error();
    },
  };
}
