/**
 * The warning for fake timers that fake `process.nextTick` (Jest's default, `jest.useFakeTimers()`):
 * msw intercepts requests on it, so a call through msw's `setupServer` is not intercepted and goes to
 * the network instead.
 *
 * @module
 */

type Faked = { readonly clock?: object };

// One warning per fake clock: a test file installs one per test, each worth saying once.
const warned = new WeakSet<object>();

/** Warns, once per fake clock, when `process.nextTick` is faked (@sinonjs/fake-timers marks it with `clock`). */
export function warnIfNextTickFaked(): void {
  const process = (globalThis as { process?: { nextTick?: Faked } }).process;
  const clock = process?.nextTick?.clock;
  if (clock === undefined || warned.has(clock)) return;
  warned.add(clock);
  console.warn(
    'animal-store-sdk/testing: process.nextTick is faked (Jest fakes it by default, in jest.useFakeTimers()), and msw intercepts requests on it: ' +
      "a call through msw's setupServer is not intercepted but sent to the network, and fails with an APIConnectionError " +
      "(getaddrinfo ENOTFOUND for the fake's host) once its retries are spent. " +
      "Leave it real: jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }).",
  );
}
