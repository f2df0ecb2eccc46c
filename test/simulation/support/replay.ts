/**
 * How many seeds a run of the suite tries, from which seed, and how a failure says to replay it.
 * SIM_RUNS (default 1,000), SIM_SEED (default a fixed seed, so CI tries the same runs each time),
 * SIM_PATH (one failing run, as a failure prints it), SIM_SHRINK=1 (shrink a failure first).
 */
import fc from 'fast-check';
import { describeTrace } from './describe-trace.js';
import type { Property } from './properties.js';
import { runScenario, type Trace } from './run.js';
import { type Scenario, scenario } from './scenario.js';

const TEST_FILE = 'test/simulation/simulation.test.ts';
const DEFAULT_SEED = 33;

const env = (name: string): string | undefined => process.env[name] || undefined;

export const settings = {
  runs: Number(env('SIM_RUNS') ?? 1_000),
  seed: Number(env('SIM_SEED') ?? DEFAULT_SEED),
  path: env('SIM_PATH'),
  shrink: env('SIM_SHRINK') === '1',
};

// Every property judges the same runs (the same seed draws the same scenarios): each is run once.
const traces = new Map<string, Trace>();

async function traceOf(drawn: Scenario): Promise<Trace> {
  const key = JSON.stringify(drawn);
  const known = traces.get(key);
  if (known !== undefined) return known;
  const trace = await runScenario(drawn);
  traces.set(key, trace);
  return trace;
}

/** The property's name as a pattern for vitest's `-t`, which reads a regular expression. */
const testNamePattern = (property: Property): string => property.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Runs `property` on every seed; a failure names the run and the command that replays it alone. */
export async function checkOnEverySeed(property: Property): Promise<void> {
  const details = await fc.check(
    fc.asyncProperty(scenario, async (drawn) => {
      const problem = property.check(await traceOf(drawn));
      if (problem !== undefined) throw new Error(problem);
    }),
    {
      numRuns: settings.runs,
      seed: settings.seed,
      ...(settings.path === undefined ? {} : { path: settings.path }),
      endOnFailure: !settings.shrink,
    },
  );
  if (!details.failed) return;
  const problem =
    details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(
    [
      `"${property.name}" failed after ${details.numRuns} run(s): ${problem}`,
      `Scenario: ${JSON.stringify(details.counterexample?.[0])}`,
      `Replay this run alone: SIM_SEED=${details.seed} SIM_PATH=${details.counterexamplePath} npx vitest run ${TEST_FILE} -t '${testNamePattern(property)}'`,
      settings.path === undefined
        ? 'Replayed alone, it prints the whole run; add SIM_SHRINK=1 (without SIM_PATH) to shrink it first.'
        : describeTrace(await traceOf(details.counterexample?.[0] as Scenario)),
    ].join('\n'),
  );
}
