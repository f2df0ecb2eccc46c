/**
 * A real process with calls queued against the fake's HTTP server closes its client and exits by
 * itself at once, rather than when its queue would have drained (a minute on): nothing of the SDK
 * (a timer, a socket) keeps it alive.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFakePetStore } from '../../src/testing/index.js';
import { ensurePackageBuilt, PACKAGE_ROOT } from '../support/package-build.js';
import type { ClosingClientConfig } from './support/closing-client.js';

const SCRIPT = fileURLToPath(new URL('./support/closing-client.ts', import.meta.url));
const KEY = 'closing-client-key';
/** The queued calls would wait a minute for the window; a busy machine starts Node well within this. */
const EXIT_WITHIN_MS = 30_000;

const store = createFakePetStore({ apiKeys: { [KEY]: { perMinute: 3, perDay: 1_000 } } });
let server: { url: string; close: () => Promise<void> };
beforeAll(async () => {
  [server] = await Promise.all([store.listen({ port: 0, hostname: '127.0.0.1' }), ensurePackageBuilt()]);
}, 120_000);
afterAll(() => server?.close());

it('exits by itself once close() resolves, its queued calls refused and never sent', {
  timeout: EXIT_WITHIN_MS + 5_000,
}, async () => {
  const config: ClosingClientConfig = { baseUrl: server.url, apiKey: KEY, limit: 3, queued: 20 };
  const child = spawn(process.execPath, [SCRIPT], {
    cwd: PACKAGE_ROOT,
    env: { ...process.env, CLOSING_CLIENT: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += String(chunk);
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_WITHIN_MS);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  expect(signal, `still running ${EXIT_WITHIN_MS} ms on; output: ${output}`).toBeNull();
  expect(code).toBe(0);
  expect(output).toMatch(/^waiting 20\n20 closed\nexit \d+ ms after close\(\)\n$/);
  expect(store.requests).toHaveLength(3);
});
