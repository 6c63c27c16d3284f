// The plugin's entry point: checks the options, builds the catalog once, and returns an @koa/router
// Router serving `GET <prefix>/<collection>` for every collection and `GET <prefix>/openapi.json`.

import cors from '@koa/cors';
import type Router from '@koa/router';
import { registerAdminRoutes } from './admin/routes';
import { indexAdvice, warnAboutIndexes, type IndexAdviceReport } from './advice';
import { cachingFor } from './cache-headers';
import { authorize, collectionRoute, createCaches, guarded, mayListCollections, renderFault, renderJson } from './middleware';
import { MountedRouter } from './mount';
import { buildOpenApiDocument } from './openapi';
import { resolveOptions, type QueryModifiersLogger, type QueryModifiersOptions } from './options';
import { ReplicaSet, replicaLog, type ReplicaStatus } from './replicas';
import { buildCatalog } from './schema';
import { allTablesRead, changeTriggersScript, SharedCache } from './shared-cache';
import * as crypto from 'node:crypto';

/** The router, and what a host may ask of the plugin's background work. */
export type QueryModifiersRouter = Router & {
  /** The replicas as last checked (empty without replicas), e.g. for the host's readiness probe. */
  replicas(): readonly ReplicaStatus[];
  /** Stops the background replica checks (their timer never keeps the process alive anyway). */
  close(): void;
  /** The indexes the declarations need and the database lacks, read now (docs/installing.md#10-indexes-for-your-declarations). */
  indexAdvice(): Promise<IndexAdviceReport>;
  /**
   * The SQL that creates the versions table and puts the change triggers on every table the
   * collections read (and `cache.tables`), for a migration (docs/scaling.md, "A cache every instance shares").
   */
  changeTriggersSql(): string;
  /** Runs changeTriggersSql() on the primary (`knex`); running it again changes nothing. */
  installChangeTriggers(): Promise<void>;
};

/** Told at start-up, once per mount, when cursors are sealed with a key only this process has. */
const EPHEMERAL_CURSORS =
  'koa-query-modifiers: no cursorSecret is set, so cursors are sealed with a random key of this process: ' +
  'they will not survive a restart or work on another instance (docs/configuration.md, cursorSecret)';

/** Told at start-up when the database has no pg_trgm (docs/query-language.md, "Ranked search: match and similar"). */
const SIMILAR_OFF =
  'koa-query-modifiers: similar[...] is off: the database has no pg_trgm extension on the search path ' +
  '(create extension pg_trgm to turn it on)';

function warnOnce(logger: QueryModifiersLogger): void {
  if (logger.warn === undefined) logger.error(EPHEMERAL_CURSORS);
  else logger.warn(EPHEMERAL_CURSORS);
}

/**
 * `await queryModifiers({knex, collections: {users: User}})` -> a Router answering
 * `GET /api/users?filter[id]=>=5&sort[name]=desc&per-page=10`.
 */
export async function queryModifiers(options: QueryModifiersOptions): Promise<QueryModifiersRouter> {
  const resolved = resolveOptions(options);
  if (resolved.cursorSeal.ephemeral) warnOnce(resolved.logger);
  const catalog = await buildCatalog(resolved.knex, resolved.collections, resolved.search);
  // Said where ranked search is in use (a collection declares a search document), not to every host.
  const ranked = [...catalog.values()];
  if (ranked.some((c) => c.fullText !== undefined) && ranked.some((c) => c.similarity === undefined)) resolved.logger.info?.(SIMILAR_OFF);
  await warnAboutIndexes(resolved.knex, catalog, resolved.indexAdvice, resolved.logger);
  const corsMiddleware = resolved.cors === undefined ? undefined : cors(resolved.cors);
  const router = new MountedRouter({
    prefix: resolved.prefix,
    cors: corsMiddleware,
    listCollections: async (ctx) => ((await mayListCollections(ctx, resolved)) ? [...catalog.keys()] : undefined),
    fault: (ctx, error) => renderFault(ctx, resolved, error),
  });
  // Runs before every route of this router; preflights and 404/405 answers get it in mount.ts.
  if (corsMiddleware !== undefined) router.use(corsMiddleware);
  registerAdminRoutes(router, catalog, resolved);
  // Built once: it depends only on the declarations and the columns read at start-up.
  const openApi = buildOpenApiDocument(catalog, resolved);
  router.get(
    `${resolved.prefix}/openapi.json`,
    guarded(resolved, async (ctx) => {
      await authorize(ctx, resolved, '_openapi');
      renderJson(ctx, openApi, cachingFor(resolved));
    }),
  );
  const shared =
    resolved.cache === undefined
      ? undefined
      : await SharedCache.create(
          resolved.knex,
          catalog,
          resolved.cache,
          { scoped: resolved.scope !== undefined || resolved.scopeModel !== undefined },
          resolved.logger,
          // What answers are made of: the declarations and columns, as the OpenAPI document describes them.
          crypto.createHash('sha1').update(JSON.stringify(openApi)).digest('base64url'),
        );
  const caches = createCaches(resolved, shared);
  const replicas =
    resolved.replicas === undefined ? undefined : new ReplicaSet(resolved.knex, resolved.replicas, replicaLog(resolved.logger));
  // One route per collection, GET and HEAD only, so the allowedMethods() of any router in the app
  // sees exactly which methods the plugin serves on which path.
  for (const collection of catalog.values()) {
    router.get(`${resolved.prefix}/${collection.name}`, collectionRoute(collection, resolved, caches, replicas));
  }
  replicas?.start();
  shared?.start();
  const triggersSql = () => changeTriggersScript(allTablesRead(catalog, resolved.cache?.tables ?? []));
  return Object.assign(router, {
    replicas: () => replicas?.statuses() ?? [],
    close: () => {
      replicas?.stop();
      shared?.stop();
    },
    indexAdvice: () => indexAdvice(resolved.knex, catalog),
    changeTriggersSql: triggersSql,
    installChangeTriggers: async () => {
      await resolved.knex.raw(triggersSql());
    },
  });
}
