/**
 * The runtime scenario inside a Cloudflare Worker: the SDK and the fake store bundled from the packed
 * tarball as wrangler bundles them, served by workerd on loopback and called from here, at the
 * compatibility dates Worker projects keep (2024-09-23, 2025-09-01 and the newest this workerd
 * supports), each with and without `nodejs_compat`. Workers forbid compiling code from strings, which
 * zod uses for its fastest parsers when allowed: parsing must work there with no error and no warning.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { log } from '../package/support/log.js';
import { expectScenarioReport } from './support/expected-report.js';
import { runtimeProject } from './support/runtime-project.js';
import { findRuntime } from './support/runtimes.js';
import { bundleWorker, serveWorker, type WorkerCompatibility } from './support/workerd.js';

// vitest.config.ts leaves this file out, with a notice, where workerd does not run.
const found = findRuntime('workerd');
if ('missing' in found) throw new Error(found.missing);
const workerd = found;

// workerd names itself by the newest compatibility date it supports.
const NEWEST_DATE = /^\d{4}-\d{2}-\d{2}$/.test(workerd.version) ? workerd.version : '2026-10-23';
const MATRIX: readonly WorkerCompatibility[] = ['2024-09-23', '2025-09-01', NEWEST_DATE].flatMap((date) => [
  { date, nodejsCompat: false },
  { date, nodejsCompat: true },
]);

let directory: string;

beforeAll(async () => {
  const project = await runtimeProject();
  directory = await mkdtemp(join(tmpdir(), 'animal-store-workerd-'));
  await bundleWorker(project.directory, 'worker.js', join(directory, 'worker.js'));
  await bundleWorker(project.directory, 'worker.js', join(directory, 'worker-nodejs-compat.js'), {
    nodejsCompat: true,
  });
}, 180_000);

afterAll(async () => {
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
});

// One workerd at a time (tests in a file run in order): each starts in about a second.
describe(`a Worker on workerd ${workerd.version}`, () => {
  it.for(MATRIX)(
    'runs the scenario against store.fetch at $date, nodejs_compat $nodejsCompat, zod parsing without compiling code',
    { timeout: 60_000 },
    async (compatibility) => {
      const script = compatibility.nodejsCompat ? 'worker-nodejs-compat.js' : 'worker.js';
      const worker = await serveWorker(workerd.path, directory, script, compatibility);
      try {
        const response = await fetch(worker.url);
        const report = (await response.json()) as Record<string, unknown>;
        log(
          `  workerd ${compatibility.date} nodejs_compat ${compatibility.nodejsCompat}: ${response.status}`,
        );

        expect(response.status).toBe(200);
        expect(report.runtime).toBe('workerd Cloudflare-Workers');
        expect(report.codeFromStrings).toMatch(/^EvalError: Code generation from strings disallowed/);
        expect(report.zodCompilesParsers).toBe(false);
        // nodejs_compat gives a Worker diagnostics_channel; without it only newer dates have `process`.
        const channels = compatibility.nodejsCompat || report.channels !== null ? 'present' : 'absent';
        expectScenarioReport(expect, report, channels);
        expect(report.handlers).toMatch(/^TypeError: store\.handlers is not available in Cloudflare Workers/);
        expect(report.console).toEqual([]);
        expect(worker.output()).not.toMatch(/warn|error|exception/i);
      } finally {
        await worker.stop();
      }
    },
  );
});
