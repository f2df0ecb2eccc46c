/**
 * The browser build's environment: a page has no environment variables, so every setting comes
 * from the client's options, and the log level defaults to `warn`.
 *
 * @module
 */
import { DEFAULT_LOG_LEVEL, type LogLevel } from './log.js';

/** No variable is set in a page. */
export const env = (_name: string): string | undefined => undefined;

/** The default level: there is no `PETSTORE_LOG` to read. */
export const logLevelFromEnv = (): LogLevel | { problem: string } => DEFAULT_LOG_LEVEL;
