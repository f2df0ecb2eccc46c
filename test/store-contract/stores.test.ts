/**
 * Every rate-limit store the package ships meets the same contract: the in-process store, the Redis
 * store on both clients (on one redis-server and on a Redis Cluster), and {@link withFallback} both
 * while its store answers and while it fails.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { redisRateLimitStore } from '../../src/redis/index.js';
import { createInProcessRateLimitStore, type RateLimitStore, withFallback } from '../../src/store/index.js';
import { CLIENT_KINDS, type ConnectedClient, connect, connectCluster } from '../redis/support/clients.js';
import {
  type RedisCluster,
  type RedisServer,
  startRedisCluster,
  startRedisServer,
} from '../support/redis-server.js';
import { describeStoreContract } from './contract.js';

const silent = { warn: () => {}, info: () => {} };

/** A store whose backend is always away. */
const unreachable: RateLimitStore = {
  acquire: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')),
  release: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')),
};

describeStoreContract('createInProcessRateLimitStore', () => createInProcessRateLimitStore());

describeStoreContract('withFallback over a store that answers', () =>
  withFallback(createInProcessRateLimitStore(), { logger: silent }),
);

// While it fails, the wrapper paces alone: on the whole budget here (share 1), as one process would.
describeStoreContract('withFallback over a store that fails', () =>
  withFallback(unreachable, { share: 1, logger: silent }),
);

let server: RedisServer;
let cluster: RedisCluster;
const connections: ConnectedClient[] = [];
beforeAll(async () => {
  [server, cluster] = await Promise.all([startRedisServer(), startRedisCluster()]);
}, 60_000);
afterEach(async () => {
  for (const connection of connections.splice(0)) await connection.close();
});
afterAll(() => Promise.all([server?.stop(), cluster?.stop()]));

for (const kind of CLIENT_KINDS) {
  describeStoreContract(`redisRateLimitStore on ${kind}`, async () => {
    const connection = await connect(kind, server.url);
    connections.push(connection);
    return redisRateLimitStore(connection.client, { logger: silent });
  });
}

for (const kind of CLIENT_KINDS) {
  describeStoreContract(`redisRateLimitStore on a Redis Cluster through ${kind}`, async () => {
    const connection = await connectCluster(kind, cluster.nodes);
    connections.push(connection);
    return redisRateLimitStore(connection.client, { logger: silent });
  });
}
