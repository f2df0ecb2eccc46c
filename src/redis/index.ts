export type { IoRedisClient, NodeRedisClient, RedisClient } from './connection.js';
export { type RedisRateLimitStoreOptions, redisRateLimitStore } from './redis-store.js';
