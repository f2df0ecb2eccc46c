import { RESET_RESOLUTION_MS } from '../../core/pacing/rate-limit.js';

/**
 * The release rule, as a Lua function of the pacing script (pace.ts): a request is over; drop its
 * lease and take in what its response said.
 *
 * It records the response's reading by the store contract's rules for outcomes
 * (src/core/pacing/rate-limit-store.ts), with two things only a fleet meets: the reset and the cooldown
 * arrive as durations and are placed on Redis's clock, as responses come from hosts with other
 * clocks. After Redis lost its data, a response to a lease it never granted does not start a new
 * state: it may predate others answered since, so only a request sent since tells the budget. It
 * also keeps how long requests take (a moving average), from which a waiting process computes when
 * a probe is likely back. A request that got no response stays spent in the window it went in,
 * kept apart from the reading's remaining count (the lost set, by grant number) until a reading of
 * a request granted after it clears it, and the fleet's next request probes after the backoff
 * (probe.ts; its jitter drawn by the process, as scripts have no randomness of their own). Safe to
 * run twice: the lease is already gone, the lowest count and the longest cooldown stay.
 *
 * Arguments: lease id, what the response said (`reading`, `unreported` for a success without
 * rate-limit headers, `lost` or `aborted` for a request sent that got no response, else `none`),
 * remaining, reset in ms, window (the raw `X-RateLimit-Reset`), cooldown ms (empty for none), limit,
 * how long the request took in ms (empty when unknown), the window the request went in (empty for
 * none current), its grant number (acquire.ts; empty when unknown), the probe's jitter (0 to 1).
 *
 * @module
 */

/** How many arguments one release takes. */
export const RELEASE_ARGS = 11;

export const RELEASE_LUA = `
local function release(lease, said, remaining, reset_in, window, cooldown, limit, took, sent_in, granted, jitter)
  local held = redis.call('ZREM', KEYS[2], lease)
  local stored = redis.call('HMGET', KEYS[1], 'window', 'remaining', 'reset_at', 'latency', 'limit', 'window_ms',
    'lost_window')
  if (said == 'lost' or said == 'aborted') and held == 1 then
    local current = now < (tonumber(stored[3]) or 0)
    if stored[1] == sent_in and current and granted ~= '' then
      if stored[7] ~= sent_in then
        redis.call('DEL', KEYS[4])
        redis.call('HSET', KEYS[1], 'lost_window', sent_in)
      end
      redis.call('ZADD', KEYS[4], tonumber(granted), lease)
      redis.call('PEXPIRE', KEYS[4], tonumber(stored[3]) - now + 60000)
    end
    -- A caller's abort says nothing of the way to the service: within a known window, counting it is enough.
    if said == 'lost' or not current then
      local silences = redis.call('HINCRBY', KEYS[1], 'silences', 1)
      local pace = (tonumber(stored[6]) or 0) / math.max(1, tonumber(stored[5]) or 1)
      redis.call('HSET', KEYS[1], 'probe_after', now + probe_backoff(silences, tonumber(jitter), pace))
    end
  end
  if said == 'reading' and (held == 1 or stored[1]) then
    local left = tonumber(remaining)
    local reset_at = now + tonumber(reset_in)
    if stored[1] == window then
      left = math.min(left, tonumber(stored[2]) or left)
      reset_at = math.max(reset_at, tonumber(stored[3]) or reset_at)
    end
    redis.call('HSET', KEYS[1], 'window', window, 'limit', limit, 'remaining', left, 'reset_at', reset_at,
      'unreported', '0', 'silences', 0, 'probe_after', 0,
      'window_ms', math.max(tonumber(stored[6]) or 0, tonumber(reset_in) + ${RESET_RESOLUTION_MS}))
    if granted ~= '' then
      redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', granted)
    end
  elseif said == 'unreported' and not stored[1] then
    redis.call('HSET', KEYS[1], 'unreported', '1')
  end
  if said ~= 'none' and said ~= 'lost' and said ~= 'aborted' and took ~= '' then
    local latency = tonumber(stored[4])
    local sample = tonumber(took)
    redis.call('HSET', KEYS[1], 'latency', latency and math.floor((3 * latency + sample) / 4) or sample)
  end
  if cooldown ~= '' then
    extend('cooldown_until', now + tonumber(cooldown))
  end
end
`;
