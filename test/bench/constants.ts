/** The API key the benchmarks' fake stores accept, with limits no benchmark reaches. */
export const BENCH_API_KEY = 'bench-key';

/** Limits high enough that no benchmark is ever rate limited. */
export const UNREACHABLE_LIMITS = { perMinute: 10_000_000, perDay: 10_000_000_000 } as const;
