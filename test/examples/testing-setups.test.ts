/**
 * The test setups docs/testing.md and docs/testing-from-another-process.md show whole, each a folder of
 * examples/testing run with its runner's own command: every test in it must pass. The browser mode's
 * is in testing-browser-setup.test.ts, which runs where Chromium does.
 */
import { describe, expect, it } from 'vitest';
import { JEST, project, run, serversStartedIn, vitest } from './support/testing-projects.js';

describe('the test setups of docs/testing.md, as projects of their own', { timeout: 240_000 }, () => {
  it('vitest-global-setup: each file on its own session of the server the global setup starts, and stops', async () => {
    const cwd = await project('vitest-global-setup');
    const { output, ...report } = await vitest(cwd);

    expect(report, output).toEqual({ passed: 1, failed: 0, failedFiles: 0 });
    // A server left running keeps vitest from closing: it waits 10 s, then says so.
    expect(output).not.toMatch(/close timed out|prevents? .* from exiting/i);
    expect(await serversStartedIn(cwd)).toEqual([]);
  });

  it('vitest-jsdom: Testing Library waits out a 429 on fake time, in jsdom', async () => {
    const { output, ...report } = await vitest(await project('vitest-jsdom'));

    expect(report, output).toEqual({ passed: 1, failed: 0, failedFiles: 0 });
  });

  it('jest-esm: Jest 30 in ESM mode with jest-fixed-jsdom, its setup file, msw and store.fetch', async () => {
    const cwd = await project('jest-esm');
    const { stdout, output } = await run(cwd, ['--experimental-vm-modules', JEST, '--json']);
    const report = JSON.parse(stdout || '{}') as {
      numPassedTests?: number;
      numFailedTests?: number;
      numRuntimeErrorTestSuites?: number;
    };

    expect(
      {
        passed: report.numPassedTests,
        failed: report.numFailedTests,
        failedFiles: report.numRuntimeErrorTestSuites,
      },
      output,
    ).toEqual({ passed: 2, failed: 0, failedFiles: 0 });
  });
});
