/**
 * Running the store's script on any Redis client it accepts, with a deadline.
 *
 * node-redis (`redis`) and ioredis send arbitrary commands differently, and node-redis's cluster
 * client differently again (it is told the key that picks the node); all of them answer a Lua table
 * as an array. The script goes by EVALSHA and, when Redis answers NOSCRIPT (after a restart, a
 * `SCRIPT FLUSH`, or on a cluster node that never ran it), by EVAL, which loads it there. The
 * clients' own script helpers are not used because each wants the script registered when the
 * client is created, and the store is handed a client that already exists.
 *
 * @module
 */
import type { LuaScript } from './scripts/lua-script.js';

/**
 * A connected node-redis client (`createClient()` from the `redis` package, version 6, or a pool
 * from `createClientPool()`), as the store uses it.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import type { NodeRedisClient } from 'animal-store-sdk/redis';
 *
 * const redis: NodeRedisClient = await createClient({ url: 'redis://127.0.0.1:6379' }).connect();
 * ```
 */
export interface NodeRedisClient {
  /** Sends one command with its arguments. */
  sendCommand(args: readonly string[]): Promise<unknown>;
}

/**
 * A connected node-redis cluster client (`createCluster()` from the `redis` package, version 6), as
 * the store uses it.
 *
 * @example
 * ```ts
 * import { createCluster } from 'redis';
 * import type { NodeRedisCluster } from 'animal-store-sdk/redis';
 *
 * const redis: NodeRedisCluster = await createCluster({
 *   rootNodes: [{ url: 'redis://10.0.0.1:6379' }, { url: 'redis://10.0.0.2:6379' }],
 * }).connect();
 * ```
 */
export interface NodeRedisCluster {
  /** Sends one command with its arguments to the node that holds `firstKey`. */
  sendCommand(
    firstKey: string | undefined,
    isReadonly: boolean | undefined,
    args: string[],
  ): Promise<unknown>;
  /** The master of a hash slot: how the store tells a cluster client from a single one. */
  getSlotMaster(slot: number): unknown;
}

/**
 * An ioredis client (`new Redis()` from the `ioredis` package, version 6, or an ioredis `Cluster`),
 * as the store uses it.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import type { IoRedisClient } from 'animal-store-sdk/redis';
 *
 * const redis: IoRedisClient = new Redis('redis://127.0.0.1:6379');
 * ```
 */
export interface IoRedisClient {
  /** Sends one command with its arguments. */
  call(command: string, ...args: string[]): Promise<unknown>;
}

/**
 * A Redis client of any kind the store accepts: node-redis's `createClient`, `createClientPool` or
 * `createCluster`, or ioredis's `Redis` or `Cluster`.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import type { RedisClient } from 'animal-store-sdk/redis';
 *
 * const redis: RedisClient = await createClient().connect();
 * ```
 */
export type RedisClient = NodeRedisClient | NodeRedisCluster | IoRedisClient;

/** What the store accepts, for the error that refuses anything else. */
export const ACCEPTED_CLIENTS =
  "a client of node-redis 6 (createClient, createClientPool or createCluster from 'redis') or of " +
  "ioredis 6 (new Redis or new Cluster from 'ioredis')";

/** Raised when Redis takes longer than the store's `commandTimeout` to answer. */
export class RedisTimeoutError extends Error {
  override readonly name = 'RedisTimeoutError';
}

/** Sends one command (its name first) about `key`, the key that picks a cluster's node. */
type Send = (args: readonly string[], key: string) => Promise<unknown>;

/**
 * How to send a command through `client`, or why the store cannot drive it: found out when the store
 * is created, so that a client it cannot use is refused then, not discovered call by call.
 */
export function commandSender(client: unknown): Send | string {
  if (typeof client !== 'object' || client === null) return `got ${client === null ? 'null' : typeof client}`;
  const candidate = client as Record<string, unknown>;
  if (typeof candidate.call === 'function') {
    const io = client as IoRedisClient;
    return ([command, ...args]) => io.call(command as string, ...args);
  }
  if (typeof candidate.sendCommand !== 'function')
    return 'got an object with neither call() nor sendCommand()';
  if (typeof candidate.getSlotMaster === 'function') {
    const cluster = client as NodeRedisCluster;
    return (args, key) => cluster.sendCommand(key, false, [...args]);
  }
  if (typeof candidate.getMasterNode === 'function') return "got node-redis's createSentinel client";
  if (client.constructor?.name === 'RedisLegacyClient') return "got node-redis's legacy-mode client";
  const single = client as NodeRedisClient;
  return (args) => single.sendCommand(args);
}

/** Runs a script on keys with arguments, resolving with Redis's reply. */
export type ScriptRunner = (
  script: LuaScript,
  keys: readonly string[],
  args: readonly string[],
) => Promise<unknown>;

export function scriptRunner(send: Send, timeoutMs: number): ScriptRunner {
  const command = async (args: readonly string[], key: string) => {
    const reply = send(args, key);
    // A callback-style client answers nothing: an error, so the store paces in the process instead.
    if (typeof (reply as Partial<PromiseLike<unknown>> | undefined)?.then !== 'function') {
      throw new TypeError(`The Redis client returned no promise; the store needs ${ACCEPTED_CLIENTS}.`);
    }
    return reply;
  };
  const evaluate = async (
    script: LuaScript,
    keys: readonly string[],
    args: readonly string[],
    late: () => boolean,
  ) => {
    const tail = [String(keys.length), ...keys, ...args];
    const key = keys[0] ?? '';
    try {
      return await command(['EVALSHA', script.sha, ...tail], key);
    } catch (error) {
      // Past the deadline the caller went on without this decision: running it now, out of
      // order with the ones since, would only undo them.
      if (!isNoScript(error) || late()) throw error;
      return command(['EVAL', script.source, ...tail], key);
    }
  };
  return (script, keys, args) => withDeadline((late) => evaluate(script, keys, args, late), timeoutMs);
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

/**
 * Rejects when the promise `start` makes takes longer than `ms`; `start` is told whether that
 * happened. The clients queue commands while disconnected and may send them much later, so without
 * a deadline a request would hang on a Redis outage.
 */
function withDeadline<T>(start: (late: () => boolean) => Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let turn: ReturnType<typeof setImmediate> | undefined;
  let passed = false;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Timers run before I/O in a turn of the event loop: after a pause of this process (a busy
      // machine), Redis's answer may be waiting unread. The rest of the turn reads it first.
      turn = setImmediate(() => {
        passed = true;
        reject(new RedisTimeoutError(`Redis did not answer within ${ms} ms.`));
      });
    }, ms);
  });
  return Promise.race([start(() => passed), deadline]).finally(() => {
    clearTimeout(timer);
    clearImmediate(turn);
  });
}
