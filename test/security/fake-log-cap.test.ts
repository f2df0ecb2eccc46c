/**
 * Any page can send the command requests without a key (a no-cors text/plain POST needs no
 * preflight): they must not grow it beyond its documented log cap, nor may any mix of requests grow
 * the log beyond --max-log-bytes. Against the command as it ships.
 */
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { DEFAULT_CLI_MAX_LOG_BYTES } from '../../src/testing/cli/cli-args.js';
import { PROCESS_TEST_TIMEOUT_MS, run, waitForUrl } from '../support/cli-process.js';
import { ensurePackageBuilt } from '../support/package-build.js';

const KEY = 'sk_live_log_cap_0123456789';
const MiB = 1024 * 1024;
const ONE_MIB_BODY = 'x'.repeat(MiB);

beforeAll(() => ensurePackageBuilt(), 120_000);

/**
 * The heap the command runs in: what a fresh one uses (well under 32 MiB) plus the log's cap. Garbage
 * is collected before the heap may grow past it, so a command that kept more would fail, where its
 * resident memory alone would say more about when the collector last ran than about what is kept.
 */
const HEAP_MIB = 32 + DEFAULT_CLI_MAX_LOG_BYTES / MiB;

/** Sends `count` requests made by `send`, a few at a time. */
async function sendMany(count: number, send: (index: number) => Promise<Response>): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const response = await send(next++);
      await response.arrayBuffer();
      statuses.push(response.status);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return statuses;
}

/** The log as `GET /__fake/requests` serves it, in bytes. */
async function logBytes(baseUrl: string): Promise<number> {
  const answer = await fetch(`${baseUrl.replace(/\/v1$/, '/__fake')}/requests`);
  return (await answer.arrayBuffer()).byteLength;
}

describe('the command’s request log', () => {
  it(
    '300 unauthenticated 1 MiB POSTs grow the command by no more than its documented log cap',
    async (context: TestContext) => {
      const cli = run(['--port', '0', '--key', KEY], context, {
        ...process.env,
        NODE_OPTIONS: `--max-old-space-size=${HEAP_MIB}`,
      });
      const baseUrl = await waitForUrl(cli);

      const statuses = await sendMany(300, () =>
        fetch(`${baseUrl}/pets`, {
          method: 'POST',
          headers: { 'Content-Type': 'text/plain' },
          body: ONE_MIB_BODY,
        }),
      );
      expect(new Set(statuses)).toEqual(new Set([401]));

      // Every one is in the log, each with 1 KiB of its body, and the command still serves.
      expect(await logBytes(baseUrl)).toBeLessThan(300 * 4 * 1024);
      expect((await fetch(`${baseUrl}/pets`, { headers: { Authorization: `Bearer ${KEY}` } })).status).toBe(
        200,
      );
      expect(cli.child.exitCode).toBeNull();
    },
    PROCESS_TEST_TIMEOUT_MS * 4,
  );

  it(
    'stays within --max-log-bytes for a mix of large bodies with and without the key',
    async (context: TestContext) => {
      const cap = 2 * MiB;
      const cli = run(['--port', '0', '--key', KEY, '--max-log-bytes', String(cap)], context);
      const baseUrl = await waitForUrl(cli);
      expect(cli.stdout()).toContain(`within ${cap} bytes`);
      await sendMany(24, (index) =>
        fetch(`${baseUrl}/pets`, {
          method: 'POST',
          headers: {
            'Content-Type': 'text/plain',
            ...(index % 2 === 0 ? { Authorization: `Bearer ${KEY}` } : {}),
          },
          body: ONE_MIB_BODY,
        }),
      );
      expect(await logBytes(baseUrl)).toBeLessThanOrEqual(cap * 1.05);
    },
    PROCESS_TEST_TIMEOUT_MS * 2,
  );
});
