// The plugin's entry point: checks the options, builds the catalog once, and returns an @koa/router
// Router serving `GET <prefix>/<collection>` for every collection and `GET <prefix>/openapi.json`.

import cors from '@koa/cors';
import Router from '@koa/router';
import { registerAdminRoutes } from './admin/routes';
import { authorize, collectionRoute, guarded, renderJson, requireRead } from './middleware';
import { buildOpenApiDocument } from './openapi';
import { resolveOptions, type QueryModifiersOptions } from './options';
import { buildCatalog } from './schema';

/**
 * `await queryModifiers({knex, collections: {users: User}})` -> a Router answering
 * `GET /api/users?filter[id]=>=5&sort[name]=desc&per-page=10`.
 */
export async function queryModifiers(options: QueryModifiersOptions): Promise<Router> {
  const resolved = resolveOptions(options);
  const catalog = await buildCatalog(resolved.knex, resolved.collections);
  const router = new Router();
  // Runs before every route of this router, so preflight requests are answered here (204).
  if (resolved.cors !== undefined) router.use(cors(resolved.cors));
  // Admin routes first: `<prefix>/_meta` would otherwise match `<prefix>/:collection`.
  registerAdminRoutes(router, catalog, resolved);
  // Built once: it depends only on the declarations and the columns read at start-up.
  const openApi = buildOpenApiDocument(catalog, resolved);
  router.all(`${resolved.prefix}/openapi.json`, guarded(resolved, async (ctx) => {
    requireRead(ctx);
    await authorize(ctx, resolved, '_openapi');
    renderJson(ctx, openApi);
  }));
  router.all(`${resolved.prefix}/:collection`, collectionRoute(catalog, resolved));
  return router;
}
