/**
 * A process with calls queued behind a spent window that closes its client: it must exit by itself
 * at once, not when the queue would have drained. It imports the package as an application does
 * (the built dist/) and reports on stdout what became of its calls and, at exit, how long after
 * `close()` it came.
 *
 * @module
 */
import type * as Sdk from '../../../src/index.js';

/** What the test starts it with, in CLOSING_CLIENT as JSON. */
export interface ClosingClientConfig {
  readonly baseUrl: string;
  readonly apiKey: string;
  /** The plan's budget per window: spent first, so that the next calls wait. */
  readonly limit: number;
  readonly queued: number;
}

// The package name in a variable: the type checker takes the types from src/, Node loads dist/.
const SDK_ENTRY: string = 'animal-store-sdk';

const config: ClosingClientConfig = JSON.parse(process.env.CLOSING_CLIENT ?? '{}');
const { PetStoreClient } = (await import(SDK_ENTRY)) as typeof Sdk;

// The budget spent at once (pacingBurst: 1), so that the queued calls wait for the reset.
const client = new PetStoreClient({
  apiKey: config.apiKey,
  baseUrl: config.baseUrl,
  logLevel: 'off',
  pacingBurst: 1,
  // Every queued call admitted: at 3 a minute, the last would wait seven windows.
  maxQueueWait: 600_000,
});
await Promise.all(Array.from({ length: config.limit }, () => client.listPets({ limit: 1 })));
const calls = Array.from({ length: config.queued }, () =>
  client.listPets({ limit: 1 }).then(
    () => 'answered',
    (error: unknown) => (error as { code?: string }).code ?? 'other',
  ),
);
process.stdout.write(`waiting ${client.queue.waiting}\n`);
const closing = performance.now();
await client.close();
const outcomes = await Promise.all(calls);
process.stdout.write(`${outcomes.filter((code) => code === 'client_closed').length} closed\n`);
process.on('exit', () => {
  process.stdout.write(`exit ${Math.round(performance.now() - closing)} ms after close()\n`);
});
