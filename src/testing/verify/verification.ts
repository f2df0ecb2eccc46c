/**
 * `store.verify()`: what a test set up on the fake that did not happen (a fault that never fired, or
 * fired fewer times than given), and, on a strict store, requests to paths the fake does not model.
 *
 * @module
 */
import type { FaultOptions, PendingFault } from '../disruptions/faults.js';
import type { RecordedRequest } from '../store/request-log.js';
import { describeMatch, describeRequest, formatNearMisses, nearMisses } from './near-misses.js';

/**
 * Thrown by `store.verify()`: the message lists every problem, each fault with the requests that came
 * closest to its match and what differed.
 *
 * @example
 * ```ts
 * import { createFakePetStore, FakeStoreVerificationError } from 'animal-store-sdk/testing';
 *
 * const store = createFakePetStore();
 * store.injectFault({ status: 503, match: { path: '/pet' } });
 * try {
 *   store.verify();
 * } catch (error) {
 *   if (error instanceof FakeStoreVerificationError) console.error(error.problems);
 * }
 * ```
 */
export class FakeStoreVerificationError extends Error {
  /** The class name, kept through minification. */
  override name = 'FakeStoreVerificationError';
  /** Each problem, in words: one entry per fault or unmodelled request, near misses included. */
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(
      `The fake Animal Store was not used as the test set it up (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problems.map((problem) => `- ${problem}`).join('\n')}`,
    );
    this.problems = problems;
  }
}

function describeFault(options: FaultOptions): string {
  const { nth, predicate } = options.match ?? {};
  const { afterOperation, delay, dripInterval, networkError, status } = options;
  const kind =
    afterOperation ??
    (networkError === true ? 'networkError' : status === undefined ? undefined : `status ${status}`);
  const what = [
    ...(kind === undefined ? [] : [kind]),
    ...(dripInterval === undefined ? [] : [`dripInterval ${dripInterval}`]),
    ...(kind === undefined || (delay ?? 0) > 0 ? [`delay ${delay ?? 0}`] : []),
  ].join(', ');
  const where = options.match === undefined ? 'every request' : describeMatch(options.match);
  const extra = [
    ...(nth === undefined ? [] : [`from the ${ordinal(nth)} match`]),
    ...(predicate === undefined ? [] : ['with a predicate']),
  ];
  return `a fault (${what}) for ${where}${extra.length === 0 ? '' : ` (${extra.join(', ')})`}`;
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** The problems `store.verify()` reports, in words. */
export function verificationProblems(
  pending: readonly PendingFault[],
  log: readonly RecordedRequest[],
  strict: boolean,
): string[] {
  const problems: string[] = [];
  for (const { options, fired, matched } of pending) {
    const times = options.times ?? 1;
    if (fired > 0 && times === Number.POSITIVE_INFINITY) continue;
    const fault = describeFault(options);
    if (fired > 0) {
      problems.push(`${fault} fired ${fired} of ${times} times.`);
      continue;
    }
    const nth = options.match?.nth;
    if (nth !== undefined && matched > 0) {
      problems.push(
        `${fault} never fired: ${matched} request${matched === 1 ? '' : 's'} matched, fewer than ${nth}.`,
      );
      continue;
    }
    const misses = options.match === undefined ? [] : nearMisses(options.match, log);
    problems.push(`${fault} never fired.\n${formatNearMisses(misses, log.length)}`);
  }
  if (strict) {
    log.forEach((request, position) => {
      if (request.unmodelled === true) {
        problems.push(
          `#${position + 1} ${describeRequest(request)} reached a path the fake does not model (404 not_modelled).`,
        );
      }
    });
  }
  return problems;
}
