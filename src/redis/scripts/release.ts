/**
 * The release decision, one atomic script: a request is over; take in what its response said.
 *
 * It drops the request's lease and records the response's reading by the store contract's rules
 * for outcomes (src/core/rate-limit-store.ts), with two things only a fleet meets: the reset and the
 * cooldown arrive as durations and are placed on Redis's clock, as responses come from hosts with
 * other clocks; the state expires a minute after both are past.
 * After Redis lost its data, a response to a lease it never granted does not start a new state:
 * it may predate others answered since, so only a request sent since tells the budget.
 * Safe to run twice: the lease is already gone, the lowest count and the longest cooldown stay.
 *
 * KEYS: state hash, leases sorted set. ARGV: lease id, what the response said (`reading`,
 * `unreported` for a success without rate-limit headers, or `none`), remaining, reset in ms, window
 * (the raw `X-RateLimit-Reset`), cooldown ms (empty for none), limit.
 *
 * @module
 */
import { luaScript } from './lua-script.js';

export const RELEASE = luaScript(`
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

local held = redis.call('ZREM', KEYS[2], ARGV[1])
local stored = redis.call('HMGET', KEYS[1], 'window', 'remaining', 'reset_at')

-- A lease this Redis does not hold, with no reading stored, means Redis lost its data while the
-- request was out: the response may predate others answered since, so it does not start the state.
if ARGV[2] == 'reading' and (held == 1 or stored[1]) then
  local remaining = tonumber(ARGV[3])
  local reset_at = now + tonumber(ARGV[4])
  if stored[1] == ARGV[5] then
    remaining = math.min(remaining, tonumber(stored[2]) or remaining)
    reset_at = math.max(reset_at, tonumber(stored[3]) or reset_at)
  end
  redis.call('HSET', KEYS[1], 'window', ARGV[5], 'limit', ARGV[7], 'remaining', remaining, 'reset_at', reset_at,
    'unreported', '0')
elseif ARGV[2] == 'unreported' then
  if redis.call('HEXISTS', KEYS[1], 'window') == 0 then
    redis.call('HSET', KEYS[1], 'unreported', '1')
  end
end

if ARGV[6] ~= '' then
  local cooldown_until = now + tonumber(ARGV[6])
  if cooldown_until > (tonumber(redis.call('HGET', KEYS[1], 'cooldown_until')) or 0) then
    redis.call('HSET', KEYS[1], 'cooldown_until', cooldown_until)
  end
end

if redis.call('EXISTS', KEYS[1]) == 1 then
  local times = redis.call('HMGET', KEYS[1], 'reset_at', 'cooldown_until')
  local last = math.max(tonumber(times[1]) or 0, tonumber(times[2]) or 0, now)
  redis.call('PEXPIRE', KEYS[1], last - now + 60000)
end
return 1
`);
