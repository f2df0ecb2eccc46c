/**
 * The acquire rule, as a Lua function of the pacing script (pace.ts): may one more request of the
 * key go now? It decides by the store contract's rules (src/core/pacing/rate-limit-store.ts), for every
 * process sharing the key.
 *
 * Expired leases are dropped first, so a process that died mid-request frees its budget once its
 * lease runs out. A process back from pacing alone while Redis was away has every process pace
 * alone until the window it paced alone in resets and, for as long as it says, until as many
 * processes as it knew have asked since (the others come back one by one, each client
 * reconnecting in its own time). Without a current reading, or while requests bring none back, one
 * probe goes at a time, each after the backoff the last silent release set; only the probe out holds others back (a request
 * granted by an earlier reading may be long over, its release not yet sent); a request waiting for
 * it is told to ask again when it is likely back (when it went, plus how long requests take
 * lately; once overdue, when it has been out half as long again), never later than its lease
 * expires: not a fixed poll. Safe to run twice for one lease:
 * a second run only renews it.
 *
 * Arguments: lease id, lease ms, whether to pace by the reading, process id; for a process back
 * from pacing alone, the ms until its window resets (else empty), how many processes it knew, and
 * the longest to wait for them; the burst when requests spread the window's budget (else empty),
 * by the spread rule (spread.ts); the ms left before the request's bound, a pace past which it
 * does not wait (else empty). Answers `{granted (1 or 0), wait ms, reason ('probe' on a grant that learns the budget, 'held' for a budget the leases out hold),
 * processes seen in the last minute, ms the fleet still paces alone, then the fleet's current
 * reading as window, limit, remaining less the leases out and the requests lost in it, ms to its
 * reset, then the grant's number}`, the reading empty when there is none (a process keeps it for
 * pacing alone should Redis stop answering), the number empty on a refusal. Grants are numbered in
 * order per key, so that a reading clears only the lost requests granted before its own (release.ts).
 *
 * @module
 */

/** How long a process counts as sharing a key after it last asked (the fleet's size, for the shares). */
const MINUTE_MS = 60_000;
/** While processes are still pacing alone, how soon the others ask again whether they are back. */
const STRAGGLER_WAIT_MS = 500;
/** How long requests are taken to last before any was timed. */
const FIRST_LATENCY_MS = 50;
/** The bounds of a wait for another's probe. */
const PROBE_WAIT_MS = { least: 5, most: 1_000 };

export const ACQUIRE_LUA = `
local function acquire(lease, lease_ms, pacing, process, alone_ms, awaited, await_ms, burst, within)
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  redis.call('ZADD', KEYS[3], now, process)
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - ${MINUTE_MS})
  redis.call('PEXPIRE', KEYS[3], ${MINUTE_MS})
  local processes = redis.call('ZCARD', KEYS[3])

  if alone_ms ~= '' then
    extend('alone_until', now + tonumber(alone_ms))
    -- A recovery: those still alone come back one by one; count them from its start.
    if now >= (tonumber(redis.call('HGET', KEYS[1], 'awaited_until')) or 0) then
      redis.call('HSET', KEYS[1], 'awaited_since', now, 'awaited', awaited, 'awaited_until', now + await_ms)
    else
      extend('awaited', awaited)
      extend('awaited_until', now + await_ms)
    end
  end

  local state = redis.call('HMGET', KEYS[1], 'cooldown_until', 'remaining', 'reset_at', 'unreported', 'window',
    'limit', 'alone_until', 'latency', 'probe_at', 'probe_lease', 'awaited_since', 'awaited', 'awaited_until',
    'bucket_window', 'bucket_credit', 'bucket_at', 'silences', 'probe_after', 'lost_window')
  local in_flight = redis.call('ZCARD', KEYS[2])
  local remaining = tonumber(state[2])
  local reset_at = tonumber(state[3])
  local current = remaining ~= nil and reset_at ~= nil and now < reset_at
  local available = 0
  if current then
    available = remaining - in_flight
    if state[19] == state[5] then
      available = available - redis.call('ZCARD', KEYS[4])
    end
  end
  local alone = math.max(0, (tonumber(state[7]) or 0) - now)
  if now < (tonumber(state[13]) or 0) and redis.call('ZCOUNT', KEYS[3], state[11], '+inf') < tonumber(state[12]) then
    alone = math.max(alone, math.min(${STRAGGLER_WAIT_MS}, tonumber(state[13]) - now))
  end

  local grant = ''
  local function answer(granted, wait, reason)
    if not current then
      return {granted, wait, reason, processes, alone, '', 0, 0, 0, grant}
    end
    return {granted, wait, reason, processes, alone, state[5], tonumber(state[6]) or remaining,
      math.max(0, available), reset_at - now, grant}
  end

  local cooldown_until = tonumber(state[1]) or 0
  if now < cooldown_until then
    return answer(0, cooldown_until - now, 'cooldown')
  end
  if alone > 0 then
    return answer(0, alone, 'budget')
  end

  local probe = false
  local credit = nil
  if pacing and state[4] ~= '1' then
    if not current or (tonumber(state[17]) or 0) > 0 then
      -- No current reading, or silence since it: one probe at a time, fleet-wide, learns the budget.
      local probe_expires = state[10] and redis.call('ZSCORE', KEYS[2], state[10])
      if probe_expires then
        local latency = tonumber(state[8]) or ${FIRST_LATENCY_MS}
        local sent_at = tonumber(state[9]) or now
        local wait = sent_at + latency - now
        if wait <= 0 then
          -- Overdue: ask again when it has been out half as long again, so that a slow probe
          -- costs each waiter a few asks, however long it takes, rather than a poll.
          wait = math.max(latency, now - sent_at) / 2
        end
        wait = math.min(wait, tonumber(probe_expires) - now)
        return answer(0, math.max(${PROBE_WAIT_MS.least}, math.min(${PROBE_WAIT_MS.most}, math.ceil(wait))), 'probe')
      end
      local probe_after = tonumber(state[18]) or 0
      if now < probe_after then
        return answer(0, probe_after - now, 'probe')
      end
      probe = true
    end
    if current then
      if available <= 0 then
        return answer(0, reset_at - now, available + in_flight > 0 and 'held' or 'budget')
      end
      if burst ~= '' then
        local wait
        wait, credit = spread(state[14], tonumber(state[15]), tonumber(state[16]), state[5], available,
          reset_at - now, tonumber(state[6]) or remaining, tonumber(burst))
        if wait > 0 and not (within and wait > within) then
          return answer(0, wait, 'budget')
        end
      end
    end
  end

  redis.call('ZADD', KEYS[2], now + lease_ms, lease)
  if redis.call('PTTL', KEYS[2]) < lease_ms + 1000 then
    redis.call('PEXPIRE', KEYS[2], lease_ms + 1000)
  end
  available = available - 1
  grant = redis.call('HINCRBY', KEYS[1], 'granted', 1)
  if credit then
    redis.call('HSET', KEYS[1], 'bucket_window', state[5], 'bucket_credit', credit, 'bucket_at', now)
  end
  if probe then
    redis.call('HSET', KEYS[1], 'probe_lease', lease, 'probe_at', now)
    return answer(1, 0, 'probe')
  end
  return answer(1, 0, '')
end
`;
