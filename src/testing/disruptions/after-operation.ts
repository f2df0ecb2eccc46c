/**
 * Faults that act after the operation ran: the store has answered (a create is applied), and the
 * answer is lost, stalled, cut off or dripped on its way back.
 *
 * @module
 */
import { delay } from '../../shared/delay.js';

/**
 * A fault that acts after the operation ran (the pet is created, the answer made):
 *
 * - `'lost-response'`: the connection is reset; no answer arrives.
 * - `'stalled-response'`: no answer arrives until the client gives up (its timeout or abort).
 * - `'cut-body'`: the status, the headers and the first half of the body arrive, then the connection
 *   is reset.
 * - `'dripping-body'`: the status and the headers arrive, then the body one byte every `dripMs`.
 * - `'stalled-body'`: the status and the headers arrive, then nothing until the client gives up.
 *
 * A stall or a drip ends with a reset after `MAX_DELAY_MS` (5 minutes) if the client is still waiting.
 *
 * @example
 * ```ts
 * import { createFakePetStore, type AfterOperationFault } from 'animal-store-sdk/testing';
 *
 * const fault: AfterOperationFault = 'lost-response';
 * const store = createFakePetStore();
 * store.injectFault({ afterOperation: fault, match: { method: 'POST', path: '/pets' } });
 * ```
 */
export type AfterOperationFault =
  | 'lost-response'
  | 'stalled-response'
  | 'cut-body'
  | 'dripping-body'
  | 'stalled-body';

/**
 * Every {@link AfterOperationFault}.
 */
export const AFTER_OPERATION_FAULTS: readonly AfterOperationFault[] = Object.freeze([
  'lost-response',
  'stalled-response',
  'cut-body',
  'dripping-body',
  'stalled-body',
]);

/**
 * The time between two bytes of a `'dripping-body'` by default (1 s).
 */
export const DEFAULT_DRIP_MS = 1_000;

/** Whether `value` names an {@link AfterOperationFault}. */
export function isAfterOperationFault(value: unknown): value is AfterOperationFault {
  return (AFTER_OPERATION_FAULTS as readonly unknown[]).includes(value);
}

/**
 * What reaches the client: a response (whose body, for the body faults, is a stream that misbehaves,
 * `bodyLength` bytes announced), or no response at all.
 */
export type AfterOperationOutcome =
  | { readonly kind: 'response'; readonly response: Response; readonly bodyLength?: number }
  | { readonly kind: 'network-error' };

/** How one fault acts: its kind, the time between dripped bytes, and the longest a stall or drip lasts. */
export interface AfterOperationPlan {
  readonly fault: AfterOperationFault;
  readonly dripMs: number;
  readonly maxMs: number;
}

/**
 * Applies the fault to the store's answer. `signal` is the request's: the client giving up ends a
 * stall or a drip (a stalled response rejects with its reason, as an aborted fetch does).
 */
export async function afterOperation(
  { fault, dripMs, maxMs }: AfterOperationPlan,
  response: Response,
  signal: AbortSignal,
): Promise<AfterOperationOutcome> {
  if (fault === 'lost-response') return { kind: 'network-error' };
  if (fault === 'stalled-response') {
    await delay(maxMs, signal);
    return { kind: 'network-error' };
  }
  // A success without a body (204) has none to cut, drip or stall: it arrives whole.
  if (response.body === null) return { kind: 'response', response, bodyLength: 0 };
  const bytes = new Uint8Array(await response.arrayBuffer());
  const chunks =
    fault === 'cut-body'
      ? cutBody(bytes)
      : fault === 'dripping-body'
        ? drippingBody(bytes, dripMs, maxMs, signal)
        : stalledBody(maxMs, signal);
  const headers = new Headers(response.headers);
  headers.set('content-length', String(bytes.length));
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done === true) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        controller.error(error);
      }
    },
  });
  return {
    kind: 'response',
    response: new Response(body, { status: response.status, statusText: response.statusText, headers }),
    bodyLength: bytes.length,
  };
}

/** The error a body read fails with when the connection is reset, as undici's fetch words it. */
function terminated(why: string): TypeError {
  return new TypeError('terminated', { cause: new Error(why) });
}

async function* cutBody(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  const half = Math.floor(bytes.length / 2);
  if (half > 0) yield bytes.subarray(0, half);
  // One turn of the event loop first, so that msw's socket hands the half on before the reset.
  await nextTask();
  throw terminated('The connection was reset part way through the body (an injected cut-body fault)');
}

async function* drippingBody(
  bytes: Uint8Array,
  dripMs: number,
  maxMs: number,
  signal: AbortSignal,
): AsyncGenerator<Uint8Array> {
  let waited = 0;
  for (let index = 0; index < bytes.length; index++) {
    if (index > 0) {
      if (waited + dripMs > maxMs) throw terminated('The dripping body ran past its longest time');
      await delay(dripMs, signal);
      waited += dripMs;
    }
    yield bytes.subarray(index, index + 1);
  }
}

async function* stalledBody(maxMs: number, signal: AbortSignal): AsyncGenerator<Uint8Array> {
  yield new Uint8Array(0);
  await delay(maxMs, signal);
  throw terminated('The body stalled past its longest time');
}

/** Resolves on the next turn of the event loop: a message, which fake timers leave alone. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(undefined);
  });
}
