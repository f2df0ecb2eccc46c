/**
 * The vitest browser mode setup of docs/testing.md (examples/testing/vitest-browser), in Chromium with
 * msw's worker answering, as a user runs it; CHROME_PATH names the system's Chromium.
 */
import { describe, expect, it } from 'vitest';
import { locateChromium } from '../support/chromium.js';
import { project, vitest } from './support/testing-projects.js';

const chromium = locateChromium();

describe('the browser mode setup of docs/testing.md', { timeout: 240_000 }, () => {
  it('vitest-browser: browser mode in Chromium, msw’s worker answering', async () => {
    const env = chromium.found ? { CHROME_PATH: chromium.path } : {};
    const { output, ...report } = await vitest(await project('vitest-browser'), env);

    expect(report, output).toEqual({ passed: 1, failed: 0, failedFiles: 0 });
  });
});
