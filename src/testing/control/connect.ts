/**
 * `connectFakePetStore`: drives a fake Animal Store served by another process (the
 * `animal-store-fake-server` command, or `store.listen()`) through its control API, from Node or a
 * browser, with the calls of the in-process store.
 *
 * @module
 */
import * as z from 'zod';
import { ErrorBodySchema, type Pet, PetListSchema } from '../../schemas.js';
import { checkNames } from '../../shared/option-names.js';
import type { ChaosOptions } from '../disruptions/chaos.js';
import type { FaultMatch } from '../disruptions/fault-match.js';
import type { FaultOptions } from '../disruptions/faults.js';
import { addFakeOrigins } from '../msw/fake-origins.js';
import type { Har } from '../recording/har.js';
import { parseBaseUrl } from '../store/base-url.js';
import type { RecordedRequest } from '../store/request-log.js';
import { FakeStoreVerificationError } from '../verify/verification.js';
import { CONTROL_PATH, controlTarget, controlUrlOf, sessionBasePath } from './control-urls.js';

/**
 * A {@link FaultMatch} as it crosses the network: `path` is a string (exact, or a pattern with `{name}`
 * segments), and there is no `predicate`.
 *
 * @inline
 */
export type RemoteFaultMatch = Omit<FaultMatch, 'path' | 'predicate'> & {
  /** The path under the base URL, exactly or as a pattern with `{name}` segments (`/pets/{petId}`). */
  readonly path?: string;
};

/**
 * A {@link FaultOptions} as it crosses the network, with a {@link RemoteFaultMatch}.
 *
 * @inline
 */
export type RemoteFaultOptions = Omit<FaultOptions, 'match'> & {
  /** Which requests it applies to; default every request. */
  readonly match?: RemoteFaultMatch;
};

/**
 * A {@link ChaosOptions} as it crosses the network, with a {@link RemoteFaultMatch} (without `nth`).
 *
 * @inline
 */
export type RemoteChaosOptions = Omit<ChaosOptions, 'match'> & {
  /** Which requests chaos considers. Default every request to the API. */
  readonly match?: Omit<RemoteFaultMatch, 'nth'>;
};

/**
 * The options of {@link connectFakePetStore}.
 *
 * @example
 * ```ts
 * import type { ConnectOptions } from 'animal-store-sdk/testing';
 *
 * const options: ConnectOptions = { token: 'the-control-token' };
 * ```
 */
export interface ConnectOptions {
  /** The control token the server was started with (`--control-token`), sent as a bearer token. */
  readonly token?: string;
}

/**
 * A fake Animal Store in another process, driven through its control API: the calls of the in-process
 * store, each returning a promise, and its state (`pets`, `requests`) read by awaiting the property of
 * the same name. A call the server refuses rejects with a {@link FakeStoreControlError}.
 *
 * @example
 * ```ts
 * import { connectFakePetStore } from 'animal-store-sdk/testing';
 *
 * const store = connectFakePetStore('http://127.0.0.1:4010/v1');
 * await store.reset();
 * await store.setPets([{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]);
 * await store.injectFault({ status: 503, match: { method: 'GET', path: '/pets' } });
 * console.log(await store.pets, await store.requests);
 * ```
 */
export interface RemoteFakePetStore {
  /** The base URL of the store's API, ending in `/v1`: what a client under test is given. */
  readonly baseUrl: string;
  /** The URL of the store's control API. */
  readonly controlUrl: string;
  /** Returns to the initial state, as `store.reset()` does. */
  reset(): Promise<void>;
  /** The current animals, ordered by id, as `store.pets` lists them: `await fake.pets`. */
  readonly pets: PromiseLike<Pet[]>;
  /** Replaces every animal; new ids continue above the highest of them. */
  setPets(pets: readonly Pet[]): Promise<void>;
  /** Injects a fault for the next matching request(s). */
  injectFault(fault: RemoteFaultOptions): Promise<void>;
  /** Removes every injected fault, and ends chaos. */
  clearFaults(): Promise<void>;
  /** The requests the store received, oldest first, as `store.requests` lists them: `await fake.requests`. */
  readonly requests: PromiseLike<RecordedRequest[]>;
  /** The request log as a HAR 1.2 archive, every key redacted, as `store.toHAR()` gives it. */
  toHAR(): Promise<Har>;
  /**
   * Moves the store's clock forward by `ms`: windows and bans that end within it pass at once.
   * Resolves to the store's time after the move, in milliseconds since the epoch, as the control
   * API answers it.
   */
  advanceClock(ms: number): Promise<{
    /** The store's time after the move, in milliseconds since the epoch. */
    readonly now: number;
  }>;
  /** Starts reproducible chaos, replacing any before it. */
  injectChaos(options: RemoteChaosOptions): Promise<void>;
  /** Ends chaos; injected faults stay. */
  clearChaos(): Promise<void>;
  /**
   * Checks the store as `store.verify()` does: rejects with a {@link FakeStoreVerificationError}
   * naming each fault that never fired (with the closest requests received) and, on a strict store,
   * each request to a path the fake does not model.
   */
  verify(): Promise<void>;
  /**
   * A new, isolated store on the same server (its own pets, keys' windows, log, faults, chaos and
   * clock), served at its own base URL. Sessions are not nested: a session's `createSession()` makes
   * another session of the same server.
   */
  createSession(): Promise<RemoteFakePetStoreSession>;
}

/**
 * A session of a fake HTTP server: a {@link RemoteFakePetStore} of its own, with its id.
 *
 * @example
 * ```ts
 * import { connectFakePetStore } from 'animal-store-sdk/testing';
 *
 * const session = await connectFakePetStore('http://127.0.0.1:4010/v1').createSession();
 * console.log(session.baseUrl); // http://127.0.0.1:4010/sessions/<id>/v1
 * await session.end();
 * ```
 */
export interface RemoteFakePetStoreSession extends RemoteFakePetStore {
  /** The session's id. */
  readonly id: string;
  /** Ends the session: its URLs answer 404 from then on. */
  end(): Promise<void>;
}

/**
 * A control request the fake server refused: the status and the Error body's `code` and `message`.
 *
 * @example
 * ```ts
 * import { connectFakePetStore, FakeStoreControlError } from 'animal-store-sdk/testing';
 *
 * try {
 *   await connectFakePetStore('http://127.0.0.1:4010/v1').advanceClock(-1);
 * } catch (error) {
 *   if (error instanceof FakeStoreControlError) console.error(error.status, error.code, error.message);
 * }
 * ```
 */
export class FakeStoreControlError extends Error {
  /** `'FakeStoreControlError'`. */
  override readonly name = 'FakeStoreControlError';
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The Error body's `code`, or `http_<status>` when the body is not the Error shape. */
  readonly code: string;

  /** @param status The answer's status. @param code Its Error code. @param message What went wrong. */
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Every option's name: the type makes one added to {@link ConnectOptions} be listed here. */
const CONNECT_OPTION_NAMES = Object.keys({ token: 0 } satisfies Record<keyof ConnectOptions, 0>);

const SessionCreatedSchema = z.object({ id: z.string(), baseUrl: z.string(), controlUrl: z.string() });
const ClockSchema = z.object({ now: z.number() });
const VerifySchema = z.object({ problems: z.array(z.string()) });

/**
 * Connects to a fake Animal Store in another process through its control API. `url` is the store's
 * base URL, ending in `/v1`: the first URL the `animal-store-fake-server` command prints ("listening
 * on"), not the control API's (`/__fake`), which it finds from there. `store.listen()`'s `url` and a
 * session's `baseUrl` do as well. Nothing is sent until a call is made. Works in Node, Bun, Deno and,
 * in a page whose origin the server trusts (`control.trustedOrigins`, `--trusted-origins`), browsers.
 *
 * @throws TypeError when `url` is not a base URL ending in `/v1` (for the control API's URL, the
 * error names the base URL to give), or for an option of an unknown name.
 *
 * @example
 * ```ts
 * import { PetStoreClient } from 'animal-store-sdk';
 * import { connectFakePetStore } from 'animal-store-sdk/testing';
 *
 * const fake = connectFakePetStore('http://127.0.0.1:4010/v1');
 * const session = await fake.createSession(); // isolated from other tests
 * await session.setPets([{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]);
 *
 * const client = new PetStoreClient({ apiKey: 'test-api-key', baseUrl: session.baseUrl });
 * await client.listPets(); // [Rex]
 * await session.end();
 * ```
 */
export function connectFakePetStore(url: string | URL, options: ConnectOptions = {}): RemoteFakePetStore {
  checkNames('connectFakePetStore option', options, CONNECT_OPTION_NAMES);
  refuseControlUrl(url);
  const base = parseBaseUrl(url);
  addFakeOrigins([base.href]);
  return remoteStore(base.href, controlUrlOf(new URL(base.href)), options.token);
}

function remoteStore(baseUrl: string, controlUrl: string, token: string | undefined): RemoteFakePetStore {
  const call = (method: string, path: string, body?: unknown) =>
    control(`${controlUrl}${path}`, method, token, body);
  const rootControl = `${new URL(controlUrl).origin}${CONTROL_PATH}`;
  return {
    baseUrl,
    controlUrl,
    reset: async () => void (await call('POST', '/reset')),
    pets: remoteRead(async () => PetListSchema.parse(await call('GET', '/pets'))),
    setPets: async (pets) => void (await call('PUT', '/pets', pets)),
    injectFault: async (fault) => void (await call('POST', '/faults', faultJson(fault))),
    clearFaults: async () => void (await call('DELETE', '/faults')),
    // The log's shape is the server's own; parsing it again would only cost time.
    requests: remoteRead(async () => (await call('GET', '/requests')) as RecordedRequest[]),
    toHAR: async () => (await call('GET', '/requests.har')) as Har,
    advanceClock: async (ms) => ClockSchema.parse(await call('POST', '/clock', { advanceMs: ms })),
    injectChaos: async (chaos) =>
      void (await call('POST', '/chaos', { ...chaos, match: matchJson(chaos.match) })),
    clearChaos: async () => void (await call('DELETE', '/chaos')),
    verify: async () => {
      const { problems } = VerifySchema.parse(await call('GET', '/verify'));
      if (problems.length > 0) throw new FakeStoreVerificationError(problems);
    },
    createSession: async () => {
      const created = SessionCreatedSchema.parse(await control(`${rootControl}/sessions`, 'POST', token));
      const session = remoteStore(created.baseUrl, created.controlUrl, token);
      return {
        ...session,
        id: created.id,
        end: async () => void (await control(created.controlUrl, 'DELETE', token)),
      };
    },
  };
}

/** A read that each await sends afresh. */
function remoteRead<T>(read: () => Promise<T>): PromiseLike<T> {
  const then: PromiseLike<T>['then'] = (onFulfilled, onRejected) => read().then(onFulfilled, onRejected);
  return { then };
}

/** Throws when `url` is a control API's: the error names the store's base URL on the default path. */
function refuseControlUrl(url: string | URL): void {
  if (!URL.canParse(url)) return;
  const { origin, pathname, href } = new URL(url);
  const target = controlTarget(pathname.replace(/\/$/, ''));
  if (target === undefined) return;
  const base = `${origin}${target.session === undefined ? '/v1' : sessionBasePath(target.session, '/v1')}`;
  throw new TypeError(
    `${href} is the fake's control API; connectFakePetStore takes the store's base URL, ending in /v1 ` +
      `(${base} unless the server was given another path): the URL the command prints as "listening on"`,
  );
}

/** A fault as JSON: `times: Infinity` as `"Infinity"`, which JSON can carry. */
function faultJson(fault: RemoteFaultOptions): unknown {
  const { times } = fault;
  return {
    ...fault,
    match: matchJson(fault.match),
    times: times === Number.POSITIVE_INFINITY ? 'Infinity' : times,
  };
}

/**
 * Refuses what JSON would silently drop or mangle: a predicate (a function) and a RegExp path, which
 * would reach the server as nothing and `{}`.
 */
function matchJson(match: RemoteFaultMatch | undefined): RemoteFaultMatch | undefined {
  const raw = match as FaultMatch | undefined;
  if (raw?.predicate !== undefined) {
    throw new TypeError(
      'match.predicate runs only in process; over the control API, match by method, path, query, headers or body',
    );
  }
  if (raw?.path instanceof RegExp) {
    throw new TypeError(
      'match.path must be a string over the control API: a path, or a pattern such as /pets/{petId}',
    );
  }
  return match;
}

/** Sends one control request and returns its JSON answer (`undefined` for 204), or throws what the server said. */
async function control(
  url: string,
  method: string,
  token: string | undefined,
  body?: unknown,
): Promise<unknown> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(url, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.ok) return text === '' ? undefined : (JSON.parse(text) as unknown);
  let error = ErrorBodySchema.safeParse(undefined);
  try {
    error = ErrorBodySchema.safeParse(JSON.parse(text));
  } catch {
    // Not JSON: a proxy's page, say; the status still tells what happened.
  }
  throw error.success
    ? new FakeStoreControlError(response.status, error.data.code, error.data.message)
    : new FakeStoreControlError(
        response.status,
        `http_${response.status}`,
        `${method} ${url} answered ${response.status}`,
      );
}
