/**
 * A burst larger than the rate limit: 75 concurrent listPets calls on a Free key (60 requests a
 * minute). The client paces itself by the X-RateLimit-* headers: it sends the first call alone to
 * learn the budget, then a quarter of the window's budget at once, spreads the rest of it over the
 * minute, holds the calls beyond it until the window resets, and never sends a request the service
 * would refuse.
 *
 *   npm run example -- rate-limits
 *
 * On the embedded fake server the minute passes on a simulated clock (see
 * support/simulated-clock.ts), so the run takes about a second; the requests, the server's rate
 * limiting and the client's waits are the real ones. Against a real service nothing is simulated:
 * the burst spends 75 requests of your key's quota and, on a Free key, takes a minute.
 *
 * @module
 */
import { type ClientOptions, type Fetch, PetStoreClient } from '../src/index.js';
import { SimulatedClock } from './support/simulated-clock.js';
import { openTarget } from './support/target.js';

const BURST = 75;

const target = await openTarget();
const clock = target.store === undefined ? undefined : SimulatedClock.start();
const startedAt = Date.now();
const realStart = performance.now();

/** Seconds since the burst started, by the clock the client and the server use. */
function at(time = Date.now()): string {
  return `t+${((time - startedAt) / 1000).toFixed(1)} s`;
}

// Counts the response statuses, to show that pacing kept every request under the limit.
const statuses = new Map<number, number>();
const send = clock?.fetch ?? fetch;
const countingFetch: Fetch = async (input, init) => {
  const response = await send(input, init);
  statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  return response;
};

// The client reports each held call once, all of them at the moment it decides to hold them;
// they are printed together: the first wait for each reason, then only waits longer than the pace's few seconds.
type Wait = Parameters<NonNullable<ClientOptions['onWait']>>[0];
let held: Wait[] = [];
const printed = new Set<string>();
function onWait(wait: Wait) {
  if (held.length === 0) {
    queueMicrotask(() => {
      const [first] = held;
      if (first !== undefined && (!printed.has(first.reason) || first.waitMs > 2_000)) {
        printed.add(first.reason);
        const seconds = (first.waitMs / 1000).toFixed(1);
        console.log(
          `[${at()}] onWait: ${held.length} ${first.operation} calls wait ${seconds} s (${first.reason})`,
        );
      }
      held = [];
    });
  }
  held.push(wait);
}

try {
  const client = new PetStoreClient({
    apiKey: target.apiKey,
    baseUrl: target.baseUrl,
    fetch: countingFetch,
    onWait,
  });

  console.log(`Sending ${BURST} listPets calls at once`);
  let done = 0;
  let lastReset: number | undefined;
  const burst = Promise.all(
    Array.from({ length: BURST }, async () => {
      await client.listPets({ limit: 1 });
      done += 1;
      const { rateLimit } = client;
      const reset = rateLimit?.reset.getTime();
      if (reset !== lastReset || done % 15 === 0 || done === BURST) {
        lastReset = reset;
        const budget =
          rateLimit === null
            ? 'no rate-limit headers'
            : `${rateLimit.remaining} of ${rateLimit.limit} left, window resets at ${at(rateLimit.reset.getTime())}`;
        console.log(`[${at()}] ${done} of ${BURST} done; rateLimit: ${budget}`);
      }
    }),
  );
  await (clock === undefined ? burst : clock.run(burst));

  const answers = [...statuses].map(([status, count]) => `${count} × ${status}`).join(', ');
  const realSeconds = ((performance.now() - realStart) / 1000).toFixed(1);
  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
  const elapsed =
    clock === undefined ? `${seconds} s` : `${seconds} s of simulated time (${realSeconds} s real)`;
  console.log(`All ${BURST} calls succeeded in ${elapsed}; responses: ${answers}`);
} finally {
  clock?.stop();
  await target.close();
}
