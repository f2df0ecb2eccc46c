/**
 * The spread rule of src/core/pacing/spread.ts, as a Lua function of the pacing script: the same
 * token bucket in the same whole numbers, so that a fleet on Redis spreads each window's budget as
 * one process does. test/redis/spread-rule.test.ts holds the two to the same answers.
 *
 * Arguments: the bucket's window, credit and fill time as stored (nil before any), the window,
 * the budget left less the requests in flight, the ms to the reset, the window's limit, the burst.
 * Answers the wait (0: go now) and, to go, the credit to store.
 *
 * @module
 */

import { RESET_LATENESS_MS } from '../../core/pacing/rate-limit.js';

export const SPREAD_LUA = `
local function spread(bucket_window, bucket_credit, bucket_at, window, available, reset_in, limit, burst)
  local size = math.max(1, math.floor(burst * limit + 0.5)) * 1000
  local left = reset_in - ${RESET_LATENESS_MS}
  local credit = size
  if bucket_window == window and left > 0 then
    credit = math.min(size, bucket_credit + math.floor(((now - bucket_at) * 1000 * available) / left))
  end
  if credit >= 1000 then
    return 0, credit - 1000
  end
  return math.ceil(((1000 - credit) * left) / (1000 * available)), nil
end
`;
