// The cache every instance of a mount shares through Redis (docs/scaling.md, "A cache every instance
// shares"). An answer is kept with the versions of the tables it read, taken before its statements
// ran; it is served only when one statement, on the server the request reads from, finds the same
// versions and both change triggers on every one of those tables. Anything failing means "not from
// the cache", never an error.

import * as crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Context } from 'koa';
import type { QueryModifiersLogger } from '../logger';
import type { Catalog, CollectionCatalog } from '../schema';
import { COMPACT_SQL, VERSIONS_SQL } from './change-sql';
import { AnswerStore } from './store';
import { allTablesRead, resolveTables, tablesRead } from './tables';
import type { CachedAnswer, SharedCacheSettings } from './types';
import { regclassName } from '../schema';

/** How often each instance folds the versions table's rows (a few rows per table since the last time). */
const COMPACT_EVERY_MS = 10_000;

/** How often a failing versions read or Redis is logged, at most. */
const LOG_EVERY_MS = 60_000;

function warn(logger: QueryModifiersLogger, message: string, error?: unknown): void {
  const args: [string, unknown?] = error === undefined ? [message] : [message, error];
  if (logger.warn !== undefined) logger.warn(...args);
  else logger.error(...args);
}

export class SharedCache {
  private readonly store: AnswerStore;
  private timer: NodeJS.Timeout | undefined;
  private lastLogged = Number.NEGATIVE_INFINITY;

  private constructor(
    private readonly settings: SharedCacheSettings,
    private readonly primary: Knex,
    private readonly logger: QueryModifiersLogger,
    /** Collection name -> the oids of the tables it reads; absent: never cached (a view, a missing table). */
    private readonly watched: ReadonlyMap<string, readonly string[]>,
    /** Whether answers may depend on who asks with no cacheKey to tell callers apart: then nothing is kept. */
    private readonly callerBlind: boolean,
    private readonly fingerprint: string,
  ) {
    this.store = new AnswerStore(settings.redis, settings.timeoutMs, settings.ttlSeconds * 1000, (error) =>
      this.logRarely('koa-query-modifiers: Redis is not answering; answers are computed without the shared cache for now', error),
    );
  }

  /**
   * Resolves every table the collections read and says at start-up what will not be cached and why.
   * `fingerprint` names what the answers are made from (the declarations), so a deploy that changes
   * them never serves answers of the previous one.
   */
  static async create(
    knex: Knex,
    catalog: Catalog,
    settings: SharedCacheSettings,
    hooks: { readonly scoped: boolean },
    logger: QueryModifiersLogger,
    fingerprint: string,
  ): Promise<SharedCache> {
    const names = allTablesRead(catalog, settings.tables);
    const resolved = await resolveTables(knex, names);
    const watched = new Map<string, readonly string[]>();
    for (const collection of catalog.values()) {
      const tables = tablesRead(collection, settings.tables).map((table) => resolved.get(regclassName(table)));
      const unwatchable = tables.filter((table) => table?.relid === undefined || !table.watchable);
      if (unwatchable.length === 0)
        watched.set(
          collection.name,
          tables.map((table) => table?.relid as string),
        );
      else {
        const list = unwatchable.map((table) => table?.name ?? '?').join(', ');
        warn(
          logger,
          `koa-query-modifiers: ${collection.name} is not kept in the shared cache: ${list} is not an ordinary table that change triggers can watch`,
        );
      }
    }
    const callerBlind = hooks.scoped && settings.cacheKey === undefined;
    if (callerBlind) {
      warn(
        logger,
        'koa-query-modifiers: the shared cache keeps nothing: the scope or scopeModel hook makes answers depend on who asks, ' +
          'and there is no cache.cacheKey to tell callers apart (docs/configuration.md, cache)',
      );
    }
    const cache = new SharedCache(settings, knex, logger, watched, callerBlind, fingerprint);
    await cache.warnAboutTriggers();
    return cache;
  }

  /** Folds the versions table now and then on the primary; the timer never keeps the process alive. */
  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => void this.compact(), COMPACT_EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  async compact(): Promise<void> {
    try {
      await this.primary.raw(COMPACT_SQL);
    } catch (error) {
      this.logRarely('koa-query-modifiers: could not compact the shared cache versions table', error);
    }
  }

  /** Whether `collection`'s answers can be kept at all (its tables are watchable). */
  covers(collection: CollectionCatalog): boolean {
    return this.watched.has(collection.name);
  }

  /**
   * The Redis key of this request's answer, or undefined when it must not be kept: a collection the
   * triggers cannot watch, hooks without `cacheKey`, or `cacheKey` returning undefined.
   */
  async keyFor(ctx: Context, collection: CollectionCatalog, path: string, queryString: string): Promise<string | undefined> {
    if (this.callerBlind || !this.covers(collection)) return undefined;
    const caller = this.settings.cacheKey === undefined ? '' : await this.settings.cacheKey(ctx);
    if (caller === undefined) return undefined;
    const digest = crypto
      .createHash('sha256')
      .update([this.fingerprint, collection.name, path, queryString, caller].join('\u0000'))
      .digest('base64url');
    return `${this.settings.keyPrefix}${collection.name}:${digest}`;
  }

  /**
   * The versions of every table `collection` reads, on `knex`'s server, as one text (`4.0.17`); undefined
   * when a trigger is missing or disabled, or the read fails: then nothing may be served or kept.
   */
  async stamp(knex: Knex, collection: string): Promise<string | undefined> {
    const relids = this.watched.get(collection);
    if (relids === undefined) return undefined;
    try {
      const result = await knex.raw<{ rows: { triggers: number; version: string }[] }>(VERSIONS_SQL, [[...relids]]);
      if (result.rows.length !== relids.length || result.rows.some((row) => row.triggers !== 2)) return undefined;
      return result.rows.map((row) => row.version).join('.');
    } catch (error) {
      this.logRarely('koa-query-modifiers: could not read the table versions; answering without the shared cache', error);
      return undefined;
    }
  }

  get(key: string): Promise<CachedAnswer | undefined> {
    return this.store.get(key);
  }

  /** Keeps an answer unless it is larger than `cache.maxEntryBytes`. */
  async keep(key: string, answer: CachedAnswer): Promise<void> {
    if (Buffer.byteLength(answer.body) > this.settings.maxEntryBytes) return;
    await this.store.set(key, answer);
  }

  private async warnAboutTriggers(): Promise<void> {
    const missing: string[] = [];
    for (const name of this.watched.keys()) if ((await this.stamp(this.primary, name)) === undefined) missing.push(name);
    if (missing.length === 0) return;
    warn(
      this.logger,
      `koa-query-modifiers: ${missing.join(', ')} will not be served from the shared cache until the change triggers are installed ` +
        '(router.installChangeTriggers(), or the SQL of `npx koa-query-modifiers triggers` in a migration)',
    );
  }

  private logRarely(message: string, error: unknown): void {
    const now = performance.now();
    if (now - this.lastLogged < LOG_EVERY_MS) return;
    this.lastLogged = now;
    warn(this.logger, message, error);
  }
}
