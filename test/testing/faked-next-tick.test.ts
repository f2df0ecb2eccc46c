/**
 * Fake timers that fake process.nextTick (Jest's default): msw does not intercept, so the fake says
 * what to change.
 */
import { ModernFakeTimers } from '@jest/fake-timers';
import { setupServer } from 'msw/node';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { APIConnectionError, PetStoreClient } from '../../src/index.js';
import { advanceUntilSettled, createFakePetStore } from '../../src/testing/index.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';

/** Jest's own fake timers, as `jest.useFakeTimers()` installs them in a test: `config` is Jest's default. */
function jestFakeTimers(config?: { doNotFake: ('nextTick' | 'setImmediate' | 'queueMicrotask')[] }) {
  const timers = new ModernFakeTimers({
    global: globalThis,
    config: { fakeTimers: {} } as ConstructorParameters<typeof ModernFakeTimers>[0]['config'],
  });
  timers.useFakeTimers(config);
  onTestFinished(() => timers.useRealTimers());
  return timers;
}

function warnings() {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  onTestFinished(() => warn.mockRestore());
  return () => warn.mock.calls.map((call) => String(call[0]));
}

describe('fake timers that fake process.nextTick, as Jest does by default', () => {
  it("leave msw's handlers unused; the fake says to keep nextTick real", async () => {
    const warned = warnings();
    const store = createFakePetStore();
    const server = setupServer(...store.handlers);
    server.listen({ onUnhandledFrame: 'bypass' });
    onTestFinished(() => server.close());
    const timers = jestFakeTimers();
    const client = new PetStoreClient({ apiKey: DEFAULT_API_KEY, baseUrl: store.baseUrl, maxRetries: 0 });

    const { error } = await advanceUntilSettled(client.listPets(), (ms) =>
      timers.advanceTimersByTimeAsync(ms),
    );

    expect(error).toBeInstanceOf(APIConnectionError);
    expect(store.requests).toEqual([]);
    expect(warned()).toEqual([
      expect.stringContaining(
        'process.nextTick is faked (Jest fakes it by default, in jest.useFakeTimers()), and msw intercepts requests on it',
      ),
    ]);
    expect(warned()[0]).toContain(
      "jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] })",
    );
  });

  it('warn once per fake clock, and not when nextTick stays real', async () => {
    const warned = warnings();
    const store = createFakePetStore();
    const client = new PetStoreClient({
      apiKey: DEFAULT_API_KEY,
      baseUrl: store.baseUrl,
      fetch: store.fetch,
    });
    const settle = (timers: ModernFakeTimers) =>
      advanceUntilSettled(client.listPets(), (ms) => timers.advanceTimersByTimeAsync(ms));

    const real = jestFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    await settle(real);
    real.useRealTimers();
    expect(warned()).toEqual([]);

    const faked = jestFakeTimers();
    await settle(faked);
    await settle(faked);
    expect(warned()).toHaveLength(1);
  });
});
