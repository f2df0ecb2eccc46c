/**
 * `AnimalStoreInstrumentation`: the SDK's diagnostics channels as OpenTelemetry spans and metrics,
 * registered like any other instrumentation.
 *
 * @module
 */
import { type Histogram, ValueType } from '@opentelemetry/api';
import { InstrumentationBase, type InstrumentationConfig } from '@opentelemetry/instrumentation';
import packageJson from '../../package.json' with { type: 'json' };
import { NAMES } from './attributes.js';
import { subscribe } from './telemetry.js';

/** The buckets the HTTP conventions advise for `http.client.request.duration`, in seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** Waits run from milliseconds (backoff) to a minute (a rate-limit window), in seconds. */
const WAIT_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];

/**
 * What each instrumentation holds while enabled. Kept beside the instance rather than in it: the
 * base class calls `enable()` and `_updateMetricInstruments()` from its constructor, before a
 * subclass's fields exist.
 */
interface State {
  unsubscribe?: (() => void) | undefined;
  requestDuration?: Histogram | undefined;
  waitDuration?: Histogram | undefined;
}
const states = new WeakMap<AnimalStoreInstrumentation, State>();

function stateOf(instrumentation: AnimalStoreInstrumentation): State {
  let state = states.get(instrumentation);
  if (state === undefined) {
    state = {};
    states.set(instrumentation, state);
  }
  return state;
}

/**
 * OpenTelemetry for the Animal Store SDK, from its diagnostics channels: no patching. Under the
 * caller's active span, each call is an INTERNAL span named by the operation (`listPets`), each HTTP
 * attempt a CLIENT span under it named `METHOD /path/template` with the HTTP client conventions'
 * attributes (`http.request.resend_count` on retries, `error.type`, `url.template`) and the service's
 * request id and rate-limit reading, and each wait (`Retry-After`, backoff, pacing) an
 * `animal_store.wait` event on the call's span. Metrics: `http.client.request.duration` per attempt
 * and `animal_store.wait.duration` by reason. The fetch instrumentation's spans (undici's) nest under
 * the attempts'.
 *
 * @example
 * ```ts
 * import { registerInstrumentations } from '@opentelemetry/instrumentation';
 * import { AnimalStoreInstrumentation } from 'animal-store-sdk/otel';
 *
 * registerInstrumentations({ instrumentations: [new AnimalStoreInstrumentation()] });
 * ```
 */
export class AnimalStoreInstrumentation extends InstrumentationBase {
  /** @param config - `enabled: false` to create it disabled. */
  constructor(config: InstrumentationConfig = {}) {
    super(packageJson.name, packageJson.version, config);
  }

  /** Nothing to patch: the SDK publishes on its channels. */
  protected override init(): undefined {
    return undefined;
  }

  /** Creates the histograms with the current meter. */
  protected override _updateMetricInstruments(): void {
    const state = stateOf(this);
    state.requestDuration = this.meter.createHistogram(NAMES.requestDuration, {
      description: 'Duration of each HTTP attempt the Animal Store SDK sends.',
      unit: 's',
      valueType: ValueType.DOUBLE,
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    state.waitDuration = this.meter.createHistogram(NAMES.waitDuration, {
      description: 'Waits before an attempt (Retry-After, backoff, pacing), by reason.',
      unit: 's',
      valueType: ValueType.DOUBLE,
      advice: { explicitBucketBoundaries: WAIT_BUCKETS },
    });
  }

  /** Subscribes to the SDK's channels. */
  override enable(): void {
    super.enable();
    const state = stateOf(this);
    if (state.unsubscribe !== undefined) return;
    state.unsubscribe = subscribe({
      tracer: () => this.tracer,
      requestDuration: () => state.requestDuration,
      waitDuration: () => state.waitDuration,
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
