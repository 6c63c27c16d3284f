// The demo server's shared cache: with REDIS_URL set, an ioredis client for the plugin's `cache`
// option (docs/scaling.md, "A cache every instance shares"), answers kept CACHE_TTL_SECONDS (default 60).

import { Redis } from 'ioredis';
import type { QueryModifiersOptions } from '../plugin';

/**
 * `{ REDIS_URL: 'redis://127.0.0.1:6379' }` -> the `cache` option and the client to close at shutdown;
 * undefined without REDIS_URL. Throws on a CACHE_TTL_SECONDS that is not a positive number.
 */
export function sharedCacheFromEnv(env: {
  readonly REDIS_URL?: string | undefined;
  readonly CACHE_TTL_SECONDS?: string | undefined;
}): { readonly cache: NonNullable<QueryModifiersOptions['cache']>; readonly close: () => void } | undefined {
  const url = env.REDIS_URL;
  if (url === undefined || url === '') return undefined;
  const ttlSeconds = env.CACHE_TTL_SECONDS === undefined || env.CACHE_TTL_SECONDS === '' ? 60 : Number(env.CACHE_TTL_SECONDS);
  if (!Number.isFinite(ttlSeconds) || ttlSeconds <= 0) throw new Error('CACHE_TTL_SECONDS must be a positive number of seconds');
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  // The plugin answers without the cache while Redis is away; ioredis reconnects by itself.
  redis.on('error', () => undefined);
  return { cache: { redis, ttlSeconds }, close: () => redis.disconnect() };
}
