/**
 * Listens to every channel of the SDK as a subscriber would, and keeps what each event carried at
 * the moment it was published.
 */
import { channel, tracingChannel } from 'node:diagnostics_channel';
import { afterEach, beforeEach, vi } from 'vitest';
import {
  type AttemptContext,
  DIAGNOSTICS_CHANNELS,
  type OperationContext,
  type StoreMessage,
  type WaitMessage,
} from '../../../src/diagnostics/index.js';
import { startFakeClock } from '../../support/fake-clock.js';

const TRACE_EVENTS = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const;
type TraceEvent = (typeof TRACE_EVENTS)[number];

/** One event as it was published: the channel, the event, and a copy of its message then. */
export interface Recorded {
  readonly channel: 'operation' | 'attempt' | 'wait' | 'store';
  readonly event: TraceEvent | 'publish';
  /** A shallow copy, taken when the event was published. */
  readonly snapshot: Record<string, unknown>;
  /** The message itself, for identity checks. */
  readonly message: object;
}

export interface Recorder {
  readonly events: Recorded[];
  /** The snapshots of one channel's events of one kind, in order. */
  of(channel: Recorded['channel'], event?: Recorded['event']): Record<string, unknown>[];
  /** Everything published, as JSON: what a subscriber could write to a log. */
  json(): string;
  stop(): void;
}

/** A recorder for each test of the file, on the fake clock; `current` is the running test's. */
export function recordEachTest(): { readonly current: Recorder } {
  let current: Recorder | undefined;
  beforeEach(() => {
    startFakeClock();
    current = record();
  });
  afterEach(() => {
    current?.stop();
    current = undefined;
    vi.useRealTimers();
  });
  return {
    get current() {
      if (current === undefined) throw new Error('The recorder records inside a test only');
      return current;
    },
  };
}

/** Subscribes to all four channels until `stop()`. */
export function record(): Recorder {
  const events: Recorded[] = [];
  const unsubscribers: (() => void)[] = [];
  for (const name of ['operation', 'attempt'] as const) {
    const traced = tracingChannel<unknown, OperationContext | AttemptContext>(DIAGNOSTICS_CHANNELS[name]);
    for (const event of TRACE_EVENTS) {
      const handler = (message: unknown) => {
        const context = message as object;
        events.push({ channel: name, event, snapshot: { ...context }, message: context });
      };
      traced[event].subscribe(handler);
      unsubscribers.push(() => traced[event].unsubscribe(handler));
    }
  }
  for (const name of ['wait', 'store'] as const) {
    const plain = channel(DIAGNOSTICS_CHANNELS[name]);
    const handler = (message: unknown) => {
      const published = message as WaitMessage | StoreMessage;
      events.push({ channel: name, event: 'publish', snapshot: { ...published }, message: published });
    };
    plain.subscribe(handler);
    unsubscribers.push(() => plain.unsubscribe(handler));
  }
  return {
    events,
    of: (name, event) =>
      events
        .filter((recorded) => recorded.channel === name && (event === undefined || recorded.event === event))
        .map((recorded) => recorded.snapshot),
    json: () =>
      JSON.stringify(
        events.map(({ snapshot }) => snapshot),
        errorsInFull,
      ),
    stop: () => {
      for (const unsubscribe of unsubscribers.splice(0)) unsubscribe();
    },
  };
}

/** Errors with their message, stack and cause written out, not `{}` as JSON has them. */
function errorsInFull(_key: string, value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  const own = 'toJSON' in value && typeof value.toJSON === 'function' ? (value.toJSON() as object) : {};
  return { ...own, name: value.name, message: value.message, stack: value.stack, cause: String(value.cause) };
}
