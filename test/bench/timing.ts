/**
 * Timing calls: a number of calls at a given concurrency, and several contenders measured in
 * alternating rounds so that machine noise falls on all of them alike.
 *
 * @module
 */

/** One way of making a call. `index` counts the calls, so a contender can vary its arguments. */
export interface Contender {
  readonly name: string;
  readonly call: (index: number) => Promise<unknown>;
  /**
   * Sets up what the contender's calls need and undoes it, around its warm-up and each of its
   * rounds: what is process-wide (a channel subscriber) is in force for its rounds only.
   */
  readonly around?: { readonly before: () => void; readonly after: () => void };
}

/** Times a contender's calls with its setup in force. */
async function timeContender(contender: Contender, count: number, concurrency: number): Promise<number> {
  contender.around?.before();
  try {
    return await timeCalls(contender.call, count, concurrency);
  } finally {
    contender.around?.after();
  }
}

/** Runs `count` calls with `concurrency` in flight at once; returns the elapsed milliseconds. */
export async function timeCalls(
  call: (index: number) => Promise<unknown>,
  count: number,
  concurrency: number,
): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next < count) await call(next++);
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, worker));
  return performance.now() - start;
}

/** How to share the calls between rounds. */
export interface RoundsOptions {
  /** Calls per contender, over all rounds. */
  readonly calls: number;
  readonly rounds: number;
  readonly concurrency: number;
  /** Calls per contender before measuring. */
  readonly warmup: number;
}

/** What one contender did over all rounds. */
export interface Measured {
  readonly name: string;
  readonly calls: number;
  readonly ms: number;
  /** CPU time of this process (user + system, all threads), in microseconds. */
  readonly cpuUs: number;
  /** Milliseconds of each round, in round order. */
  readonly roundMs: number[];
  /** CPU microseconds of each round, in round order. */
  readonly roundCpuUs: number[];
}

/**
 * Warms every contender up, then runs `rounds` rounds in which every contender makes its share of the
 * calls; the order of the contenders rotates from round to round.
 */
export async function alternate(
  contenders: readonly Contender[],
  options: RoundsOptions,
): Promise<Measured[]> {
  for (const contender of contenders) await timeContender(contender, options.warmup, options.concurrency);
  const perRound = Math.max(1, Math.round(options.calls / options.rounds));
  const roundMs = contenders.map((): number[] => []);
  const roundCpuUs = contenders.map((): number[] => []);
  for (let round = 0; round < options.rounds; round++) {
    for (let turn = 0; turn < contenders.length; turn++) {
      const index = (round + turn) % contenders.length;
      const contender = contenders[index] as Contender;
      const cpuBefore = process.cpuUsage();
      (roundMs[index] as number[]).push(await timeContender(contender, perRound, options.concurrency));
      const cpu = process.cpuUsage(cpuBefore);
      (roundCpuUs[index] as number[]).push(cpu.user + cpu.system);
    }
  }
  return contenders.map((contender, index) => {
    const ms = roundMs[index] as number[];
    const cpu = roundCpuUs[index] as number[];
    return {
      name: contender.name,
      calls: perRound * options.rounds,
      ms: ms.reduce((sum, value) => sum + value, 0),
      cpuUs: cpu.reduce((sum, value) => sum + value, 0),
      roundMs: ms,
      roundCpuUs: cpu,
    };
  });
}

/** Calls per second. */
export function throughput(measured: Pick<Measured, 'calls' | 'ms'>): number {
  return (measured.calls * 1000) / measured.ms;
}

/**
 * The median, over the rounds of one alternating run, of `entry`'s throughput relative to `base`'s
 * in the same round: machine noise in a round hits both alike.
 */
export function medianRoundRatio(entry: Pick<Measured, 'roundMs'>, base: Pick<Measured, 'roundMs'>): number {
  return median(entry.roundMs.map((ms, round) => (base.roundMs[round] as number) / ms));
}

/** The median of some numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
