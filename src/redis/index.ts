export type { IoRedisClient, NodeRedisClient, RedisClient } from './connection.js';
export {
  type RedisRateLimitStoreOptions,
  type RedisStoreLogger,
  redisRateLimitStore,
} from './redis-store.js';
