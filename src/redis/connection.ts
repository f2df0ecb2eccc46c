/**
 * Running the store's scripts on either Redis client, with a deadline.
 *
 * node-redis (`redis`) and ioredis send arbitrary commands differently; both answer a Lua table as
 * an array. Scripts go by EVALSHA and, when Redis answers NOSCRIPT (after a restart or a
 * `SCRIPT FLUSH`), by EVAL, which loads them again. The clients' own script helpers are not used
 * because each wants the script registered when the client is created, and the store is handed a
 * client that already exists.
 *
 * @module
 */
import type { LuaScript } from './scripts/lua-script.js';

/**
 * A connected node-redis client (`createClient()` from the `redis` package, version 6), as the
 * store uses it.
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
 * A Redis client of either kind the store accepts.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import type { RedisClient } from 'animal-store-sdk/redis';
 *
 * const redis: RedisClient = await createClient().connect();
 * ```
 */
export type RedisClient = NodeRedisClient | IoRedisClient;

/** Raised when Redis takes longer than the store's `commandTimeoutMs` to answer. */
export class RedisTimeoutError extends Error {
  override readonly name = 'RedisTimeoutError';
}

/** Runs a script on keys with arguments, resolving with Redis's reply. */
export type ScriptRunner = (
  script: LuaScript,
  keys: readonly string[],
  args: readonly string[],
) => Promise<unknown>;

export function scriptRunner(client: RedisClient, timeoutMs: number): ScriptRunner {
  const send =
    'call' in client && typeof client.call === 'function'
      ? ([command, ...args]: readonly string[]) => client.call(command as string, ...args)
      : (args: readonly string[]) => (client as NodeRedisClient).sendCommand(args);
  const evaluate = async (script: LuaScript, keys: readonly string[], args: readonly string[]) => {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await send(['EVALSHA', script.sha, ...tail]);
    } catch (error) {
      if (!isNoScript(error)) throw error;
      return send(['EVAL', script.source, ...tail]);
    }
  };
  return (script, keys, args) => withDeadline(evaluate(script, keys, args), timeoutMs);
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

/**
 * Rejects when `promise` takes longer than `ms`. Both clients queue commands while disconnected
 * and may send them much later, so without a deadline a request would hang on a Redis outage.
 */
function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisTimeoutError(`Redis did not answer within ${ms} ms.`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

export function isRedisClient(value: unknown): value is RedisClient {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<'call' | 'sendCommand', unknown>>;
  return typeof candidate.call === 'function' || typeof candidate.sendCommand === 'function';
}
