/**
 * The origins of the fake's own traffic in this process: each server `listen()` started, while it
 * runs, and each fake `connectFakePetStore` drives. `letFakeStoreThrough()` lets msw pass them.
 *
 * @module
 */

// A count per origin: two fakes may share one (two connections to one server), and one closing
// must not unlist the other.
const origins = new Map<string, number>();

/** Lists the origins of `urls` as the fake's, until the returned function is first called. */
export function addFakeOrigins(urls: readonly string[]): () => void {
  let added = urls.map((url) => new URL(url).origin);
  for (const origin of added) origins.set(origin, (origins.get(origin) ?? 0) + 1);
  return () => {
    const removed = added;
    added = [];
    for (const origin of removed) {
      const left = (origins.get(origin) ?? 1) - 1;
      if (left === 0) origins.delete(origin);
      else origins.set(origin, left);
    }
  };
}

/** Whether `url` goes to a fake of this process. */
export function isFakeOrigin(url: string): boolean {
  return origins.has(new URL(url).origin);
}
