/**
 * `PetStoreInstrumentation`: the SDK's diagnostics channels as OpenTelemetry spans and metrics,
 * registered like any other instrumentation.
 *
 * @module
 */
import { type Counter, type Gauge, type Histogram, ValueType } from '@opentelemetry/api';
import { InstrumentationBase, type InstrumentationConfig } from '@opentelemetry/instrumentation';
import packageJson from '../../package.json' with { type: 'json' };
import { NAMES } from './attributes.js';
import { subscribe } from './telemetry.js';

/** The HTTP conventions' buckets for `http.client.request.duration`, in seconds; calls use them too, to compare. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** Waits run from milliseconds (backoff) to a minute (a rate-limit window), in seconds. */
const WAIT_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];

/**
 * The instrumentation's options.
 *
 * @example
 * ```ts
 * import { PetStoreInstrumentation } from 'animal-store-sdk/otel';
 *
 * // On Bun or Deno, or with a `fetch` no HTTP instrumentation sees: the SDK records the HTTP metric.
 * const instrumentation = new PetStoreInstrumentation({ httpClientRequestDuration: true });
 * ```
 */
export interface PetStoreInstrumentationConfig extends InstrumentationConfig {
  /**
   * Also record `http.client.request.duration` for each attempt. Off by default: undici's
   * instrumentation records it for every request Node's `fetch` sends, and a second recording under
   * another scope would double it. Turn it on where no HTTP instrumentation sees the SDK's requests
   * (Bun, Deno, a `fetch` of your own). Read when the instrumentation is made.
   */
  readonly httpClientRequestDuration?: boolean;
}

// Beside the instance, not in it: the base class calls `enable()` from its constructor, before a
// subclass's fields exist.
interface State {
  unsubscribe?: (() => void) | undefined;
  operationDuration?: Histogram | undefined;
  requestDuration?: Histogram | undefined;
  waitDuration?: Histogram | undefined;
  queueWaiting?: Gauge | undefined;
  refusals?: Counter | undefined;
}
const states = new WeakMap<PetStoreInstrumentation, State>();

function stateOf(instrumentation: PetStoreInstrumentation): State {
  let state = states.get(instrumentation);
  if (state === undefined) {
    state = {};
    states.set(instrumentation, state);
  }
  return state;
}

/**
 * OpenTelemetry for the Animal Store SDK, from its diagnostics channels (no patching): an INTERNAL
 * span per call (`listPets`), a CLIENT span per HTTP attempt (`GET /pets/{id}`, the HTTP client
 * conventions' attributes), each wait an `animal_store.wait` event; metrics
 * `animal_store.client.operation.duration`, `animal_store.wait.duration`,
 * `animal_store.client.queue.waiting` and `animal_store.client.refusals`. docs/observability.md
 * lists every name.
 *
 * @example
 * ```ts
 * import { registerInstrumentations } from '@opentelemetry/instrumentation';
 * import { PetStoreInstrumentation } from 'animal-store-sdk/otel';
 *
 * registerInstrumentations({ instrumentations: [new PetStoreInstrumentation()] });
 * ```
 */
export class PetStoreInstrumentation extends InstrumentationBase<PetStoreInstrumentationConfig> {
  /** @param config - `enabled: false` to create it disabled; `httpClientRequestDuration` to record the HTTP metric. */
  constructor(config: PetStoreInstrumentationConfig = {}) {
    super(packageJson.name, packageJson.version, config);
  }

  /** Nothing to patch: the SDK publishes on its channels. */
  protected override init(): undefined {
    return undefined;
  }

  /** Creates the histograms with the current meter. */
  protected override _updateMetricInstruments(): void {
    const state = stateOf(this);
    state.operationDuration = this.meter.createHistogram(NAMES.operationDuration, {
      description:
        'Duration of each Animal Store SDK call, from the call to its result: retries and waits included.',
      unit: 's',
      valueType: ValueType.DOUBLE,
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    state.requestDuration =
      this.getConfig().httpClientRequestDuration === true
        ? this.meter.createHistogram(NAMES.requestDuration, {
            description: 'Duration of each HTTP attempt the Animal Store SDK sends.',
            unit: 's',
            valueType: ValueType.DOUBLE,
            advice: { explicitBucketBoundaries: DURATION_BUCKETS },
          })
        : undefined;
    state.waitDuration = this.meter.createHistogram(NAMES.waitDuration, {
      description: 'Waits before an attempt (Retry-After, backoff, pacing), by reason.',
      unit: 's',
      valueType: ValueType.DOUBLE,
      advice: { explicitBucketBoundaries: WAIT_BUCKETS },
    });
    state.queueWaiting = this.meter.createGauge(NAMES.queueWaiting, {
      description: 'Calls waiting in the Animal Store client to be sent, by server.',
      unit: '{call}',
      valueType: ValueType.INT,
    });
    state.refusals = this.meter.createCounter(NAMES.refusals, {
      description: 'Calls the Animal Store client refused itself, nothing sent, by code and operation.',
      unit: '{call}',
      valueType: ValueType.INT,
    });
  }

  /** Subscribes to the SDK's channels. */
  override enable(): void {
    super.enable();
    const state = stateOf(this);
    if (state.unsubscribe !== undefined) return;
    state.unsubscribe = subscribe({
      tracer: () => this.tracer,
      operationDuration: () => state.operationDuration,
      requestDuration: () => state.requestDuration,
      waitDuration: () => state.waitDuration,
      queueWaiting: () => state.queueWaiting,
      refusals: () => state.refusals,
      fail: (error) => this._diag.error('animal-store-sdk instrumentation failed', error),
    });
  }

  /** Unsubscribes from the SDK's channels. */
  override disable(): void {
    super.disable();
    const state = stateOf(this);
    state.unsubscribe?.();
    state.unsubscribe = undefined;
  }
}
