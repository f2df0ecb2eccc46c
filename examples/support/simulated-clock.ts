/**
 * A simulated clock for running a minute of rate limiting in a second: `setTimeout` and `Date` are
 * replaced by Node's mock timers, and whenever no request is on the wire the clock jumps to the
 * next timer that is due. Everything else is real: the HTTP requests, the fake server, and the
 * client's decisions of when to send and how long to wait.
 *
 * @module
 */
import { mock } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Fetch } from '../../src/index.js';

/** How far the clock moves while everything waits on a timer. */
const STEP_MS = 100;

export class SimulatedClock {
  readonly #startedAt: number;
  #inFlight = 0;

  private constructor(startedAt: number) {
    this.#startedAt = startedAt;
  }

  /** Replaces `setTimeout` and `Date`, starting the simulated clock at the current time. */
  static start(): SimulatedClock {
    const now = Date.now();
    mock.timers.enable({ apis: ['setTimeout', 'Date'], now });
    return new SimulatedClock(now);
  }

  /** Simulated milliseconds since {@link SimulatedClock.start}. */
  get elapsedMs(): number {
    return Date.now() - this.#startedAt;
  }

  /**
   * The global `fetch`, counting the requests on the wire: the clock must not jump while one is,
   * or the response would arrive after time it never spent.
   */
  readonly fetch: Fetch = async (input, init) => {
    this.#inFlight += 1;
    try {
      return await fetch(input, init);
    } finally {
      this.#inFlight -= 1;
    }
  };

  /** Awaits `work`, moving the clock forward each time everything is waiting on a timer. */
  async run<T>(work: Promise<T>): Promise<T> {
    let settled = false;
    const done = work.finally(() => {
      settled = true;
    });
    while (!settled) {
      // setImmediate is not mocked: this yields to real I/O, so responses arrive between jumps.
      await nextTurn();
      // A step at a time, not every timer at once: a timer far ahead (a call's time bound) must not
      // fire before the responses to the requests that sooner timers send.
      if (!settled && this.#inFlight === 0) mock.timers.tick(STEP_MS);
    }
    return done;
  }

  /** Gives back the real `setTimeout` and `Date`. */
  stop(): void {
    mock.timers.reset();
  }
}
