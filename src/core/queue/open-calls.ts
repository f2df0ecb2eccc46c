/**
 * The calls of a client not yet settled, for `close()`: each has its own abort controller, so that
 * closing ends the calls that wait (and, told to, those in flight), and `close()` resolves when the
 * last one settles.
 *
 * @module
 */

/** What closing needs of a call. */
export interface OpenCall {
  /** Aborts what the call waits on (the queue, a retry's wait) and its attempt; renewed after an attempt's timeout. */
  controller: AbortController;
  /** Whether an attempt is in flight. */
  sending?: boolean;
}

export class OpenCalls {
  readonly #calls = new Set<OpenCall>();
  #closed: Promise<void> | undefined;
  #idle: (() => void) | undefined;
  /** Attempts in flight. */
  inFlight = 0;

  get closed(): boolean {
    return this.#closed !== undefined;
  }

  add(call: OpenCall): void {
    this.#calls.add(call);
  }

  /** Marks an attempt of `call` started or ended. */
  attempt(call: OpenCall, sending: boolean): void {
    call.sending = sending;
    this.inFlight += sending ? 1 : -1;
  }

  delete(call: OpenCall): void {
    this.#calls.delete(call);
    if (this.#calls.size === 0) this.#idle?.();
  }

  /**
   * Aborts every call but those with an attempt in flight (all of them with `abort`), and resolves
   * when every call has settled. Every close after the first gets the first one's promise.
   */
  close(abort: boolean, reason: unknown): Promise<void> {
    this.#closed ??= new Promise((resolve) => {
      this.#idle = resolve;
    });
    for (const call of this.#calls) if (abort || !call.sending) call.controller.abort(reason);
    if (this.#calls.size === 0) this.#idle?.();
    return this.#closed;
  }
}
