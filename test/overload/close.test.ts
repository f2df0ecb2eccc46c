/**
 * `client.close()` and `await using`, on fake time: waiting calls rejected at once, requests in
 * flight finished or aborted, calls after it refused, and nothing of the client left on the clock.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APIConnectionTimeoutError, APIUserAbortError, type Pet, RefusedError } from '../../src/index.js';
import { API_KEY, setup } from '../client/setup.js';
import { settle, startFakeClock } from '../support/fake-clock.js';

afterEach(() => {
  vi.useRealTimers();
});

const PLAN = { perMinute: 3, perDay: 100_000, window: 10_000 };

/** A client on a 3-per-10-s plan whose requests are answered only when the test says. */
function heldAnswers() {
  const answers: (() => void)[] = [];
  const context = setup(
    {
      fetch: async (input, init) => {
        await new Promise<void>((resolve, reject) => {
          answers.push(resolve);
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
          if (input instanceof Request)
            input.signal.addEventListener('abort', () => reject(input.signal.reason));
        });
        return context.store.fetch(input, init);
      },
    },
    { apiKeys: { [API_KEY]: PLAN } },
  );
  return { ...context, answers };
}

const outcome = (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

describe('close()', () => {
  it('rejects every waiting call at once, lets the request in flight finish, then resolves', async () => {
    startFakeClock();
    const { client, store, answers } = heldAnswers();
    const inFlight = outcome(client.listPets());
    const waiting = [outcome(client.listPets()), outcome(client.createPet({ name: 'Rex', categoryId: 1 }))];
    await vi.advanceTimersByTimeAsync(0);
    expect(client.queue).toMatchObject({ waiting: 2, inFlight: 1 });

    let closed = false;
    const closing = client.close().then(() => {
      closed = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    for (const { error } of (await Promise.all(waiting)) as { error: unknown }[]) {
      expect(error).toBeInstanceOf(RefusedError);
      expect(error).toMatchObject({ code: 'client_closed', sent: 'no' });
      expect((error as Error).message).toMatch(/closed.*nothing was sent/);
    }
    expect(closed).toBe(false);
    expect(client.queue).toEqual({ waiting: 0, inFlight: 1, oldestWaitMs: 0, closed: true });

    answers[0]?.();
    expect(await inFlight).toMatchObject({ value: expect.any(Array) });
    await closing;
    expect(store.requests).toHaveLength(1);
  });

  it('refuses a call made after it at once, nothing sent', async () => {
    const { client, store } = setup();
    await client.close();
    const error = await client.listPets().catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(RefusedError);
    expect(error).toMatchObject({ sent: 'no' });
    expect(store.requests).toHaveLength(0);
    expect(client.queue.closed).toBe(true);
  });

  it('with abort: true aborts the request in flight, which may have been sent', async () => {
    startFakeClock();
    const { client, answers } = heldAnswers();
    const create = outcome(client.createPet({ name: 'Rex', categoryId: 1 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(answers).toHaveLength(1);
    await client.close({ abort: true });
    const { error } = (await create) as { error: Error };
    expect(error).toBeInstanceOf(RefusedError);
    expect(error).toMatchObject({ sent: 'maybe' });
    expect(error.message).toMatch(/The pet may exist: list pets and look for "Rex"/);
  });

  it('cuts a retry’s wait short, with what the last attempt got', async () => {
    startFakeClock();
    const { client, store } = setup({ maxRetries: 3 });
    store.injectFault({ status: 503, headers: { 'Retry-After': '30' }, times: 5 });
    const call = outcome(client.listPets());
    await vi.advanceTimersByTimeAsync(10);
    await client.close();
    const { error } = (await call) as { error: unknown };
    expect(error).toBeInstanceOf(RefusedError);
    expect(error).toMatchObject({ sent: 'yes' });
    expect(store.requests).toHaveLength(1);
  });

  it('is what await using does at the end of its scope', async () => {
    startFakeClock();
    let calls: Promise<unknown>[] = [];
    const held = heldAnswers();
    {
      await using client = held.client;
      calls = [outcome(client.listPets()), outcome(client.listPets())];
      await vi.advanceTimersByTimeAsync(0);
      held.answers[0]?.();
    }
    const [first, second] = (await Promise.all(calls)) as { value?: Pet[]; error?: unknown }[];
    expect(first?.value).toEqual(expect.any(Array));
    expect(second?.error).toBeInstanceOf(RefusedError);
    expect(held.client.queue.closed).toBe(true);
  });

  it('leaves no timer of the client behind: waits, bounds and retries all end', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
    const before = timers();
    // The window's budget spent at once (pacingBurst: 1), so that the calls after it wait for the reset.
    const { client, store } = setup(
      { callTimeout: 30_000, pacingBurst: 1 },
      { apiKeys: { [API_KEY]: PLAN } },
    );
    await Promise.all(Array.from({ length: 3 }, () => client.listPets()));
    store.injectFault({ status: 503, headers: { 'Retry-After': '20' } });
    const calls = Array.from({ length: 4 }, () => outcome(client.listPets()));
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The client holds one timer while its calls wait (the queue's), besides any of the runner's.
    expect(timers()).toBeGreaterThan(0);
    await client.close();
    await Promise.all(calls);
    expect(timers()).toBeLessThanOrEqual(before);
  });
});

describe('sent, on an aborted or timed-out create', () => {
  it('is maybe when the request was in flight, and the message says how to find out', async () => {
    startFakeClock();
    const { client, answers } = heldAnswers();
    const controller = new AbortController();
    const create = outcome(client.createPet({ name: 'Rex', categoryId: 1 }, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(0);
    controller.abort();
    const { error } = (await create) as { error: Error };
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(error).toMatchObject({ sent: 'maybe' });
    expect(error.message).toMatch(/The pet may exist: list pets and look for "Rex"/);
    expect(answers).toHaveLength(1);
  });

  it('is no when the create was aborted while it waited', async () => {
    startFakeClock();
    const { client, store, answers } = heldAnswers();
    const first = outcome(client.listPets());
    const controller = new AbortController();
    const create = outcome(client.createPet({ name: 'Rex', categoryId: 1 }, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(0);
    controller.abort();
    const { error } = (await create) as { error: Error };
    expect(error).toMatchObject({ name: 'APIUserAbortError', sent: 'no' });
    answers[0]?.();
    await first;
    expect(store.requests.map((request) => request.method)).toEqual(['GET']);
  });

  it('is maybe on a timeout, and the create is not sent again', async () => {
    startFakeClock();
    const { client, store } = setup({ timeout: 1_000, maxRetries: 3 });
    store.injectFault({ delay: 5_000, times: 5 });
    const { error } = await settle(client.createPet({ name: 'Rex', categoryId: 1 }), 100);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).toMatchObject({ sent: 'maybe' });
    expect((error as Error).message).toMatch(/look for "Rex"/);
    expect(store.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('is yes on an answer and no on a validation error', async () => {
    const { client } = setup();
    await expect(client.listPets({ limit: 500 })).rejects.toMatchObject({ sent: 'no' });
    await expect(client.getPet(9_999)).rejects.toMatchObject({ name: 'NotFoundError', sent: 'yes' });
  });
});
