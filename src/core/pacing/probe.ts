/**
 * Probing through silence. A request that got no response (its answer lost, stalled or cut
 * before its headers, its connection failed, it timed out or was aborted after it was sent) may
 * have been counted by the service: a store counts it as spent in the window it went in, and lets
 * the requests after it go one at a time, each after a jittered exponential backoff, until a reading
 * returns (TCP's answer to silence, RFC 6298). The Redis store's script has the same backoff in Lua
 * (src/redis/scripts/probe.ts); test/redis/probe-rule.test.ts holds the two to the same answers.
 *
 * @module
 */
import { backoffDelay, withJitter } from '../request/retry.js';

/** The longest backoff between probes. */
export const PROBE_CAP_MS = 30_000;

/**
 * How long the next probe waits after `silences` unanswered requests in a row; `jitter` in [0, 1). Never
 * less than `paceMs`, the last window's length over its limit, so that no window gets more probes
 * than the last budget known.
 */
export function probeBackoffMs(silences: number, jitter: number, paceMs: number): number {
  const step = backoffDelay(silences, PROBE_CAP_MS);
  return Math.max(paceMs, Math.round(withJitter(step, () => jitter)));
}
