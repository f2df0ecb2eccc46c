/**
 * The acquire decision, one atomic script: may one more request of the key go now? It decides by
 * the store contract's rules (src/core/rate-limit-store.ts), for every process sharing the key.
 *
 * Keys (one hash tag, so the script runs on Redis Cluster): the state hash (the latest reading and
 * the cooldown), the leases sorted set (lease id to expiry) and the processes sorted set (process id
 * to when it was last seen, for the fallback's share). Time is Redis's own `TIME`, never a host's.
 * Expired leases are dropped first, so a process that died mid-request frees its budget once its
 * lease runs out. Safe to run twice for one lease: a second run only renews that lease.
 *
 * ARGV: lease id, lease ms, `1` to pace by the reading, process id, probe poll ms.
 * Returns `{granted (1 or 0), wait ms, reason, processes seen in the last minute, then the fleet's
 * current reading as window, limit, remaining less the leases out, ms to its reset}`, the reading
 * empty when there is none: a process keeps it for pacing alone should Redis stop answering.
 *
 * @module
 */
import { luaScript } from './lua-script.js';

export const ACQUIRE = luaScript(`
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZADD', KEYS[3], now, ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - 60000)
redis.call('PEXPIRE', KEYS[3], 60000)
local processes = redis.call('ZCARD', KEYS[3])

local state = redis.call('HMGET', KEYS[1], 'cooldown_until', 'remaining', 'reset_at', 'unreported', 'window', 'limit')
local in_flight = redis.call('ZCARD', KEYS[2])
local remaining = tonumber(state[2])
local reset_at = tonumber(state[3])
local current = remaining ~= nil and reset_at ~= nil and now < reset_at

local function answer(granted, wait, reason)
  if not current then
    return {granted, wait, reason, processes, '', 0, 0, 0}
  end
  return {granted, wait, reason, processes, state[5], tonumber(state[6]) or remaining,
    math.max(0, remaining - in_flight), reset_at - now}
end

local cooldown_until = tonumber(state[1]) or 0
if now < cooldown_until then
  return answer(0, cooldown_until - now, 'cooldown')
end

if ARGV[3] == '1' and state[4] ~= '1' then
  if current then
    if remaining - in_flight <= 0 then
      return answer(0, reset_at - now, 'budget')
    end
  elseif in_flight > 0 then
    -- No current reading: one request at a time, fleet-wide, learns the budget.
    return answer(0, tonumber(ARGV[5]), 'probe')
  end
end

local lease_ms = tonumber(ARGV[2])
redis.call('ZADD', KEYS[2], now + lease_ms, ARGV[1])
if redis.call('PTTL', KEYS[2]) < lease_ms + 1000 then
  redis.call('PEXPIRE', KEYS[2], lease_ms + 1000)
end
in_flight = in_flight + 1
return answer(1, 0, '')
`);
