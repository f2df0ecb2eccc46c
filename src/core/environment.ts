/**
 * The client's settings from environment variables, where the runtime has them.
 *
 * @module
 */
import { DEFAULT_LOG_LEVEL, LOG_LEVELS, type LogLevel } from './log.js';

/** An environment variable where the runtime has them (a page has none); an empty one counts as unset. */
export function env(name: string): string | undefined {
  return globalThis.process?.env?.[name] || undefined;
}

/** The level `PETSTORE_LOG` names (`warn` without it), or why it names none. */
export function logLevelFromEnv(): LogLevel | { problem: string } {
  const fromEnv = env('PETSTORE_LOG') ?? DEFAULT_LOG_LEVEL;
  const level = fromEnv.trim().toLowerCase();
  if ((LOG_LEVELS as readonly string[]).includes(level)) return level as LogLevel;
  return { problem: `PETSTORE_LOG must be one of ${LOG_LEVELS.join(', ')}, got "${fromEnv}"` };
}
