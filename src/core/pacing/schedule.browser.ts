/**
 * The schedule in the browser build: a page's calls come from one user, so no start is estimated;
 * each waiter starts, as far as it knows, when the head of the queue does (`after`), and none is
 * asked about out of turn nor shared. Same exports.
 *
 * @module
 */
export class Schedule {
  learn(): void {}
  startAt(after: number): number {
    return after;
  }
}

export const scheduleOf = (): Schedule => new Schedule();

/** Asks no call out of turn; empty, so that a bundler drops its calls and their arguments. */
export function askOutOfTurn(_ask: unknown, _grant: unknown, _then: unknown): undefined {}
