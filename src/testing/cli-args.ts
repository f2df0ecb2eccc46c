/**
 * The command line of `animal-store-fake-server`: its options, their checks and its help text.
 *
 * @module
 */
import { parseArgs } from 'node:util';
import { DEFAULT_API_KEY } from './fake-store.js';
import { DEFAULT_WINDOW_MS, PLAN_LIMITS, type PlanName, type RateLimits } from './rate-limiter.js';

/**
 * The command's name, as installed by the package's `bin`.
 *
 * @example
 * ```ts
 * import { COMMAND } from './cli-args.js';
 *
 * console.log(`Run ${COMMAND} --help`);
 * ```
 */
export const COMMAND = 'animal-store-fake-server';

/**
 * The port the command listens on by default.
 *
 * @example
 * ```ts
 * import { DEFAULT_CLI_PORT } from './cli-args.js';
 *
 * DEFAULT_CLI_PORT; // 4010
 * ```
 */
export const DEFAULT_CLI_PORT = 4010;

const PLAN_NAMES = Object.keys(PLAN_LIMITS) as PlanName[];
const MAX_SEED = 100_000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The help text.
 *
 * @example
 * ```ts
 * import { USAGE } from './cli-args.js';
 *
 * process.stdout.write(USAGE);
 * ```
 */
export const USAGE = `Usage: ${COMMAND} [options]

Starts a fake Animal Store on an HTTP server, for manual testing and for tools that are not written in
JavaScript. It behaves as animal-store-sdk/testing documents: API key, rate limits, validation,
deprecation headers, CORS.

Options:
  -p, --port <port>  TCP port to listen on, 0 for any free port (default ${DEFAULT_CLI_PORT})
      --host <host>  address to listen on (default 127.0.0.1, loopback only)
      --key <key>    the API key to accept (default ${DEFAULT_API_KEY})
      --plan <plan>  the key's plan: ${PLAN_NAMES.join(', ')} (default free)
      --limit <n>    requests per window instead of the plan's per-minute figure
      --window-ms <ms>
                     the length of that window in milliseconds, 1 to ${DAY_MS} (default ${DEFAULT_WINDOW_MS});
                     e.g. --limit 10 --window-ms 3000 for 10 requests per 3 s
      --seed <n>     start with n sample pets, 0 to ${MAX_SEED} (default 0)
  -h, --help         show this help

Stop it with Ctrl-C.
`;

/**
 * What the command line asks for.
 *
 * @example
 * ```ts
 * import type { CliCommand } from './cli-args.js';
 *
 * const command: CliCommand = {
 *   kind: 'serve',
 *   port: 4010,
 *   host: '127.0.0.1',
 *   key: 'k',
 *   plan: 'free',
 *   limits: { perMinute: 60, perDay: 1_000 },
 *   seed: 0,
 * };
 * ```
 */
export type CliCommand =
  | { readonly kind: 'help' }
  | {
      readonly kind: 'serve';
      readonly port: number;
      readonly host: string;
      readonly key: string;
      /** The named plan asked for. */
      readonly plan: PlanName;
      /** The key's limits: the plan's, with `--limit` and `--window-ms` applied. */
      readonly limits: RateLimits;
      readonly seed: number;
    };

/**
 * A command line the command cannot run: it exits with code 2 and the message.
 *
 * @example
 * ```ts
 * import { CliUsageError } from './cli-args.js';
 *
 * throw new CliUsageError('--port must be an integer from 0 to 65535, got "http"');
 * ```
 */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

/**
 * Reads the command line (the arguments after the command's name).
 *
 * @throws CliUsageError for an unknown option, a missing or invalid value, or a positional argument.
 *
 * @example
 * ```ts
 * import { parseCliArgs } from './cli-args.js';
 *
 * parseCliArgs(['--port', '8080', '--seed', '5', '--limit', '10', '--window-ms', '3000']);
 * // { kind: 'serve', port: 8080, host: '127.0.0.1', key: 'test-api-key', plan: 'free',
 * //   limits: { perMinute: 10, perDay: 1000, windowMs: 3000 }, seed: 5 }
 * ```
 */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  let values: {
    port?: string;
    host?: string;
    key?: string;
    plan?: string;
    limit?: string;
    'window-ms'?: string;
    seed?: string;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string', short: 'p' },
        host: { type: 'string' },
        key: { type: 'string' },
        plan: { type: 'string' },
        limit: { type: 'string' },
        'window-ms': { type: 'string' },
        seed: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new CliUsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help === true) return { kind: 'help' };

  const port = integerOption('--port', values.port ?? String(DEFAULT_CLI_PORT), 0, 65_535);
  const seed = integerOption('--seed', values.seed ?? '0', 0, MAX_SEED);
  const host = values.host ?? '127.0.0.1';
  if (host.trim() === '') throw new CliUsageError('--host must not be empty');
  const key = values.key ?? DEFAULT_API_KEY;
  if (!/^\S+$/.test(key)) throw new CliUsageError(`--key must be non-empty without spaces, got "${key}"`);
  const plan = values.plan ?? 'free';
  if (!isPlanName(plan)) {
    throw new CliUsageError(`--plan must be one of ${PLAN_NAMES.join(', ')}, got "${plan}"`);
  }
  const limits: RateLimits = {
    perMinute:
      values.limit === undefined
        ? PLAN_LIMITS[plan].perMinute
        : integerOption('--limit', values.limit, 1, Number.MAX_SAFE_INTEGER),
    perDay: PLAN_LIMITS[plan].perDay,
    ...(values['window-ms'] === undefined
      ? {}
      : { windowMs: integerOption('--window-ms', values['window-ms'], 1, DAY_MS) }),
  };
  return { kind: 'serve', port, host, key, plan, limits, seed };
}

function integerOption(name: string, value: string, min: number, max: number): number {
  const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
    throw new CliUsageError(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
  }
  return parsed;
}

function isPlanName(value: string): value is PlanName {
  return (PLAN_NAMES as string[]).includes(value);
}
