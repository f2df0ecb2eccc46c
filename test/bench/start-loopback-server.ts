/**
 * The parent's side of the loopback server: starts `loopback-server.ts` and talks to it over stdio.
 *
 * @module
 */
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { spawnTsx } from './tsx-process.js';

const SCRIPT = new URL('./loopback-server.ts', import.meta.url).pathname;

/** A running loopback server. */
export interface LoopbackServer {
  /** The store's base URL, ending in `/v1`. */
  readonly url: string;
  /** Forgets the requests the store recorded (so its heap does not grow from one case to the next). */
  reset(): Promise<void>;
  /** The server process's heap after garbage collection, in bytes. */
  heapUsed(): Promise<number>;
  /** Stops the server and waits for its process to exit. */
  stop(): Promise<void>;
}

/**
 * Starts the fake store's HTTP server in a child process (run with `--expose-gc`), or another server
 * script that speaks the same protocol on stdio.
 */
export async function startLoopbackServer(script: string = SCRIPT): Promise<LoopbackServer> {
  const child = spawnTsx(script, [], ['--expose-gc']);
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();

  const nextLine = async (): Promise<string> => {
    const { value, done } = await lines.next();
    if (done) throw new Error('The loopback server exited unexpectedly');
    return value;
  };
  const expect = async (prefix: string): Promise<string> => {
    const line = await nextLine();
    if (!line.startsWith(prefix)) throw new Error(`The loopback server said "${line}", not "${prefix}..."`);
    return line.slice(prefix.length).trim();
  };
  const ask = (command: string, prefix: string): Promise<string> => {
    child.stdin.write(`${command}\n`);
    return expect(prefix);
  };

  const url = await expect('listening ').catch((error: unknown) => {
    child.kill();
    throw error;
  });
  return {
    url,
    reset: async () => {
      await ask('reset', 'ok');
    },
    heapUsed: async () => Number(await ask('heap', 'heap ')),
    stop: async () => {
      child.stdin.end();
      await exited;
    },
  };
}
