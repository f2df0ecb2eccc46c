/**
 * The promise every operation returns.
 *
 * @module
 */
import type { RateLimit } from './types.js';

/**
 * The parsed data of a call together with the raw response it came from.
 *
 * @example
 * ```ts
 * import { PetStoreClient, type Pet, type WithResponse } from 'animal-store-sdk';
 *
 * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
 * const result: WithResponse<Pet[]> = await client.listPets().withResponse();
 * console.log(result.response.status, result.data.length, result.rateLimit?.remaining, result.requestId);
 * ```
 */
export interface WithResponse<T> {
  /** The parsed, validated body. */
  data: T;
  /** The HTTP response (its body already read). */
  response: Response;
  /** The rate-limit reading of the response, or `null` when it carried none. */
  rateLimit: RateLimit | null;
  /**
   * The service's id for the request (`X-Request-Id`, or `Request-Id`), to quote to its support or
   * find in its logs; `undefined` when the response carried none.
   */
  requestId: string | undefined;
}

/**
 * A `Promise` of the parsed data, with {@link APIPromise.withResponse} for the response itself.
 * The request starts when the method is called, not when the promise is awaited.
 *
 * @example
 * ```ts
 * import { PetStoreClient } from 'animal-store-sdk';
 *
 * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
 * const pets = await client.listPets({ limit: 10 });
 * const { data, response } = await client.listPets({ limit: 10 }).withResponse();
 * ```
 */
export class APIPromise<T> extends Promise<T> {
  readonly #result: Promise<WithResponse<T>>;

  /** Wraps a pending request; the client creates these, applications only await them. */
  constructor(result: Promise<WithResponse<T>>) {
    // Never observed: `then` and `finally` read `#result`, so a failure reaches only whoever awaits it.
    super((resolve) => resolve(undefined as T));
    this.#result = result;
  }

  /**
   * The data together with the HTTP response and its rate-limit reading.
   *
   * @example
   * ```ts
   * import { PetStoreClient } from 'animal-store-sdk';
   *
   * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
   * const { data: pet, response } = await client.createPet({ name: 'Rex', categoryId: 1 }).withResponse();
   * console.log(response.headers.get('location'), pet.id);
   * ```
   */
  withResponse(): Promise<WithResponse<T>> {
    return this.#result;
  }

  #parsed(): Promise<T> {
    return this.#result.then(({ data }) => data);
  }

  // biome-ignore lint/suspicious/noThenProperty: an APIPromise is a Promise; `then` reads the data lazily.
  override then<TResult1 = T, TResult2 = never>(
    onfulfilled?: ((value: T) => TResult1 | PromiseLike<TResult1>) | null,
    onrejected?: ((reason: unknown) => TResult2 | PromiseLike<TResult2>) | null,
  ): Promise<TResult1 | TResult2> {
    // One promise, not two: the data is handed on inside the same reaction.
    return this.#result.then(
      ({ data }) => (onfulfilled ? onfulfilled(data) : (data as unknown as TResult1)),
      onrejected,
    );
  }

  // Promise's own `finally` would build an APIPromise from a plain executor.
  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#parsed().finally(onfinally);
  }
}
