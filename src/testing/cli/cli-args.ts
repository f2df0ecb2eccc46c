/**
 * The command line of `animal-store-fake-server`: its options, their checks and its help text.
 *
 * @module
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { closestName } from '../../shared/closest-name.js';
import { checkTrustedOrigins } from '../control/control-guard.js';
import { upstreamOf } from '../recording/upstream.js';
import { isKey } from '../rules/auth.js';
import { checkCorsHeaders } from '../rules/cors.js';
import {
  DAY_MS,
  DEFAULT_WINDOW_MS,
  limitsOf,
  PLAN_LIMITS,
  type Plan,
  type PlanName,
} from '../rules/rate-limiter.js';
import { DEFAULT_MAX_BODY_BYTES } from '../rules/request-body.js';
import { DEFAULT_API_KEY } from '../store/fake-store.js';
import type { RecordedRequest } from '../store/request-log.js';
import { type ControlOptions, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS } from '../store/store-core.js';

/**
 * The command's name, as installed by the package's `bin`.
 */
export const COMMAND = 'animal-store-fake-server';

/**
 * The port the command listens on by default.
 */
export const DEFAULT_CLI_PORT = 4010;

const PLAN_NAMES = Object.keys(PLAN_LIMITS) as PlanName[];
const MAX_SEED = 100_000;

/**
 * How many requests the command keeps in its request log, by default: a long-running server must not
 * grow without bound, so beyond this the oldest are dropped.
 */
export const DEFAULT_CLI_MAX_RECORDED_REQUESTS = 10_000;

/**
 * How many bytes of requests the command keeps in its request log, by default (64 MiB): the oldest
 * are dropped beyond it. Counted as the characters of each request's URL, headers and body and of its
 * answer's headers and body; a request that failed authentication counts its first 1 KiB of body only.
 */
export const DEFAULT_CLI_MAX_LOG_BYTES = 64 * 1024 * 1024;

/** The same in record mode (1 GiB), where the log is the recording and answers are kept whole. */
export const DEFAULT_RECORD_MAX_LOG_BYTES = 1024 ** 3;

const MAX_BODY_LIMIT = 1024 ** 3;
const MAX_TIMEOUT_MS = 3_600_000;

/**
 * The environment variable the command reads the control token from when `--control-token` is not
 * given: unlike an argument, it does not show in the process list.
 */
export const CONTROL_TOKEN_VARIABLE = 'PETSTORE_FAKE_CONTROL_TOKEN';

/**
 * The help text.
 */
export const USAGE = `Usage: ${COMMAND} [options]

Starts a fake Animal Store on an HTTP server, for manual testing and for tools that are not written in
JavaScript. It behaves as animal-store-sdk/testing documents: API key, rate limits, validation,
deprecation headers, CORS.

Options:
  -p, --port <port>  TCP port to listen on, 0 for any free port (default ${DEFAULT_CLI_PORT})
      --host <host>  address to listen on (default 127.0.0.1, loopback only)
      --key <key>    the API key to accept (default ${DEFAULT_API_KEY})
      --proxy-key <key>
                     serve a request without an Authorization header with this key, as a
                     backend route that adds the key would (the --key's plan if it is that
                     key, else free); a wrong key is still a 401 (default: no key is a 401)
      --plan <plan>  the key's plan: ${PLAN_NAMES.join(', ')}, or custom limits as
                     <per minute>/<per day>, e.g. 100000/100000000 (default free)
      --limit <n>    requests per window instead of the plan's per-minute figure
      --window <ms>  the length of that window in milliseconds, 1 to ${DAY_MS} (default ${DEFAULT_WINDOW_MS});
                     e.g. --limit 10 --window 3000 for 10 requests per 3 s
      --seed <n>     start with n sample pets, 0 to ${MAX_SEED} (default 0)
      --max-body <bytes>
                     the largest request body read; larger ones get 413 (default ${DEFAULT_MAX_BODY_BYTES})
      --max-log <n>  requests kept in the request log, the oldest dropped first
                     (default ${DEFAULT_CLI_MAX_RECORDED_REQUESTS})
      --max-log-bytes <bytes>
                     bytes of requests and answers kept in the request log, the oldest
                     dropped first; a request that failed authentication keeps 1 KiB of its
                     body (default ${DEFAULT_CLI_MAX_LOG_BYTES}; ${DEFAULT_RECORD_MAX_LOG_BYTES} in record mode)
      --request-timeout <ms>
                     time a client has to send a whole request; then 408 (default 30000)
      --control-token <token>
                     require "Authorization: Bearer <token>" on the control API (/__fake/),
                     and turn it on beyond loopback; default: $${CONTROL_TOKEN_VARIABLE}
      --no-control   turn the control API off (it is on by default on loopback only)
      --trusted-origins <origins>
                     let pages from these comma-separated origins drive the control API
                     from a browser, e.g. http://localhost:5173 (default: none; every other
                     Origin is refused 403, and no control answer allows any origin)
      --max-sessions <n>
                     sessions kept at once, 0 to 10000 (default ${DEFAULT_MAX_SESSIONS})
      --session-idle-timeout <ms>
                     a session without requests for this long ends (default ${DEFAULT_SESSION_IDLE_MS})
      --chaos-seed <n> --chaos-rate <r>
                     reproducible chaos: a share r (0 to 1) of the requests gets a random
                     fault, drawn from seed n (0 to 4294967295); both are needed
      --cors-headers <names>
                     act like a strict service: CORS preflights allow, and answers expose, only
                     these comma-separated headers, e.g. Authorization,Content-Type to hide
                     Retry-After and X-RateLimit-* from pages (default: allow what a page asks,
                     expose every header the SDK reads)
      --record <file> --upstream <url>
                     record mode: forward every request under /v1 to the deployment at <url>
                     (a base URL ending in /v1) and, when stopped, write what was sent and
                     answered to <file> as HAR 1.2 (mode 0600), every API key, token and
                     cookie value redacted
      --keep-cookies with --record: keep the values of Cookie and Set-Cookie headers
      --replay <file>
                     answer from a HAR recording: each request gets the answer recorded for
                     the same method, path, query, body, Content-Type and presence of
                     Authorization, in order; any other gets 501 not_recorded naming the
                     nearest recorded request
  -h, --help         show this help

Stop it with Ctrl-C.
`;

/**
 * What the command line asks for.
 */
export type CliCommand =
  | { readonly kind: 'help' }
  | {
      readonly kind: 'serve';
      readonly port: number;
      readonly host: string;
      readonly key: string;
      /** The key a request without `Authorization` is served with, when asked. */
      readonly proxyKey?: string;
      readonly plan: Plan;
      readonly seed: number;
      readonly maxBodyBytes: number;
      readonly maxRecordedRequests: number;
      /** The request log's cap in bytes. */
      readonly maxLogBytes: number;
      readonly requestTimeout: number;
      /** The control API's options, or `false` when it is turned off. */
      readonly control: ControlOptions | false;
      /** Chaos from the start, when asked. */
      readonly chaos: { readonly seed: number; readonly rate: number } | undefined;
      /** A strict service's CORS headers; absent for the default, open CORS. */
      readonly corsHeaders?: readonly string[];
      /** Record mode: where to forward, and the file the HAR goes to. */
      readonly record?: { readonly file: string; readonly upstream: string; readonly keepCookies: boolean };
      /** The HAR file to answer from. */
      readonly replay?: string;
    };

/**
 * A command line the command cannot run: it exits with code 2 and the message.
 */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

/** The command's options, as `parseArgs` reads them. */
const CLI_OPTIONS = {
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  key: { type: 'string' },
  'proxy-key': { type: 'string' },
  plan: { type: 'string' },
  limit: { type: 'string' },
  window: { type: 'string' },
  seed: { type: 'string' },
  'max-body': { type: 'string' },
  'max-log': { type: 'string' },
  'max-log-bytes': { type: 'string' },
  'request-timeout': { type: 'string' },
  'control-token': { type: 'string' },
  'no-control': { type: 'boolean' },
  'trusted-origins': { type: 'string' },
  'max-sessions': { type: 'string' },
  'session-idle-timeout': { type: 'string' },
  'chaos-seed': { type: 'string' },
  'chaos-rate': { type: 'string' },
  'cors-headers': { type: 'string' },
  record: { type: 'string' },
  upstream: { type: 'string' },
  'keep-cookies': { type: 'boolean' },
  replay: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

/**
 * Reads the command line (the arguments after the command's name), and the control token from `env`
 * when the command line gives none.
 *
 * @throws CliUsageError for an unknown option, a missing or invalid value, or a positional argument.
 */
export function parseCliArgs(argv: readonly string[], env: NodeJS.ProcessEnv = {}): CliCommand {
  let values: {
    port?: string;
    host?: string;
    key?: string;
    'proxy-key'?: string;
    plan?: string;
    limit?: string;
    window?: string;
    seed?: string;
    'max-body'?: string;
    'max-log'?: string;
    'max-log-bytes'?: string;
    'request-timeout'?: string;
    'control-token'?: string;
    'no-control'?: boolean;
    'trusted-origins'?: string;
    'max-sessions'?: string;
    'session-idle-timeout'?: string;
    'chaos-seed'?: string;
    'chaos-rate'?: string;
    'cors-headers'?: string;
    record?: string;
    upstream?: string;
    'keep-cookies'?: boolean;
    replay?: string;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: CLI_OPTIONS,
    }));
  } catch (error) {
    throw new CliUsageError(
      unknownOptionHint(error) ?? (error instanceof Error ? error.message : String(error)),
    );
  }
  if (values.help === true) return { kind: 'help' };

  const port = integerOption('--port', values.port ?? String(DEFAULT_CLI_PORT), 0, 65_535);
  const seed = integerOption('--seed', values.seed ?? '0', 0, MAX_SEED);
  const host = values.host ?? '127.0.0.1';
  if (host.trim() === '') throw new CliUsageError('--host must not be empty');
  const key = values.key ?? DEFAULT_API_KEY;
  if (!isKey(key)) throw new CliUsageError(`--key must be non-empty without spaces, got "${key}"`);
  const proxyKey = values['proxy-key'];
  if (proxyKey !== undefined && !isKey(proxyKey)) {
    throw new CliUsageError('--proxy-key must be non-empty without spaces');
  }
  const plan = withWindow(planOption(values.plan ?? 'free'), values.limit, values.window);
  const maxBodyBytes = integerOption(
    '--max-body',
    values['max-body'] ?? String(DEFAULT_MAX_BODY_BYTES),
    0,
    MAX_BODY_LIMIT,
  );
  const maxRecordedRequests = integerOption(
    '--max-log',
    values['max-log'] ?? String(DEFAULT_CLI_MAX_RECORDED_REQUESTS),
    0,
    Number.MAX_SAFE_INTEGER,
  );
  const requestTimeout = integerOption(
    '--request-timeout',
    values['request-timeout'] ?? '30000',
    1,
    MAX_TIMEOUT_MS,
  );
  const corsHeaders = corsHeadersOption(values['cors-headers']);
  const record = recordOption(values.record, values.upstream, values.replay, values['keep-cookies'] === true);
  const maxLogBytes = integerOption(
    '--max-log-bytes',
    values['max-log-bytes'] ??
      String(record === undefined ? DEFAULT_CLI_MAX_LOG_BYTES : DEFAULT_RECORD_MAX_LOG_BYTES),
    0,
    Number.MAX_SAFE_INTEGER,
  );
  if (values.replay === '') throw new CliUsageError('--replay needs a file name');
  return {
    kind: 'serve',
    port,
    host,
    key,
    ...(proxyKey === undefined ? {} : { proxyKey }),
    plan,
    seed,
    maxBodyBytes,
    maxRecordedRequests,
    maxLogBytes,
    requestTimeout,
    control: controlOption(values, env[CONTROL_TOKEN_VARIABLE]),
    chaos: chaosOption(values['chaos-seed'], values['chaos-rate']),
    ...(corsHeaders === undefined ? {} : { corsHeaders }),
    ...(record === undefined ? {} : { record }),
    ...(values.replay === undefined ? {} : { replay: values.replay }),
  };
}

/** `--record FILE --upstream URL`: both or neither, and not with `--replay`. */
function recordOption(
  file: string | undefined,
  upstream: string | undefined,
  replay: string | undefined,
  keepCookies: boolean,
): { readonly file: string; readonly upstream: string; readonly keepCookies: boolean } | undefined {
  if (file === undefined && upstream === undefined) {
    if (keepCookies) throw new CliUsageError('--keep-cookies goes with --record');
    return undefined;
  }
  if (file === undefined || upstream === undefined) {
    throw new CliUsageError('--record and --upstream go together: give both');
  }
  if (replay !== undefined) throw new CliUsageError('--record and --replay contradict each other');
  if (file === '') throw new CliUsageError('--record needs a file name');
  try {
    return { file, upstream: upstreamOf(upstream).href, keepCookies };
  } catch (error) {
    throw new CliUsageError(`--upstream: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function controlOption(
  values: {
    'control-token'?: string;
    'no-control'?: boolean;
    'trusted-origins'?: string;
    'max-sessions'?: string;
    'session-idle-timeout'?: string;
  },
  tokenFromEnv: string | undefined,
): ControlOptions | false {
  const token = values['control-token'] ?? (tokenFromEnv === '' ? undefined : tokenFromEnv);
  if (values['no-control'] === true) {
    for (const option of ['control-token', 'trusted-origins'] as const) {
      if (values[option] !== undefined) {
        throw new CliUsageError(`--no-control and --${option} contradict each other`);
      }
    }
    return false;
  }
  const trustedOrigins = trustedOriginsOption(values['trusted-origins']);
  // The token's value is never repeated in a message: it is a secret.
  if (token !== undefined && !/^[\x21-\x7e]+$/.test(token)) {
    throw new CliUsageError('--control-token must be printable ASCII without spaces');
  }
  const maxSessions = values['max-sessions'];
  const idle = values['session-idle-timeout'];
  return {
    ...(token === undefined ? {} : { token }),
    ...(trustedOrigins === undefined ? {} : { trustedOrigins }),
    ...(maxSessions === undefined
      ? {}
      : { maxSessions: integerOption('--max-sessions', maxSessions, 0, 10_000) }),
    ...(idle === undefined
      ? {}
      : { sessionIdleTimeout: integerOption('--session-idle-timeout', idle, 1, Number.MAX_SAFE_INTEGER) }),
  };
}

function chaosOption(
  seed: string | undefined,
  rate: string | undefined,
): { readonly seed: number; readonly rate: number } | undefined {
  if (seed === undefined && rate === undefined) return undefined;
  if (seed === undefined || rate === undefined) {
    throw new CliUsageError('--chaos-seed and --chaos-rate go together: give both');
  }
  if (!/^(0|1|0?\.\d+|[01]\.\d*)$/.test(rate) || Number(rate) > 1) {
    throw new CliUsageError(`--chaos-rate must be a number from 0 to 1, got "${rate}"`);
  }
  return { seed: integerOption('--chaos-seed', seed, 0, 0xffff_ffff), rate: Number(rate) };
}

/** `--cors-headers`: header names, comma-separated; the check of each name is the server's own. */
function corsHeadersOption(value: string | undefined): readonly string[] | undefined {
  if (value === undefined) return undefined;
  const names = value.split(',').map((name) => name.trim());
  try {
    return checkCorsHeaders(names.filter((name) => name !== ''));
  } catch (error) {
    throw new CliUsageError(`--cors-headers: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** `--trusted-origins`: origins, comma-separated; the check of each is the server's own. */
function trustedOriginsOption(value: string | undefined): readonly string[] | undefined {
  if (value === undefined) return undefined;
  const origins = value.split(',').map((origin) => origin.trim());
  try {
    return checkTrustedOrigins(origins.filter((origin) => origin !== ''));
  } catch (error) {
    throw new CliUsageError(`--trusted-origins: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function integerOption(name: string, value: string, min: number, max: number): number {
  const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
    throw new CliUsageError(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
  }
  return parsed;
}

function planOption(value: string): Plan {
  if (isPlanName(value)) return value;
  const custom = /^(\d+)\/(\d+)$/.exec(value);
  if (custom !== null) {
    const perMinute = integerOption('--plan (per minute)', custom[1] ?? '', 1, Number.MAX_SAFE_INTEGER);
    const perDay = integerOption('--plan (per day)', custom[2] ?? '', 1, Number.MAX_SAFE_INTEGER);
    return { perMinute, perDay };
  }
  throw new CliUsageError(
    `--plan must be one of ${PLAN_NAMES.join(', ')}, or <per minute>/<per day>, got "${value}"`,
  );
}

/** The plan with `--limit` and `--window` applied: custom limits when either is given. */
function withWindow(plan: Plan, limit: string | undefined, windowMs: string | undefined): Plan {
  if (limit === undefined && windowMs === undefined) return plan;
  const limits = limitsOf(plan);
  return {
    perMinute:
      limit === undefined ? limits.perMinute : integerOption('--limit', limit, 1, Number.MAX_SAFE_INTEGER),
    perDay: limits.perDay,
    ...(windowMs === undefined ? {} : { window: integerOption('--window', windowMs, 1, DAY_MS) }),
  };
}

function isPlanName(value: string): value is PlanName {
  return (PLAN_NAMES as string[]).includes(value);
}

/**
 * The line the command writes to stderr when the fake fails while answering a request (which it
 * answers 500 `internal_error`): the request, without its headers (they hold the key), and the stack.
 */
export function internalErrorReport(
  error: unknown,
  request: Pick<RecordedRequest, 'method' | 'url'>,
): string {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return `${COMMAND}: internal error answering ${request.method} ${request.url} (500 internal_error): ${detail}\n`;
}

/** For an unknown option, a message naming the known one it most likely meant: `unknown option --prot; did you mean --port?`. */
function unknownOptionHint(error: unknown): string | undefined {
  if ((error as { code?: unknown } | null)?.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return undefined;
  const given = /'(-{1,2}[^'=]+)/.exec((error as Error).message)?.[1];
  const close = given && closestName(given.replace(/^-+/, ''), Object.keys(CLI_OPTIONS));
  return close ? `unknown option ${given}; did you mean --${close}?` : undefined;
}
