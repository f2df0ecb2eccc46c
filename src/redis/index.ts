export type { IoRedisClient, NodeRedisClient, NodeRedisCluster, RedisClient } from './connection.js';
export { type RedisRateLimitStoreOptions, redisRateLimitStore } from './redis-store.js';
