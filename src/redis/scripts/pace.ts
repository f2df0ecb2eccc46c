/**
 * The store's one script: the releases a process has not sent yet, then (unless it only releases)
 * one acquire, atomically, on Redis's clock. A sequential caller's release rides on its next acquire,
 * so each call costs one round trip.
 *
 * Keys (one hash tag, so the script runs on one Redis Cluster slot): the state hash (the latest
 * reading, the cooldown, until when the fleet paces alone, how long requests take, when the last
 * probe went, the window's spread bucket), the leases sorted set (lease id to expiry), the processes sorted set (process id
 * to when it was last seen, for the fallback's share) and the lost sorted set (the leases of the window's requests that got
 * no response, by grant number). Time is Redis's own `TIME`, never a host's.
 * The state expires a minute after its reset, its cooldown and its alone times are all past.
 *
 * ARGV: the number of releases, each release's arguments (release.ts), then the acquire's
 * (acquire.ts) or nothing. Answers the acquire's answer, or 1.
 *
 * @module
 */
import { ACQUIRE_LUA } from './acquire.js';
import { luaScript } from './lua-script.js';
import { PROBE_LUA } from './probe.js';
import { RELEASE_ARGS, RELEASE_LUA } from './release.js';
import { SPREAD_LUA } from './spread.js';

export const PACE = luaScript(`
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

-- A cooldown, the time processes pace alone, and the wait for those still alone only ever extend.
local function extend(field, until_at)
  if until_at > (tonumber(redis.call('HGET', KEYS[1], field)) or 0) then
    redis.call('HSET', KEYS[1], field, until_at)
  end
end
${PROBE_LUA}
${RELEASE_LUA}
${SPREAD_LUA}
${ACQUIRE_LUA}
local releases = tonumber(ARGV[1])
for i = 0, releases - 1 do
  local at = 2 + i * ${RELEASE_ARGS}
  release(ARGV[at], ARGV[at + 1], ARGV[at + 2], ARGV[at + 3], ARGV[at + 4], ARGV[at + 5], ARGV[at + 6], ARGV[at + 7],
    ARGV[at + 8], ARGV[at + 9], ARGV[at + 10])
end

local at = 2 + releases * ${RELEASE_ARGS}
local reply = 1
if ARGV[at] then
  reply = acquire(ARGV[at], tonumber(ARGV[at + 1]), ARGV[at + 2] == '1', ARGV[at + 3], ARGV[at + 4],
    tonumber(ARGV[at + 5]), tonumber(ARGV[at + 6]), ARGV[at + 7], tonumber(ARGV[at + 8]))
end

if redis.call('EXISTS', KEYS[1]) == 1 then
  local times = redis.call('HMGET', KEYS[1], 'reset_at', 'cooldown_until', 'alone_until', 'awaited_until',
    'probe_after')
  local last = math.max(tonumber(times[1]) or 0, tonumber(times[2]) or 0, tonumber(times[3]) or 0,
    tonumber(times[4]) or 0, tonumber(times[5]) or 0, now)
  redis.call('PEXPIRE', KEYS[1], last - now + 60000)
end
return reply
`);
