/**
 * The client's log: which levels reach the `logger`.
 *
 * @module
 */

/**
 * Where the client sends its log lines: `console` by default, or any object with a `warn` method.
 * `error`, `info` and `debug` are optional: a line for a level the logger lacks goes to `warn`.
 *
 * @example
 * ```ts
 * import { PetStoreClient, type Logger } from 'animal-store-sdk';
 *
 * const warnings: string[] = [];
 * const logger: Logger = { warn: (message) => warnings.push(message) };
 * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1', logger });
 * ```
 */
export interface Logger {
  /** Receives a warning, and the lines of any level this logger lacks. */
  warn(message: string): void;
  /** Receives an error line. */
  error?(message: string): void;
  /** Receives a retry or a wait. */
  info?(message: string): void;
  /** Receives an attempt, with its status and duration. */
  debug?(message: string): void;
}

/**
 * How much the client logs, from nothing (`'off'`) to every attempt (`'debug'`). Each level
 * includes the ones before it: `'warn'` also logs errors.
 *
 * @inline
 */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

export const LOG_LEVELS = ['off', 'error', 'warn', 'info', 'debug'] as const satisfies readonly LogLevel[];

export const DEFAULT_LOG_LEVEL: LogLevel = 'warn';

/** A line, or a function that builds it: called only when the line's level is logged. */
export type Line = string | (() => string);

/**
 * The client's log: lines below the level are dropped before they are built. Lines are not redacted
 * here, where the SDK's words and the key could not be told apart, but where what they quote comes in.
 */
export class Log {
  declare readonly error: (message: Line) => void;
  declare readonly warn: (message: Line) => void;
  declare readonly info: (message: Line) => void;
  declare readonly debug: (message: Line) => void;

  constructor(logger: Logger, level: LogLevel) {
    const rank = LOG_LEVELS.indexOf(level);
    for (const [index, name] of LOG_LEVELS.entries()) {
      if (name === 'off') continue;
      (this as Record<string, unknown>)[name] = (message: Line) => {
        if (index > rank) return;
        (logger[name] ?? logger.warn).call(logger, typeof message === 'string' ? message : message());
      };
    }
  }
}
