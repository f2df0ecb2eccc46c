/**
 * The tests' redis-server (test/support/redis-server.ts), plus one raw command for the faults a
 * fleet test causes: `SCRIPT FLUSH` (NOSCRIPT on the next EVALSHA) and a look at the keys.
 *
 * @module
 */
import { type RedisServer, rawCommand, startRedisServer as startServer } from '../../support/redis-server.js';

/** A redis-server a fleet test controls. */
export interface FleetRedis extends RedisServer {
  /** Sends one command and resolves with the raw RESP reply, e.g. `+OK\r\n`. */
  command(...args: string[]): Promise<string>;
}

/** Starts redis-server on a free loopback port, empty and without persistence. */
export async function startRedisServer(): Promise<FleetRedis> {
  const server = await startServer();
  return Object.assign(server, { command: (...args: string[]) => rawCommand(server.port, args) });
}
