/**
 * `PetStoreClient`: the typed client of the Animal Store API.
 *
 * @module
 */
import { APIPromise, type WithResponse } from './core/api-promise.js';
import type { RequestSpec } from './core/call.js';
import { warnOnce } from './core/deprecation.js';
import {
  type CallRoute,
  nameCall,
  type OperationTrace,
  rawRoute,
  traceCall,
} from './core/diagnostics/channels.js';
import {
  type CallOptions,
  type ClientConfig,
  type ClientOptions,
  resolveCallOptions,
  resolveClientOptions,
} from './core/options.js';
import { describeRawRequest, type RawRequest } from './core/raw-request.js';
import type { StandardSchemaV1 } from './core/standard-schema.js';
import { Transport } from './core/transport.js';
import type { ClientQueue, RateLimit, RequestOptions } from './core/types.js';
import { validate } from './core/validate.js';
import {
  type CheckedArgument,
  OPERATIONS,
  type OperationArgument,
  type OperationData,
  type OperationName,
  type OperationSpec,
} from './operations.js';
import type { ListPetsParams, NewPet, Pet } from './schemas.js';

/** `Symbol.asyncDispose`'s type where the application's lib has it (esnext.disposable, @types/node); else none. */
type AsyncDisposeKey = SymbolConstructor extends { readonly asyncDispose: infer Key extends symbol }
  ? Key
  : never;

/**
 * `await using client = new PetStoreClient(...)`: {@link PetStoreClient.close} when the scope ends.
 * Typed where the application's lib knows `Symbol.asyncDispose`, so that no global is declared.
 *
 * @example
 * ```ts
 * import { PetStoreClient } from 'animal-store-sdk';
 *
 * await using client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
 * await client.listPets();
 * ```
 */
type AsyncDisposal = { readonly [Key in AsyncDisposeKey]: () => Promise<void> };

// The disposer's type, merged into the class: see AsyncDisposal.
export interface PetStoreClient extends AsyncDisposal {}

/**
 * The client of the Animal Store API.
 *
 * Every call validates its arguments before sending anything, sends the API key as a bearer
 * token, retries what is safe to retry, waits out rate limits, and parses the response with the
 * model's schemas. Failures are {@link PetStoreError} subclasses.
 *
 * @example
 * ```ts
 * import { PetStoreClient } from 'animal-store-sdk';
 *
 * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
 * const pet = await client.createPet({ name: 'Rex', categoryId: 1, status: 'available' });
 * const available = await client.listPets({ status: 'available', limit: 50 });
 * console.log(pet.id, available.length, client.rateLimit?.remaining);
 * ```
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface adds only AsyncDisposal, which the class implements
export class PetStoreClient {
  readonly #transport: Transport;
  readonly #options: ClientConfig;

  /**
   * @param options - Settings; `apiKey` and `baseUrl` may come from `PETSTORE_API_KEY` and
   * `PETSTORE_BASE_URL` instead.
   * @throws {@link PetStoreError} when an option is missing or invalid, and in a browser given a
   * string `apiKey` without `dangerouslyAllowBrowser: true`; `TypeError` for an option of an unknown
   * name, naming the one it most likely meant.
   */
  constructor(options: ClientOptions = {}) {
    this.#options = resolveClientOptions(options);
    this.#transport = new Transport(this.#options);
  }

  /**
   * The base URL requests go to, ending in `/v1/`.
   *
   * @example
   * ```ts
   * import { PetStoreClient } from 'animal-store-sdk';
   *
   * new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' }).baseUrl;
   * // 'https://api.example.com/v1/'
   * ```
   */
  get baseUrl(): string {
    return this.#options.baseUrl;
  }

  /**
   * What the latest response said about the rate limit, or `null` before any response carried
   * the `X-RateLimit-*` headers.
   *
   * @example
   * ```ts
   * import { PetStoreClient } from 'animal-store-sdk';
   *
   * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
   * await client.listPets();
   * console.log(client.rateLimit?.remaining, client.rateLimit?.reset);
   * ```
   */
  get rateLimit(): RateLimit | null {
    return this.#transport.rateLimit;
  }

  /**
   * The client's queue as it stands: calls waiting to be sent, requests in flight, how long the
   * call that has waited longest has waited, and whether the client is closed.
   *
   * @example
   * ```ts
   * import { PetStoreClient } from 'animal-store-sdk';
   *
   * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
   * const { waiting, inFlight, oldestWaitMs } = client.queue;
   * console.log(`${waiting} waiting (the oldest for ${oldestWaitMs} ms), ${inFlight} in flight`);
   * ```
   */
  get queue(): ClientQueue {
    return this.#transport.queue;
  }

  /**
   * Closes the client: every call waiting is rejected at once with a {@link RefusedError} whose
   * `code` is `client_closed` (nothing sent), requests in flight finish (or, with `abort: true`, are aborted, and may have
   * been sent), leases go back to the rate-limit store (the Redis store's too, for other processes
   * to spend), and every call made afterwards is rejected at once. Resolves when every call has
   * settled; the client then holds no timer or socket that keeps the process alive. Calling it
   * again returns the same promise (with `abort: true`, aborting what is still in flight).
   * `await using client = new PetStoreClient(...)` calls it when the scope ends.
   *
   * @param options - `abort: true` aborts the requests in flight rather than letting them finish.
   * @example
   * ```ts
   * import { PetStoreClient } from 'animal-store-sdk';
   *
   * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
   * process.once('SIGTERM', () => {
   *   void client.close().then(() => process.exit(0));
   * });
   * ```
   */
  close(options: { abort?: boolean | undefined } = {}): Promise<void> {
    return this.#transport.close(options.abort === true);
  }

  /** @internal Typed by AsyncDisposal, so that the declarations name no global `Symbol.asyncDispose`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /**
   * Lists animals, optionally filtered by status (`GET /pets`).
   *
   * @param params - `limit`: 1 to 100 (the service's default is 20); `status`: only animals with
   * this status.
   * @param options - Per-call options.
   * @example
   * ```ts
   * import { PetStoreClient } from 'animal-store-sdk';
   *
   * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
   * const pets = await client.listPets({ limit: 50, status: 'available' });
   * for (const pet of pets) console.log(pet.id, pet.name);
   * ```
   */
  listPets(params: ListPetsParams = {}, options?: RequestOptions): APIPromise<Pet[]> {
    return this.#operation('listPets', params, options);
  }

  /**
   * Adds an animal (`POST /pets`) and resolves with it, including the `id` the service assigned.
   *
   * A create is retried only after a 429, when the service refused it; never after a timeout or
   * a server error, which could have created the animal already. When a create fails with its
   * request in flight (a timeout, a lost connection, an abort), the error's `sent` is `'maybe'` and
   * its message says how to find out whether the animal exists.
   *
   * @param pet - `name` and `categoryId` are required.
   * @param options - Per-call options.
   * @example
   * ```ts
   * import { PetStoreClient } from 'animal-store-sdk';
   *
   * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
   * const rex = await client.createPet({ name: 'Rex', categoryId: 1, status: 'available' });
   * console.log(rex.id);
   * ```
   */
  createPet(pet: NewPet, options?: RequestOptions): APIPromise<Pet> {
    return this.#operation('createPet', pet, options, (created) => {
      return `The pet may exist: list pets and look for ${JSON.stringify(created.name)} before creating it again.`;
    });
  }

  /**
   * Reads one animal by id (`GET /pets/{petId}`).
   *
   * @deprecated The service removes this operation on 5 December 2030. Use
   * {@link PetStoreClient.listPets} with the `status` filter instead. The first call in a process
   * warns through the `logger` unless `deprecationWarnings` is `false`.
   * @param petId - The animal's id, an integer.
   * @param options - Per-call options.
   * @example
   * ```ts
   * import { NotFoundError, PetStoreClient } from 'animal-store-sdk';
   *
   * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
   * try {
   *   const pet = await client.getPet(42);
   *   console.log(pet.name);
   * } catch (error) {
   *   if (error instanceof NotFoundError) console.log('No pet 42');
   * }
   * ```
   */
  getPet(petId: number, options?: RequestOptions): APIPromise<Pet> {
    return this.#operation('getPet', petId, options);
  }

  /**
   * Sends a request to an endpoint the SDK does not model, through the same pipeline as the
   * operations: the bearer token, the timeout, retries (idempotent methods after 5xx, timeouts and
   * lost connections; every method after a 429), pacing and the cooldown, the error classes,
   * `withResponse()` and deprecation warnings.
   *
   * The path is relative to the base URL; one that could leave it is refused with a
   * `RequestValidationError` before anything is sent, so the key never goes elsewhere. Without a
   * `schema` the result is `unknown`: the parsed JSON when the response says it is JSON, the text
   * otherwise, `undefined` without a body. With a `schema` (any Standard Schema: zod, zod/mini,
   * valibot, arktype, ...) it is validated and typed as the schema's output, and a body that does
   * not match rejects with a `ResponseValidationError` holding the schema's own issues.
   *
   * @param spec - The method, path, and optionally query, JSON body, headers and response schema.
   * @param options - Per-call options.
   * @example
   * ```ts
   * import { PetStoreClient } from 'animal-store-sdk';
   * import * as z from 'zod';
   *
   * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
   * const OrderListSchema = z.array(z.object({ id: z.number(), petId: z.number(), quantity: z.number() }));
   *
   * const orders = await client.request({ method: 'GET', path: '/store/orders', query: { limit: 10 } });
   * const typed = await client.request({ method: 'GET', path: '/store/orders', schema: OrderListSchema });
   * console.log(orders, typed[0]?.quantity);
   * ```
   */
  request<S extends StandardSchemaV1 = StandardSchemaV1<unknown, unknown>>(
    spec: RawRequest<S>,
    options?: RequestOptions,
  ): APIPromise<StandardSchemaV1.InferOutput<S>> {
    return this.#call('request', rawRoute(spec), (trace) => {
      const request = describeRawRequest<StandardSchemaV1.InferOutput<S>>(spec, this.#options.apiKey);
      const requestOptions = resolveCallOptions(request.operation, options);
      nameCall(trace, request);
      return [request, requestOptions];
    });
  }

  /**
   * An operation of the table: its deprecation warned of, its options checked, then its argument,
   * which goes into the path, the query or the body as its entry says.
   */
  #operation<N extends OperationName>(
    name: N,
    argument: OperationArgument<N>,
    options: RequestOptions | undefined,
    ifUnknown?: (checked: CheckedArgument<N>) => string,
  ): APIPromise<OperationData<N>> {
    const operation: OperationSpec = OPERATIONS[name];
    const { deprecated } = operation;
    if (deprecated && this.#options.deprecationWarnings) {
      warnOnce(
        this.#options.log,
        name,
        () =>
          `animal-store-sdk: ${name} is deprecated and will be removed on ${deprecated.sunset}; use ${deprecated.successor} instead.`,
      );
    }
    return this.#call(name, operation, () => {
      const requestOptions = resolveCallOptions(name, options);
      const { path, param, query, body } = operation;
      const schema = param ?? query ?? body;
      const value = schema && validate(name, operation.argument, schema, argument);
      const spec: RequestSpec<OperationData<N>> = {
        ...operation,
        operation: name,
        // A string as the replacement, V8's fast path: encoding leaves no `$` in it.
        path: path.replace(/{\w+}/, encodeURIComponent(value as number)).slice(1),
        query: query && (value as RequestSpec<unknown>['query']),
        json: body && value,
        schema: operation.response as StandardSchemaV1<unknown, OperationData<N>> | undefined,
        // A success without a body (204) resolves with undefined rather than failing to parse.
        decode: operation.response ? 'json' : 'content-type',
        ifUnknown: ifUnknown?.(value as CheckedArgument<N>),
      };
      return [spec, requestOptions];
    });
  }

  /**
   * Checks the arguments, then sends, traced on the diagnostics channels while anyone listens; a
   * call whose arguments fail their checks rejects without a request.
   */
  #call<T>(
    operation: string,
    route: CallRoute,
    check: (trace: OperationTrace | undefined) => [RequestSpec<T>, CallOptions],
  ): APIPromise<T> {
    const send = (trace: OperationTrace | undefined): Promise<WithResponse<T>> =>
      this.#transport.request(check, trace);
    return new APIPromise(traceCall(operation, route, this.#options.baseUrl, send));
  }
}
