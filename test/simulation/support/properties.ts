/**
 * What must hold on every simulated run, each property a function of the run's trace that names
 * the first thing it finds wrong (undefined when it holds). Each is judged alone.
 */
import { backoffDelay } from '../../../src/core/request/retry.js';
import { FAULT_KINDS, type FaultKind } from './faults.js';
import type { AttemptRecord, CallRecord, ServiceRequest, Trace } from './run.js';
import type { ClientPlan } from './scenario.js';

export interface Property {
  /** The test's name, also what `-t` selects. */
  readonly name: string;
  readonly check: (trace: Trace) => string | undefined;
}

/** The client's own refusals, nothing sent. */
const REFUSALS = new Set(['client_deadline', 'client_rate_limited', 'client_queue_full']);
/** A reset read from whole-second `X-RateLimit-Reset` and `Date` headers may be up to this late. */
const WHOLE_SECOND_LATENESS_MS = 2_000;
/** The share of a window's budget that must go to calls still waiting while demand exceeds the plan. */
const GOODPUT = 0.95;

const kind = (attempt: AttemptRecord | undefined): FaultKind | undefined =>
  attempt?.fault === undefined ? undefined : (FAULT_KINDS[attempt.fault] as FaultKind);

/** A 429 of the limiter (a chaos 429 is the service's own, not a sign of overspending). */
const limiterRefusal = (trace: Trace, request: ServiceRequest): boolean =>
  request.status === 429 && kind(trace.attempts[request.attempt])?.chaos429 !== true;

/** The limiter counted the request: it reached the operation (its answer may still be spoiled). */
const counted = (trace: Trace, request: ServiceRequest): boolean =>
  request.status !== undefined &&
  request.status !== 429 &&
  request.reset !== undefined &&
  kind(trace.attempts[request.attempt])?.beforeOperation !== true;

const silentBefore = (trace: Trace, time: number, from = Number.NEGATIVE_INFINITY): boolean =>
  trace.attempts.some((attempt) => attempt.silent && attempt.sentAt < time && attempt.sentAt >= from);

/** The client's cooldowns after chaos 429s: from the answer, for its `Retry-After` (a whole second late at most). */
const cooldowns = (trace: Trace): { from: number; until: number }[] =>
  trace.requests
    .filter(
      (request) =>
        request.status === 429 && !limiterRefusal(trace, request) && request.answeredAt !== undefined,
    )
    .map((request) => ({
      from: request.answeredAt as number,
      until: (request.answeredAt as number) + ((request.retryAfter ?? 0) + 1) * 1_000,
    }));

const pausedAt = (pauses: readonly { from: number; until: number }[], at: number) =>
  pauses.find((pause) => pause.from <= at && at < pause.until);

export interface ServiceWindow {
  readonly reset: number;
  /** When its first counted request opened it, and when it resets (host clock, from the run's start). */
  readonly start: number;
  readonly end: number;
  readonly requests: readonly ServiceRequest[];
  /** Its budget left unspent when it reset. */
  readonly spare: number;
}

/** The limiter's windows, rebuilt from the requests it counted. */
export function serviceWindows(trace: Trace): ServiceWindow[] {
  const byReset = new Map<number, ServiceRequest[]>();
  for (const request of trace.requests) {
    if (!counted(trace, request)) continue;
    const group = byReset.get(request.reset as number) ?? [];
    group.push(request);
    byReset.set(request.reset as number, group);
  }
  return [...byReset.entries()]
    .map(([reset, requests]) => {
      const start = Math.min(...requests.map((request) => request.answeredAt ?? request.receivedAt));
      return {
        reset,
        start,
        end: start + trace.scenario.windowMs,
        requests,
        spare: trace.scenario.limit - requests.length,
      };
    })
    .sort((a, b) => a.start - b.start);
}

const attemptsOf = (trace: Trace, call: CallRecord): AttemptRecord[] =>
  trace.attempts.filter((attempt) => attempt.call === call.id);

const clientOf = (trace: Trace, call: CallRecord): ClientPlan =>
  trace.scenario.clients[call.plan.client] as ClientPlan;

/** The latest a call may start: its `maxQueueWait` in the queue, within its `callTimeout`. */
const startBy = (call: CallRecord): number =>
  call.arrivedAt + Math.min(call.bound.callTimeout ?? Number.POSITIVE_INFINITY, call.bound.maxQueueWait);

const describeCall = (call: CallRecord): string =>
  `call ${call.id} (${call.plan.operation} by client ${call.plan.client}, arrived at ${call.arrivedAt} ms, ` +
  `callTimeout ${call.bound.callTimeout ?? 'none'}, maxQueueWait ${call.bound.maxQueueWait}` +
  `${call.abortedAt === undefined ? '' : `, aborted at ${call.abortedAt} ms`})`;

export const neverBanned: Property = {
  name: 'never banned',
  check: (trace) => {
    const banned = trace.requests.find((request) => request.code === 'api_key_banned');
    return (
      banned &&
      `the key was banned: request ${banned.attempt} at ${banned.receivedAt} ms answered api_key_banned`
    );
  },
};

export const noOverspending: Property = {
  name: 'no 429 while every answer arrives, at most one per window otherwise',
  check: (trace) => {
    const perWindow = new Map<number, number>();
    for (const request of trace.requests) {
      if (!limiterRefusal(trace, request)) continue;
      // Sent after an attempt that fell silent, by the harness's order of events (times can tie).
      const sent = trace.attempts[request.attempt] as AttemptRecord;
      if (!trace.attempts.some((attempt) => attempt.silent && attempt.seq < sent.seq)) {
        return `the limiter refused request ${request.attempt} at ${request.receivedAt} ms (429 ${request.code}) though every earlier answer arrived`;
      }
      // "Never more in a window than the last budget it knew": before any answer came back the client
      // knew none, and no rule can keep a silent probe from meeting an unknown, smaller budget twice
      // (never banned still holds it, as a property of its own).
      if (
        !trace.attempts.some(
          (attempt) => !attempt.silent && attempt.status !== undefined && attempt.seq < sent.seq,
        )
      ) {
        continue;
      }
      const count = (perWindow.get(request.reset ?? -1) ?? 0) + 1;
      perWindow.set(request.reset ?? -1, count);
      if (count > 1) {
        return `the limiter refused ${count} requests in the window resetting at ${request.reset} (the latest at ${request.receivedAt} ms)`;
      }
    }
    return undefined;
  },
};

export const withinBound: Property = {
  name: 'no call settles past its bound (plus one attempt)',
  check: (trace) => {
    for (const call of trace.calls) {
      if (call.settledAt === undefined) return `${describeCall(call)} never settled`;
      const life = call.settledAt - call.arrivedAt;
      const client = clientOf(trace, call);
      if (call.bound.callTimeout !== undefined && life > call.bound.callTimeout + client.timeout) {
        return `${describeCall(call)} settled after ${life} ms, past its callTimeout and one attempt (${client.timeout} ms)`;
      }
      const attempts = attemptsOf(trace, call);
      let inAttempts = 0;
      let backoff = 0;
      attempts.forEach((attempt, index) => {
        const end = attempt.endedAt ?? attempt.answeredAt ?? (call.settledAt as number);
        inAttempts += Math.min(end, call.settledAt as number) - attempt.sentAt;
        // A retry's backoff is no wait in the queue: it may come on top of the bound, also when
        // the queue then refuses the retry (the call ends with this attempt's error).
        const next = attempts[index + 1]?.seq ?? Number.POSITIVE_INFINITY;
        if (
          trace.waits.some(
            (wait) =>
              wait.call === call.id && wait.reason === 'backoff' && wait.seq > attempt.seq && wait.seq < next,
          )
        ) {
          backoff += backoffDelay(index + 1);
        }
      });
      const waited = life - inAttempts;
      if (waited > call.bound.maxQueueWait + backoff) {
        return `${describeCall(call)} waited ${waited} ms outside its ${attempts.length} attempt(s), past maxQueueWait${backoff > 0 ? ` and ${backoff} ms of backoff` : ''} (outcome ${call.outcome})`;
      }
    }
    return undefined;
  },
};

/**
 * A call refused with nothing sent could have started, had the budget been offered it: inside a
 * window that reset with budget unspent, or while no window was open (a new window's budget),
 * once the calls waiting ahead of it took their share, before the latest it may start, outside a
 * cooldown, and while every earlier answer had arrived (silence rightly counts as spent).
 */
export const refusalsJustified: Property = {
  name: 'a refused call could not have been served within its bound',
  check: (trace) => {
    const windows = serviceWindows(trace);
    const pauses = cooldowns(trace);
    const { limit } = trace.scenario;
    // Open budget: the spare of each window, and a whole window's budget between windows (once a
    // reset read from whole-second headers is surely past).
    // Between windows, the next window's budget less the requests it counted that were already out.
    // Between windows (`idle`: since the window before ended) no client knows whether a new window
    // opened: one request goes alone to learn its budget, and the others wait for its answer.
    const openings: {
      from: number;
      until: number;
      budget: number;
      next?: ServiceWindow;
      idle?: number | undefined;
    }[] = [];
    // Until the first answer arrives no client knows the budget: a call sent blind could be refused
    // by the limiter, which the issue forbids while answers arrive, so one request learns it first.
    let idleFrom = Math.min(
      ...trace.attempts
        .filter((attempt) => !attempt.silent)
        .map((attempt) => attempt.answeredAt ?? Number.POSITIVE_INFINITY),
    );
    let idle: number | undefined;
    for (const window of windows) {
      if (window.start > idleFrom) {
        openings.push({ from: idleFrom, until: window.start, budget: limit, next: window, idle });
      }
      if (window.spare > 0) openings.push({ from: window.start, until: window.end, budget: window.spare });
      idleFrom = window.end + WHOLE_SECOND_LATENESS_MS;
      idle = window.end;
    }
    openings.push({ from: idleFrom, until: Number.POSITIVE_INFINITY, budget: limit, idle });

    for (const call of trace.calls) {
      if (call.sent !== 'no' || call.outcome === undefined || !REFUSALS.has(call.outcome)) continue;
      const latest = startBy(call);
      if (silentBefore(trace, latest)) continue;
      // No client foresees a 429 the service sends of its own accord: a call refused in the cooldown
      // that 429 began, a cooldown past the latest the call may start, could not start after it.
      const pause = pausedAt(pauses, call.settledAt as number);
      if (pause !== undefined && pause.from >= call.arrivedAt && pause.until > latest) continue;
      for (const opening of openings) {
        let at = Math.max(opening.from, call.arrivedAt);
        for (let pause = pausedAt(pauses, at); pause !== undefined; pause = pausedAt(pauses, at))
          at = pause.until;
        const learning = trace.attempts.find(
          (attempt) =>
            opening.idle !== undefined &&
            attempt.sentAt >= opening.idle &&
            attempt.sentAt < at &&
            (attempt.endedAt ?? Number.POSITIVE_INFINITY) > at,
        );
        if (learning !== undefined) at = learning.endedAt ?? Number.POSITIVE_INFINITY;
        if (at >= Math.min(opening.until, latest)) continue;
        const ahead = trace.calls.filter(
          (other) =>
            other.id < call.id &&
            // A caller ahead that gives up after the refusal was ahead when it was decided: the
            // issue asks for a refusal exactly when the start is past the bound, at once, and no
            // client can foresee an abort.
            (other.abortedAt === undefined
              ? (other.settledAt ?? Number.POSITIVE_INFINITY) > at
              : other.abortedAt > Math.min(at, call.settledAt as number)) &&
            !trace.attempts.some((attempt) => attempt.call === other.id && attempt.sentAt < at),
        ).length;
        const out =
          opening.next?.requests.filter(
            (request) => (trace.attempts[request.attempt] as AttemptRecord).sentAt < at,
          ).length ?? 0;
        if (ahead < opening.budget - out) {
          return `${describeCall(call)} was refused ${call.outcome} at ${call.settledAt} ms ("${call.message}"), yet at ${at} ms ${opening.budget} request(s) of budget were open with ${ahead} call(s) waiting ahead, before the latest it could start (${latest} ms)`;
        }
      }
    }
    return undefined;
  },
};

/**
 * While more callers want a window than its budget, one of them waits through the whole window
 * (it could have gone in it), and every answer arrives, the window's budget goes to calls whose
 * callers are still there.
 */
export const goodput: Property = {
  name: 'while demand exceeds the plan, at least 95% of each window goes to calls still waiting',
  check: (trace) => {
    const { limit, windowMs } = trace.scenario;
    const pauses = cooldowns(trace);
    for (const window of serviceWindows(trace)) {
      if (silentBefore(trace, window.end, window.start - windowMs)) continue;
      if (pauses.some((pause) => pause.from < window.end && pause.until > window.start)) continue;
      const waitingThrough = trace.calls.find(
        (call) =>
          call.arrivedAt <= window.start &&
          (call.settledAt ?? Number.POSITIVE_INFINITY) >= window.end &&
          (call.abortedAt ?? Number.POSITIVE_INFINITY) >= window.end &&
          startBy(call) >= window.end &&
          !attemptsOf(trace, call).some((attempt) => attempt.sentAt < window.end),
      );
      if (waitingThrough === undefined) continue;
      // Demand beyond the plan: more callers wanted this window than its budget.
      const wanting = trace.calls.filter(
        (call) =>
          call.arrivedAt < window.end &&
          (call.settledAt ?? Number.POSITIVE_INFINITY) >= window.start &&
          (call.abortedAt ?? Number.POSITIVE_INFINITY) >= window.start &&
          startBy(call) >= window.start,
      ).length;
      if (wanting <= limit) continue;
      const live = window.requests.filter((request) => {
        const attempt = trace.attempts[request.attempt] as AttemptRecord;
        const call = trace.calls[attempt.call] as CallRecord;
        const deadline = call.arrivedAt + (call.bound.callTimeout ?? Number.POSITIVE_INFINITY);
        return (call.abortedAt ?? Number.POSITIVE_INFINITY) > attempt.sentAt && deadline > attempt.sentAt;
      }).length;
      if (live < GOODPUT * limit) {
        return `the window from ${window.start} to ${window.end} ms served ${live} live call(s) of its ${limit}, while ${describeCall(waitingThrough)} waited through it`;
      }
    }
    return undefined;
  },
};

export const oneReportPerWait: Property = {
  name: 'onWait at most once per wait per reason',
  check: (trace) => {
    if (trace.unpairedWaits > 0) {
      return `${trace.unpairedWaits} onWait report(s) had no wait on the diagnostics channel beside them (or the reverse)`;
    }
    const unnamed = trace.waits.find((wait) => wait.call === undefined);
    if (unnamed !== undefined)
      return `an onWait report at ${unnamed.at} ms names no call the harness started`;
    for (const call of trace.calls) {
      const events = [
        ...attemptsOf(trace, call).map((attempt) => ({ seq: attempt.seq, reason: undefined })),
        ...trace.waits
          .filter((wait) => wait.call === call.id)
          .map((wait) => ({ seq: wait.seq, reason: wait.reason })),
      ].sort((a, b) => a.seq - b.seq);
      let reasons = new Map<string, number>();
      for (const event of events) {
        if (event.reason === undefined) {
          reasons = new Map();
          continue;
        }
        const count = (reasons.get(event.reason) ?? 0) + 1;
        reasons.set(event.reason, count);
        if (count > 1) {
          const reported = trace.waits.filter((wait) => wait.call === call.id).map((wait) => wait.reason);
          return `${describeCall(call)} had onWait '${event.reason}' ${count} times in one wait (its reports: ${reported.join(', ')})`;
        }
      }
    }
    return undefined;
  },
};

export const noDuplicateCreates: Property = {
  name: 'no duplicate creates',
  check: (trace) => {
    const seen = new Set<string>();
    for (const name of trace.petNames) {
      if (seen.has(name)) return `the pet ${name} was created twice`;
      seen.add(name);
    }
    return undefined;
  },
};

export const PROPERTIES: readonly Property[] = [
  neverBanned,
  noOverspending,
  withinBound,
  refusalsJustified,
  goodput,
  oneReportPerWait,
  noDuplicateCreates,
];
