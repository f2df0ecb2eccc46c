import { inspect } from 'node:util';
import { expect, type Mock, vi } from 'vitest';
import { API_KEY } from '../../client/setup.js';

const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;

/** Silences the console and records what is written to it, until the test restores its mocks. */
export function watchConsole(): void {
  for (const method of CONSOLE_METHODS) vi.spyOn(console, method).mockImplementation(() => {});
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : inspect(value, { depth: 10 });
}

/** Every line written to the console since {@link watchConsole}. */
export function consoleLines(): string[] {
  return CONSOLE_METHODS.flatMap((method) => {
    const spy = console[method];
    if (!vi.isMockFunction(spy)) throw new Error(`console.${method} is not watched; call watchConsole()`);
    return spy.mock.calls.map((args) => args.map(text).join(' '));
  });
}

/** The ways an error usually becomes text: its message, stack, String(), JSON and util.inspect. */
export function renderings(error: unknown): string[] {
  const { message, stack } = error instanceof Error ? error : { message: '', stack: '' };
  return [
    message,
    String(stack),
    String(error),
    String(JSON.stringify(error)),
    inspect(error, { depth: 10 }),
  ];
}

type LineSpy = Mock<(message: string) => void>;

/** A logger with a spy for every level, whose lines can be searched. */
export interface WatchedLogger {
  readonly error: LineSpy;
  readonly warn: LineSpy;
  readonly info: LineSpy;
  readonly debug: LineSpy;
}

/**
 * A logger that records every line at every level. Clients in the fault tests log at `debug`, where
 * every attempt, wait and failure is written, so that no line escapes {@link expectKeyHidden}.
 */
export function watchedLogger(): WatchedLogger {
  return { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() };
}

/** Every line the logger received, at any level. */
export function loggedLines(logger: WatchedLogger): string[] {
  return [logger.error, logger.warn, logger.info, logger.debug].flatMap((spy) =>
    spy.mock.calls.map((args) => args.map(text).join(' ')),
  );
}

/** The key as a reader would recognize it: as it is, percent-encoded, and JSON-escaped in either case. */
export function keyForms(key: string = API_KEY): string[] {
  const escaped = [...key].map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return [
    key,
    encodeURIComponent(key),
    escaped.join(''),
    escaped.join('').toUpperCase().replaceAll('\\U', '\\u'),
  ];
}

/**
 * Asserts that the API key, in any of its forms, shows up nowhere a user could see it: not in any
 * rendering of the error (when there is one), nor in any line sent to the logger, at any level, or
 * the console.
 */
export function expectKeyHidden(error: unknown, logger: WatchedLogger): void {
  const lines = [
    ...(error === undefined ? [] : renderings(error)),
    ...loggedLines(logger),
    ...consoleLines(),
  ];
  for (const line of lines) for (const form of keyForms()) expect(line).not.toContain(form);
}
