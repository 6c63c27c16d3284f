// The types the shared cache's files share, and the part of an ioredis client the plugin uses.

import type { Context } from 'koa';

/**
 * What the plugin calls on the host's Redis client: an `ioredis` instance fits as it is. The plugin
 * never loads a Redis library itself; the host creates and owns the client.
 */
export interface SharedCacheClient {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, mode: 'PX', milliseconds: number): Promise<unknown>;
  /** ioredis's connection state; anything but `ready` skips Redis at once instead of waiting. */
  readonly status?: string;
}

/** One response as kept in Redis: the versions of its tables when it was computed, its ETag and its body. */
export interface CachedAnswer {
  readonly stamp: string;
  readonly etag: string;
  readonly truncated: boolean;
  readonly body: string;
}

/** The resolved `cache` option (docs/configuration.md, Shared cache). */
export interface SharedCacheSettings {
  readonly redis: SharedCacheClient;
  readonly ttlSeconds: number;
  readonly cacheKey: ((ctx: Context) => string | undefined | Promise<string | undefined>) | undefined;
  readonly tables: readonly string[];
  readonly keyPrefix: string;
  readonly timeoutMs: number;
  readonly maxEntryBytes: number;
}
