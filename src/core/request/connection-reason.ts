/**
 * Why a connection failed, as its error says.
 *
 * @module
 */

/**
 * The innermost message of an error's cause chain, where a fetch keeps why a connection failed
 * (`connect ECONNREFUSED 127.0.0.1:59999`, `getaddrinfo ENOTFOUND …`, a certificate's problem).
 */
export function connectionReason(error: unknown): string {
  let reason = '';
  for (let depth = 0; error instanceof Error && depth < 9; depth++) {
    // Node reports a connection refused at every address as an AggregateError without a message.
    const { errors } = error as Partial<AggregateError>;
    reason = (error.message || errors?.map((inner: Error) => inner.message).join('; ') || reason).trim();
    error = error.cause;
  }
  return reason;
}
