/**
 * The tests' redis-server (test/support/redis-server.ts), plus one raw command for the faults a
 * fleet test causes: `SCRIPT FLUSH` (NOSCRIPT on the next EVALSHA) and a look at the keys.
 *
 * @module
 */
import { createConnection } from 'node:net';
import { type RedisServer, startRedisServer as startServer } from '../../support/redis-server.js';

/** A redis-server a fleet test controls. */
export interface FleetRedis extends RedisServer {
  /** Sends one command and resolves with the raw RESP reply, e.g. `+OK\r\n`. */
  command(...args: string[]): Promise<string>;
}

/** Sends one RESP command to 127.0.0.1:port and resolves with the first chunk of the reply. */
function sendCommand(port: number, args: readonly string[], timeoutMs = 2_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`redis-server on port ${port} did not answer ${args[0]} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.once('data', (data) => {
      clearTimeout(timer);
      socket.end();
      resolve(data.toString());
    });
    const encoded = args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('');
    socket.write(`*${args.length}\r\n${encoded}`);
  });
}

/** Starts redis-server on a free loopback port, empty and without persistence. */
export async function startRedisServer(): Promise<FleetRedis> {
  const server = await startServer();
  return Object.assign(server, { command: (...args: string[]) => sendCommand(server.port, args) });
}
