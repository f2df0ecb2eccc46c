/**
 * The client's retry budget: how many requests failures may add, whatever the calls do. A token
 * bucket, as gRPC's retry throttling and the AWS SDKs' retry quota keep one: a retry takes a token,
 * a successful call earns a fifth of one back, and with no token left a failed call ends at once
 * with its last error. Counted in fifths of a retry, whole numbers, so no rounding creeps in.
 *
 * @module
 */

/** The budget's size, in retries. */
export const RETRY_BUDGET_RETRIES = 10;
/** The successful calls that earn one retry back. */
export const SUCCESSES_PER_RETRY = 5;

const FULL = RETRY_BUDGET_RETRIES * SUCCESSES_PER_RETRY;

/** Why a failed attempt is not retried once the budget is spent. */
export const RETRY_BUDGET_SPENT = `the client's retry budget is spent (${RETRY_BUDGET_RETRIES} retries, 1 more per ${SUCCESSES_PER_RETRY} successful calls)`;

export class RetryBudget {
  #credit = FULL;

  /** Whether a retry may be taken now. */
  get left(): boolean {
    return this.#credit >= SUCCESSES_PER_RETRY;
  }

  /** Takes one retry. */
  spend(): void {
    this.#credit -= SUCCESSES_PER_RETRY;
  }

  /** A call succeeded. */
  earn(): void {
    if (this.#credit < FULL) this.#credit++;
  }
}
