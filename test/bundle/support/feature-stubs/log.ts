// Logging left out: warnings go straight to the logger, every other level nowhere.
export const LOG_LEVELS = ['off', 'error', 'warn', 'info', 'debug'] as const;
export const DEFAULT_LOG_LEVEL = 'warn';
export const isLogLevel = (value: unknown) => LOG_LEVELS.includes(value as never);
export class Log {
  readonly #logger: { warn(message: string): void };
  constructor(logger: { warn(message: string): void }) {
    this.#logger = logger;
  }
  enabled(): boolean {
    return false;
  }
  warn(message: string): void {
    this.#logger.warn(message);
  }
  error(): void {}
  info(): void {}
  debug(): void {}
}
