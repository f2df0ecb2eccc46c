/**
 * Facts of HTTP that the client and the fake server both rely on.
 *
 * @module
 */

/** Statuses whose responses never carry a body (RFC 9110); `new Response(body, { status })` refuses one. */
export const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 204, 205, 304]);
