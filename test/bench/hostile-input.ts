/**
 * The bad-input table: each malformed or hostile request sent over a raw TCP connection to the
 * `animal-store-fake-server` command, with what it answered, whether it still serves a normal
 * request afterwards, and its memory before and after.
 *
 * @module
 */
import { connect } from 'node:net';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';
import { head, rawExchange } from '../testing/support/raw-socket.js';
import { startCliServer } from './cli-server.js';

/** One row of the table. */
export interface HostileRow {
  readonly input: string;
  /** `413 payload_too_large`, or `closed` when the server closed without answering. */
  readonly answer: string;
  /** Whether a normal `GET /pets` succeeded right after. */
  readonly stillServing: boolean;
  readonly heapBefore: number;
  readonly heapAfter: number;
  readonly rssBefore: number;
  readonly rssAfter: number;
  /** For a body streamed without end: how many bytes the server let the client write before closing. */
  readonly bytesWritten?: number;
}

const AUTH = `Authorization: Bearer ${DEFAULT_API_KEY}`;

const post = (lines: string[]) =>
  head(['POST /v1/pets HTTP/1.1', 'Host: 127.0.0.1', AUTH, 'Content-Type: application/json', ...lines]);

/**
 * Streams up to `total` bytes of body after `start`, as fast as the connection takes them, and
 * stops when the server closes it. Resolves with the first answer and the bytes written.
 */
function stream(port: number, start: string, total: number): Promise<{ answer: string; written: number }> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let written = 0;
    let received = '';
    let closed = false;
    const finish = () => {
      if (closed) return;
      closed = true;
      socket.destroy();
      resolve({ answer: received, written });
    };
    socket.on('data', (data) => {
      received += data.toString('latin1');
    });
    socket.on('close', finish);
    socket.on('error', finish);
    socket.on('connect', () => {
      socket.write(start);
      const pump = () => {
        while (!closed && written < total) {
          written += chunk.length;
          if (!socket.write(chunk)) {
            socket.once('drain', pump);
            return;
          }
        }
        if (written >= total) socket.end();
      };
      pump();
    });
  });
}

function describeAnswer(text: string, closed: boolean): string {
  const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
  if (status === undefined) return closed ? 'closed' : 'no answer';
  const code = /"code":"([a-z_]+)"/.exec(text)?.[1];
  return `${status} ${code ?? '(no Error body)'}`;
}

async function normalRequestSucceeds(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/pets`, { headers: { Authorization: `Bearer ${DEFAULT_API_KEY}` } });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/** The inputs: a name, and how to send it (resolving with the answer, and for streams the bytes). */
function inputs(port: number) {
  const exchange = async (talk: Parameters<typeof rawExchange>[1], waitMs?: number) => {
    const result = await rawExchange(port, talk, waitMs);
    return { answer: describeAnswer(result.text, result.closedByServer) };
  };
  const badUtf8 = Buffer.concat([
    Buffer.from('{"name":"'),
    Buffer.from([0xc3, 0x28, 0xff, 0xfe]),
    Buffer.from('","categoryId":1}'),
  ]);
  const nested = `${'['.repeat(500_000)}${']'.repeat(500_000)}`;
  return [
    {
      input: '200 MB body, Content-Length announced, streamed',
      run: async () => {
        const { answer, written } = await stream(
          port,
          post([`Content-Length: ${200 * 1024 ** 2}`]),
          200 * 1024 ** 2,
        );
        return { answer: describeAnswer(answer, true), bytesWritten: written };
      },
    },
    {
      input: '200 MB body, chunked (no Content-Length), streamed',
      run: async () => {
        const chunkHead = (size: number) => `${size.toString(16)}\r\n`;
        // One huge chunk: its size line announces it, the bytes follow as fast as they are taken.
        const { answer, written } = await stream(
          port,
          post(['Transfer-Encoding: chunked']) + chunkHead(200 * 1024 ** 2),
          200 * 1024 ** 2,
        );
        return { answer: describeAnswer(answer, true), bytesWritten: written };
      },
    },
    {
      input: 'invalid UTF-8 in a JSON body',
      run: () =>
        exchange((write) => {
          write(post([`Content-Length: ${badUtf8.length}`, 'Connection: close']));
          write(badUtf8);
        }),
    },
    {
      input: 'JSON nested 500,000 deep (1 MB)',
      run: () =>
        exchange((write) => {
          write(post([`Content-Length: ${nested.length}`, 'Connection: close']));
          write(nested);
        }),
    },
    {
      input: '64 KiB header',
      run: () =>
        exchange((write) => {
          write(
            head(['GET /v1/pets HTTP/1.1', 'Host: 127.0.0.1', AUTH, `X-Padding: ${'a'.repeat(64 * 1024)}`]),
          );
        }),
    },
    {
      input: '12 KB URL',
      run: () =>
        exchange((write) => {
          write(head([`GET /v1/pets?q=${'a'.repeat(12_000)} HTTP/1.1`, 'Host: 127.0.0.1', AUTH]));
        }),
    },
    {
      input: 'garbage bytes (a TLS ClientHello)',
      run: () =>
        exchange((write) => {
          write(Buffer.from('16030100a5010000a10303', 'hex'));
          write(Buffer.alloc(160, 0x2a));
        }),
    },
    {
      input: 'half a body, then silence',
      run: () =>
        exchange((write) => {
          write(post(['Content-Length: 1000']));
          write('{"name":"Re');
        }, 10_000),
    },
  ];
}

/** Starts the command and sends each input, reading the server's memory around each. */
export async function runHostileInputs(): Promise<HostileRow[]> {
  const server = await startCliServer(['--plan', 'enterprise', '--request-timeout', '2000']);
  const rows: HostileRow[] = [];
  try {
    // A first normal request, so the server's lazily loaded code is in the "before" figure.
    await normalRequestSucceeds(server.url);
    for (const { input, run } of inputs(server.port)) {
      const before = await server.memory();
      const outcome: { answer: string; bytesWritten?: number } = await run();
      const stillServing = server.alive() && (await normalRequestSucceeds(server.url));
      const after = await server.memory();
      rows.push({
        input,
        answer: outcome.answer,
        stillServing,
        heapBefore: before.heapUsed,
        heapAfter: after.heapUsed,
        rssBefore: before.rss,
        rssAfter: after.rss,
        ...(outcome.bytesWritten !== undefined && { bytesWritten: outcome.bytesWritten }),
      });
    }
  } finally {
    await server.stop();
  }
  return rows;
}
