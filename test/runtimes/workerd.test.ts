/**
 * The runtime scenario inside a Cloudflare Worker: the SDK and the fake store bundled from the packed
 * tarball, served by workerd on loopback and called from here. Workers forbid compiling code from
 * strings, which zod uses for its fastest parsers when allowed: parsing must work there with no error
 * and no warning.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { log } from '../package/support/log.js';
import { expectScenarioReport } from './support/expected-report.js';
import { runtimeProject } from './support/runtime-project.js';
import { findRuntime } from './support/runtimes.js';
import { bundleWorker, type RunningWorker, serveWorker } from './support/workerd.js';

// vitest.config.ts leaves this file out, with a notice, where workerd does not run.
const found = findRuntime('workerd');
if ('missing' in found) throw new Error(found.missing);
const workerd = found;

let directory: string;
let worker: RunningWorker | undefined;

beforeAll(async () => {
  const project = await runtimeProject();
  directory = await mkdtemp(join(tmpdir(), 'animal-store-workerd-'));
  await bundleWorker(project.directory, 'worker.js', join(directory, 'worker.js'));
  worker = await serveWorker(workerd.path, directory, 'worker.js');
  log(`  ${workerd.version} serving the worker at ${worker.url}`);
}, 180_000);

afterAll(async () => {
  await worker?.stop();
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
});

it(`runs in a worker on workerd ${workerd.version}, zod parsing without compiling code`, {
  timeout: 60_000,
}, async () => {
  const response = await fetch(worker?.url ?? '');
  const report = (await response.json()) as Record<string, unknown>;
  log(`  workerd: ${String(report.runtime)}; code from strings: ${String(report.codeFromStrings)}`);

  expect(response.status).toBe(200);
  expect(report.runtime).toBe('workerd Cloudflare-Workers');
  expect(report.codeFromStrings).toMatch(/^EvalError: Code generation from strings disallowed/);
  expect(report.zodCompilesParsers).toBe(false);
  expectScenarioReport(expect, report);
  expect(report.console).toEqual([]);
  expect(worker?.output() ?? '').not.toMatch(/warn|error|exception/i);
});
