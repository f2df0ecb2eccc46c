/**
 * Both Redis clients the store supports, connected to a test server or a test cluster, so each
 * Redis test runs against node-redis and ioredis alike.
 *
 * @module
 */
import { Cluster, Redis } from 'ioredis';
import { createClient, createCluster } from 'redis';
import type { RedisClient } from '../../../src/redis/index.js';
import type { RedisServer } from '../../support/redis-server.js';

/** A connected client and how to close it. */
export interface ConnectedClient {
  readonly client: RedisClient;
  /** Sends a raw command, for inspecting what the store wrote. */
  command(...args: string[]): Promise<unknown>;
  close(): Promise<void>;
}

export type ClientKind = 'node-redis' | 'ioredis';
export const CLIENT_KINDS: readonly ClientKind[] = ['node-redis', 'ioredis'];

export async function connect(kind: ClientKind, url: string): Promise<ConnectedClient> {
  if (kind === 'node-redis') {
    // Reconnect quickly after the server comes back, as the fault tests stop and start it.
    const client = createClient({ url, socket: { reconnectStrategy: () => 50 } });
    client.on('error', () => {});
    await client.connect();
    return {
      client,
      command: (...args) => client.sendCommand(args),
      close: async () => {
        client.destroy();
      },
    };
  }
  const client = new Redis(url, { retryStrategy: () => 50, maxRetriesPerRequest: null });
  client.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    client.once('ready', resolve);
    client.once('end', () => reject(new Error('ioredis could not connect')));
  });
  return {
    client,
    command: (name, ...args) => client.call(name as string, ...args),
    close: async () => {
      client.disconnect();
    },
  };
}

/** A cluster client of `kind` on the nodes: node-redis's `createCluster` or ioredis's `Cluster`. */
export async function connectCluster(
  kind: ClientKind,
  nodes: readonly RedisServer[],
): Promise<ConnectedClient> {
  if (kind === 'node-redis') {
    const client = createCluster({
      rootNodes: nodes.map((node) => ({ url: node.url })),
      defaults: { socket: { reconnectStrategy: () => 50 } },
    });
    client.on('error', () => {});
    await client.connect();
    return {
      client,
      command: (...args) => client.sendCommand(undefined, false, args),
      close: async () => {
        client.destroy();
      },
    };
  }
  const client = new Cluster(
    nodes.map((node) => ({ host: '127.0.0.1', port: node.port })),
    { clusterRetryStrategy: () => 50 },
  );
  client.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    client.once('ready', resolve);
    client.once('end', () => reject(new Error('ioredis could not connect to the cluster')));
  });
  return {
    client,
    command: (name, ...args) => client.call(name as string, ...args),
    close: async () => {
      client.disconnect();
    },
  };
}
