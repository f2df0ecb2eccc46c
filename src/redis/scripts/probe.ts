/**
 * The probes' backoff of src/core/pacing/probe.ts, as a Lua function of the pacing script: the same
 * steps, cap, jitter and pace floor, so that a fleet on Redis probes through silence as one process
 * does. test/redis/probe-rule.test.ts holds the two to the same answers.
 *
 * Arguments: the unanswered requests in a row, the jitter (0 to 1, drawn by the process), the pace
 * floor in ms. Answers the backoff in ms.
 *
 * @module
 */
import { PROBE_CAP_MS } from '../../core/pacing/probe.js';
import { BACKOFF_BASE_MS } from '../../core/request/retry.js';

export const PROBE_LUA = `
local function probe_backoff(silences, jitter, pace)
  local step = math.min(${PROBE_CAP_MS}, ${BACKOFF_BASE_MS} * 2 ^ (silences - 1))
  return math.max(pace, math.floor(step / 2 + jitter * step / 2 + 0.5))
end
`;
