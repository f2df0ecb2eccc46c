/**
 * Deprecation warnings, the SDK's own and those the service announces with `Deprecation` (RFC 9745)
 * and `Sunset` (RFC 8594): once per process and operation, so a loop does not flood the log.
 *
 * @module
 */
import type { Logger } from './log.js';

const warned = new Set<string>();

/**
 * Warns through `logger` unless `operation` was warned about already; nothing when `message` gives
 * none. The message is built only until then: a call after the warning pays for no text.
 */
export function warnOnce(
  logger: Pick<Logger, 'warn'>,
  operation: string,
  message: () => string | undefined,
): void {
  if (warned.has(operation)) return;
  const text = message();
  if (text === undefined) return;
  warned.add(operation);
  logger.warn(text);
}

/**
 * The warning for a response that announces its operation's deprecation, or `undefined` when
 * the response announces none. The service's header values come in through `redact`.
 */
export function deprecationNotice(
  operation: string,
  headers: Headers,
  redact: (text: string) => string,
): string | undefined {
  if (!headers.has('Deprecation') && !headers.has('Sunset')) return undefined;
  const parts = [`animal-store-sdk: the service deprecates ${operation}`];
  for (const name of ['Deprecation', 'Sunset', 'Link']) {
    const value = headers.get(name);
    if (value !== null) parts.push(`${name}: ${redact(value)}`);
  }
  return `${parts.join('; ')}.`;
}
