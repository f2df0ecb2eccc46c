/**
 * A fleet: a fake Animal Store on loopback with a short rate-limit window, and workers (real OS
 * processes, or worker threads) that each have their own client. Everything started here is
 * recorded, so {@link stopEverything} can end it even when a test fails half-way.
 *
 * @module
 */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  createFakePetStore,
  type FakePetStore,
  type RunningFakeServer,
  samplePets,
} from '../../../src/testing/index.js';
import { freePort, type RedisCluster, startRedisCluster } from '../../support/redis-server.js';
import type { CallFailure, FleetWorkerConfig, StoreKind, ToParent, ToWorker } from './protocol.js';
import { type FleetRedis, startRedisServer } from './redis-server.js';

const WORKER_SCRIPT = fileURLToPath(new URL('./worker.ts', import.meta.url));
const SKEW_CLOCK = fileURLToPath(new URL('./skew-clock.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const READY_TIMEOUT_MS = 20_000;

/** The fleet's shared API key on the short-window plan. */
export const FLEET_KEY = 'fleet-key';

/** The plan of the fleet tests: a few requests per window of a few seconds. */
export interface FleetPlan {
  /** Requests per window. */
  readonly limit: number;
  /** The window's length in milliseconds. */
  readonly windowMs: number;
  /** Requests per day. Default: more than any run sends. */
  readonly perDay?: number;
  /** How many requests a limited key may send before it is banned. Default: the fake's, 10. */
  readonly maxRequestsWhileLimited?: number;
}

/** The plan of most fleet tests: 8 requests per 2 s window, so a few dozen calls take a few windows. */
export const SHORT_WINDOW_PLAN: FleetPlan = { limit: 8, windowMs: 2_000 };

/** The fake store of a fleet, serving HTTP on loopback. */
export interface FleetStore {
  readonly store: FakePetStore;
  readonly server: RunningFakeServer;
  readonly plan: FleetPlan;
}

/** What one `run` of a worker came to. */
export interface RunResult {
  readonly ok: number;
  readonly failures: readonly CallFailure[];
  readonly elapsedMs: number;
}

/** A running worker. */
export interface FleetWorker {
  readonly pid: number;
  /** `process` (a forked OS process) or `thread` (a worker thread of this process). */
  readonly kind: 'process' | 'thread';
  /** How far the worker's wall clock was ahead of this process's when it started (negative: behind). */
  readonly clockAheadMs: number;
  /** Every warning the worker's client logged so far. */
  readonly warnings: readonly string[];
  /** Runs `calls` calls, `concurrency` at a time, and resolves with how they ended. */
  run(options: { calls: number; concurrency: number; operation?: 'listPets' | 'getPet' }): Promise<RunResult>;
  /** Kills the process with a signal (a thread is terminated). */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Asks it to close its Redis connection and exit; kills it if it has not within 5 s. */
  close(): Promise<void>;
}

const running = new Set<{ stop(): Promise<void> }>();

/** Records something to stop in {@link stopEverything}, such as a redis-server. */
export function stopLater(stop: () => Promise<void>): void {
  running.add({ stop });
}

/** Ends every worker and server still running; for `afterEach`, so that failures clean up too. */
export async function stopEverything(): Promise<void> {
  const all = [...running];
  running.clear();
  await Promise.allSettled(all.map((item) => item.stop()));
}

/**
 * Starts a fake store on 127.0.0.1 whose keys (`FLEET_KEY` and any `extraKeys`) are on the plan, with
 * the default ban policy: more than 10 requests while limited bans the key for 10 minutes.
 */
export async function startFleetStore(
  plan: FleetPlan,
  extraKeys: readonly string[] = [],
): Promise<FleetStore> {
  const limits = { perMinute: plan.limit, perDay: plan.perDay ?? 1_000_000, window: plan.windowMs };
  const apiKeys = Object.fromEntries([FLEET_KEY, ...extraKeys].map((key) => [key, limits]));
  const store = createFakePetStore({
    apiKeys,
    pets: samplePets(5),
    ...(plan.maxRequestsWhileLimited !== undefined && {
      ban: { maxRequestsWhileLimited: plan.maxRequestsWhileLimited },
    }),
  });
  const server = await store.listen({ port: 0, hostname: '127.0.0.1' });
  running.add({ stop: () => server.close() });
  return { store, server, plan };
}

/** Starts a worker and resolves once its client is ready. */
export async function startWorker(
  config: FleetWorkerConfig,
  options: { thread?: boolean; clockSkewMs?: number } = {},
): Promise<FleetWorker> {
  const warnings: string[] = [];
  const pending = new Map<number, (result: RunResult) => void>();
  let nextId = 1;
  let readyResolve: (ready: { pid: number; clockAheadMs: number }) => void = () => {};
  const ready = new Promise<{ pid: number; clockAheadMs: number }>((resolve) => {
    readyResolve = resolve;
  });
  const onMessage = (message: ToParent) => {
    if (message.type === 'ready') readyResolve({ pid: message.pid, clockAheadMs: message.now - Date.now() });
    else if (message.type === 'warning') warnings.push(message.message);
    else if (message.type === 'ran') pending.get(message.id)?.(message);
  };

  let post: (message: ToWorker) => void;
  let exited: Promise<unknown>;
  let hardStop: () => void;
  let isAlive: () => boolean;
  if (options.thread === true) {
    const thread = new Worker(WORKER_SCRIPT, { workerData: config, env: process.env });
    thread.on('message', onMessage);
    let alive = true;
    exited = once(thread, 'exit').then(() => {
      alive = false;
    });
    post = (message) => thread.postMessage(message);
    hardStop = () => void thread.terminate();
    isAlive = () => alive;
  } else {
    const child: ChildProcess = fork(WORKER_SCRIPT, [], {
      cwd: REPO_ROOT,
      execPath: process.execPath,
      execArgv: options.clockSkewMs === undefined ? [] : ['--import', SKEW_CLOCK],
      env: {
        ...process.env,
        FLEET_WORKER_CONFIG: JSON.stringify(config),
        FLEET_CLOCK_SKEW_MS: String(options.clockSkewMs ?? 0),
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (message) => onMessage(message as ToParent));
    exited = once(child, 'exit');
    post = (message) => {
      if (child.connected) child.send(message);
    };
    hardStop = () => child.kill('SIGKILL');
    isAlive = () => child.exitCode === null && child.signalCode === null;
  }

  const stop = async () => {
    if (!isAlive()) return;
    hardStop();
    await exited;
  };
  const handle = { stop };
  running.add(handle);

  const failedToStart = exited.then(() => {
    throw new Error('A fleet worker exited before it was ready');
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('A fleet worker was not ready in time')), READY_TIMEOUT_MS);
  });
  const { pid, clockAheadMs } = await Promise.race([ready, failedToStart, timedOut]).finally(() =>
    clearTimeout(timer),
  );

  return {
    pid,
    clockAheadMs,
    kind: options.thread === true ? 'thread' : 'process',
    warnings,
    run: ({ calls, concurrency, operation = 'listPets' }) => {
      const id = nextId++;
      const result = new Promise<RunResult>((resolve, reject) => {
        pending.set(id, resolve);
        void exited.then(() => reject(new Error(`Fleet worker ${pid} exited during a run`)));
      });
      post({ type: 'run', id, operation, calls, concurrency });
      return result;
    },
    kill: async (signal = 'SIGKILL') => {
      if (!isAlive()) return;
      if (options.thread === true) hardStop();
      else process.kill(pid, signal);
      await exited;
      running.delete(handle);
    },
    close: async () => {
      if (!isAlive()) return;
      post({ type: 'close' });
      const timer = setTimeout(hardStop, 5_000);
      await exited;
      clearTimeout(timer);
      running.delete(handle);
    },
  };
}

/** Starts `count` workers with the same configuration, at once. */
export function startWorkers(
  count: number,
  config: FleetWorkerConfig,
  options: { clockSkewMs?: (index: number) => number | undefined } = {},
): Promise<FleetWorker[]> {
  return Promise.all(
    Array.from({ length: count }, (_, index) => {
      const clockSkewMs = options.clockSkewMs?.(index);
      const named = { ...config, name: `${config.name ?? 'worker'}-${index + 1}` };
      return startWorker(named, clockSkewMs === undefined ? {} : { clockSkewMs });
    }),
  );
}

/** Rejects when `promise` has not settled within `ms`: no fleet test waits without a bound. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves once `condition` holds, checking every 5 ms; rejects after `ms`. */
export async function waitUntil(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Waited ${ms} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A fleet's servers, and the configuration of its workers. */
export interface Fleet {
  /** The fleet's own redis-server; `undefined` when the workers pace each by itself or use a cluster. */
  readonly redis: FleetRedis | undefined;
  /** The fleet's own Redis Cluster, when it was asked for one. */
  readonly cluster: RedisCluster | undefined;
  readonly fake: FleetStore;
  /** A worker's configuration, on `apiKey` (default {@link FLEET_KEY}). */
  config(apiKey?: string): FleetWorkerConfig;
}

/** Where the fleet's Redis is: a redis-server of its own, a cluster of its own, or nowhere. */
export type FleetRedisKind = 'server' | 'cluster' | 'unreachable';

/**
 * Starts what a fleet needs: a redis-server (or a three-master cluster) of its own, unless `store` is
 * `'none'` or Redis is to be unreachable, and the fake store with `FLEET_KEY` and any `extraKeys` on
 * the plan. All of it stops in {@link stopEverything}.
 */
export async function startFleet(
  store: StoreKind,
  plan: FleetPlan,
  {
    extraKeys = [],
    storeOptions = {},
    timeoutMs = 2_000,
    redisKind = 'server',
  }: {
    extraKeys?: readonly string[];
    storeOptions?: FleetWorkerConfig['storeOptions'];
    timeoutMs?: number;
    redisKind?: FleetRedisKind;
  } = {},
): Promise<Fleet> {
  let redis: FleetRedis | undefined;
  let cluster: RedisCluster | undefined;
  let redisUrls: string[] = [];
  if (store !== 'none' && redisKind === 'server') {
    const started = await startRedisServer();
    stopLater(() => started.stop());
    redis = started;
    redisUrls = [started.url];
  } else if (store !== 'none' && redisKind === 'cluster') {
    const started = await startRedisCluster();
    stopLater(() => started.stop());
    cluster = started;
    redisUrls = started.nodes.map((node) => node.url);
  } else if (store !== 'none') {
    // Nothing listens there: every command waits for a connection that never comes.
    redisUrls = [`redis://127.0.0.1:${await freePort()}`];
  }
  const fake = await startFleetStore(plan, extraKeys);
  return {
    redis,
    cluster,
    fake,
    config: (apiKey = FLEET_KEY) => ({
      baseUrl: fake.server.url,
      apiKey,
      store,
      redisUrls,
      cluster: redisKind === 'cluster',
      connectInBackground: redisKind === 'unreachable',
      storeOptions,
      timeoutMs,
      maxRetries: 2,
    }),
  };
}

/** Has every worker run `calls` calls, `concurrency` at a time, at once; rejects after `limitMs`. */
export function runAll(
  workers: readonly FleetWorker[],
  run: { calls: number; concurrency: number },
  limitMs = 40_000,
): Promise<RunResult[]> {
  return within(Promise.all(workers.map((worker) => worker.run(run))), limitMs, 'the fleet run');
}

/** The fleet, with its workers' configuration on the fleet's key. */
export function withConfig(fleet: Fleet) {
  return { ...fleet, config: fleet.config() };
}

/** The same, for a test that needs the fleet's redis-server. */
export function withRedis(fleet: Fleet) {
  if (fleet.redis === undefined) throw new Error('The fleet has no redis-server');
  return { ...withConfig(fleet), redis: fleet.redis };
}
