/**
 * The `animal-store-fake-server` command as the benchmarks run it: a real child process, with the
 * Node inspector open on loopback so that its heap can be read (after a garbage collection) from
 * outside, through the DevTools protocol, without any code in the server for it.
 *
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../src/testing/cli/cli.ts', import.meta.url));

/** The server process's memory. */
export interface ServerMemory {
  /** Resident set size, in bytes. */
  readonly rss: number;
  /** The V8 heap in use after a full garbage collection, in bytes. */
  readonly heapUsed: number;
}

/** A running command. */
export interface CliServer {
  /** Its base URL, ending in `/v1`. */
  readonly url: string;
  /** Its TCP port. */
  readonly port: number;
  /** Its process id. */
  readonly pid: number;
  /** Collects garbage in the server and reads its memory. */
  memory(): Promise<ServerMemory>;
  /** Whether the process is still running. */
  alive(): boolean;
  /** Stops it with SIGTERM and returns what it printed. */
  stop(): Promise<string>;
}

/** A minimal DevTools protocol client over the global WebSocket. */
class Inspector {
  readonly #socket: WebSocket;
  readonly #pending = new Map<number, (result: unknown) => void>();
  #next = 1;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
      if (message.id !== undefined) this.#pending.get(message.id)?.(message.result);
    });
  }

  static async connect(url: string): Promise<Inspector> {
    const socket = new WebSocket(url);
    await new Promise((resolve, reject) => {
      socket.addEventListener('open', resolve, { once: true });
      socket.addEventListener('error', reject, { once: true });
    });
    return new Inspector(socket);
  }

  send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.#next++;
    return new Promise((resolve) => {
      this.#pending.set(id, (result) => {
        this.#pending.delete(id);
        resolve(result as T);
      });
      this.#socket.send(JSON.stringify({ id, method, params }));
    });
  }

  close(): void {
    this.#socket.close();
  }
}

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kib ?? Number.NaN) * 1024;
}

/** Collects a child's output as it comes, and waits for a pattern in it. */
function collect(child: ChildProcess, stream: 'stdout' | 'stderr') {
  let text = '';
  const source = child[stream];
  if (source === null) throw new Error(`No ${stream}`);
  source.on('data', (chunk) => {
    text += String(chunk);
  });
  return {
    text: () => text,
    async waitFor(pattern: RegExp): Promise<RegExpExecArray> {
      for (;;) {
        const match = pattern.exec(text);
        if (match !== null) return match;
        if (child.exitCode !== null) throw new Error(`The server exited before printing ${pattern}: ${text}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

/** Starts `animal-store-fake-server` with `args` (a free port is added) and waits until it listens. */
export async function startCliServer(args: readonly string[]): Promise<CliServer> {
  const child = spawn(
    process.execPath,
    ['--inspect=127.0.0.1:0', '--import', 'tsx', CLI, '--port', '0', ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = once(child, 'exit');
  const stdout = collect(child, 'stdout');
  const stderr = collect(child, 'stderr');
  const [, inspectorUrl] = await stderr.waitFor(/Debugger listening on (ws:\/\/\S+)/);
  const [, url, port] = await stdout.waitFor(/listening on (http:\/\/127\.0\.0\.1:(\d+)\/v1)/);
  const inspector = await Inspector.connect(inspectorUrl ?? '');
  const pid = child.pid ?? 0;
  return {
    url: url ?? '',
    port: Number(port),
    pid,
    async memory() {
      await inspector.send('HeapProfiler.collectGarbage');
      const { usedSize } = await inspector.send<{ usedSize: number }>('Runtime.getHeapUsage');
      return { rss: await rssOf(pid), heapUsed: usedSize };
    },
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      inspector.close();
      child.kill('SIGTERM');
      await exited;
      return stdout.text();
    },
  };
}
