// @vitest-environment jsdom
/**
 * fakeTimeForTestingLibrary: Testing Library's waitFor on a runner's fake clock, stepped by the helper
 * where Testing Library does not step it (vitest), and not stepped twice where it does (Jest, here
 * played by a `jest` global, which is what Testing Library looks for).
 */
import { configure, getConfig, waitFor } from '@testing-library/dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeTimeForTestingLibrary } from '../../src/testing/index.js';

const original = getConfig();
const advance = vi.fn((ms: number) => vi.advanceTimersByTimeAsync(ms));

beforeEach(() => {
  configure(fakeTimeForTestingLibrary(advance, { timeout: 5_000 }));
});
afterEach(() => {
  configure(original);
  advance.mockClear();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const fakeTimers = () =>
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });

/** A condition that holds once `ms` of the (fake) clock has passed. */
function holdsAfter(ms: number): () => void {
  let done = false;
  setTimeout(() => {
    done = true;
  }, ms);
  return () => expect(done).toBe(true);
}

describe('fakeTimeForTestingLibrary', () => {
  it('lets waitFor outlast a 2 s wait in fake time, as soon as the condition holds', async () => {
    fakeTimers();
    const started = Date.now();
    await waitFor(holdsAfter(2_000));

    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(Date.now() - started).toBeLessThan(2_100);
    expect(advance).toHaveBeenCalled();
  });

  it('fails waitFor after timeout of fake time', async () => {
    fakeTimers();
    const started = Date.now();
    await expect(waitFor(holdsAfter(60_000))).rejects.toThrow();

    expect(Date.now() - started).toBeGreaterThanOrEqual(5_000);
    expect(Date.now() - started).toBeLessThan(5_100);
  });

  it('steps nothing with real timers', async () => {
    await waitFor(holdsAfter(20));
    expect(advance).not.toHaveBeenCalled();
  });

  it('leaves the stepping to Testing Library where it steps the clock itself, with I/O between', async () => {
    fakeTimers();
    vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
    const started = Date.now();
    // Real I/O: a message through a channel, which no fake timer controls, then a 1 s fake wait.
    let ready = false;
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      setTimeout(() => {
        ready = true;
      }, 1_000);
      channel.port1.close();
    };
    channel.port2.postMessage('go');
    await waitFor(() => expect(ready).toBe(true));

    expect(advance).not.toHaveBeenCalled();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(Date.now() - started).toBeLessThan(1_200);
  });

  it('rejects a timeout that is not a positive number', () => {
    expect(() => fakeTimeForTestingLibrary(advance, { timeout: 0 })).toThrow(RangeError);
    expect(() => fakeTimeForTestingLibrary(advance, { timeout: Number.NaN })).toThrow(RangeError);
  });
});
