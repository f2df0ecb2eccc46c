/**
 * Probes: measurements that run in a fresh process of their own (run with `--expose-gc`), so that
 * what they read from the heap is theirs alone. A probe prints its result as the line
 * `result <json>`.
 *
 * @module
 */
import { createInterface } from 'node:readline';
import { spawnTsx } from './tsx-process.js';

const PREFIX = 'result ';

/** Prints a probe's result for {@link runProbe}. */
export function reportResult(result: unknown): void {
  process.stdout.write(`${PREFIX}${JSON.stringify(result)}\n`);
}

/** Runs a probe script and resolves with the result it printed. */
export async function runProbe<T>(script: URL, args: readonly string[]): Promise<T> {
  const child = spawnTsx(script.pathname, args, ['--expose-gc']);
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  child.stdin.end();
  let result: T | undefined;
  for await (const line of createInterface({ input: child.stdout })) {
    if (line.startsWith(PREFIX)) result = JSON.parse(line.slice(PREFIX.length)) as T;
    else if (line !== '') process.stderr.write(`${line}\n`);
  }
  const code = await exited;
  if (code !== 0 || result === undefined)
    throw new Error(`${script.pathname} ${args.join(' ')} failed (${code})`);
  return result;
}
