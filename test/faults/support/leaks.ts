import { inspect } from 'node:util';
import { expect, vi } from 'vitest';
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

/** A logger whose lines can be searched. */
export interface WatchedLogger {
  readonly warn: { readonly mock: { readonly calls: ReadonlyArray<readonly unknown[]> } };
}

/**
 * Asserts that the API key shows up nowhere a user could see it: not in any rendering of the
 * error (when there is one), nor in a line sent to the logger or the console.
 */
export function expectKeyHidden(error: unknown, logger: WatchedLogger): void {
  const lines = [
    ...(error === undefined ? [] : renderings(error)),
    ...logger.warn.mock.calls.map((args) => args.map(text).join(' ')),
    ...consoleLines(),
  ];
  for (const line of lines) expect(line).not.toContain(API_KEY);
}
