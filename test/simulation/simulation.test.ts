/**
 * The client against the fake's limiter on fake time, seeded: one client or two sharing a store,
 * random demand, plans, windows, faults, bounds and aborts (support/scenario.ts), and on every
 * seed the properties of support/properties.ts, each a test of its own (`-t` runs one).
 * SIM_RUNS=10000 tries more seeds; a failure prints the command that replays it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPERTIES } from './support/properties.js';
import { checkOnEverySeed, settings } from './support/replay.js';
import { runScenario } from './support/run.js';
import { scenario } from './support/scenario.js';

/** Generous for a busy 2-core machine: the whole file is meant to take well under a minute. */
const TIMEOUT_MS = 600_000;

describe(`the client on ${settings.runs} seeded runs (seed ${settings.seed})`, () => {
  it('runs the same way from the same scenario, whatever ran before it', async () => {
    const drawn = fc.sample(scenario, { numRuns: 30, seed: settings.seed });
    const forward: string[] = [];
    for (const run of drawn) forward.push(JSON.stringify(await runScenario(run)));
    const backward: string[] = [];
    for (const run of [...drawn].reverse()) backward.unshift(JSON.stringify(await runScenario(run)));
    expect(backward).toEqual(forward);
  });

  for (const property of PROPERTIES) {
    it(property.name, () => checkOnEverySeed(property), TIMEOUT_MS);
  }
});
