// The admin routes beside the collection routes: collection metadata for the UI, the explain view,
// and the built admin UI's static files.

import type Router from '@koa/router';
import { adviseScans } from '../advice';
import { authorize, findCollection, guarded, pipelineRequest, renderJson, type RouteContext } from '../middleware';
import { cachingFor } from '../cache-headers';
import type { ResolvedOptions } from '../options';
import type { Catalog } from '../schema';
import { explainRequest } from './explain';
import { mayExplain } from './explain-access';
import { describeCollection } from './meta';
import { serveAdminFile } from './static-files';

export function registerAdminRoutes(router: Router, catalog: Catalog, options: ResolvedOptions): void {
  const { prefix, admin } = options;
  if (admin === undefined) return;
  router.get(
    `${prefix}/_meta`,
    guarded(options, async (ctx) => {
      await authorize(ctx, options, '_meta');
      renderJson(
        ctx,
        {
          collections: [...catalog.keys()],
          prefix,
          openapi: `${prefix}/openapi.json`,
          explain: await mayExplain(ctx, options),
        },
        cachingFor(options),
      );
    }),
  );
  router.get(
    `${prefix}/_meta/:collection`,
    guarded(options, async (ctx) => {
      const collection = await findCollection(ctx, catalog, options, ctx.params.collection ?? '');
      await authorize(ctx, options, collection.name);
      renderJson(ctx, describeCollection(collection, options), cachingFor(options));
    }),
  );
  // Off unless the host asks for it: a hook that answers `true` to everything must not open it.
  if (admin.explain) {
    router.get(
      `${prefix}/_explain/:collection`,
      guarded(options, async (ctx) => {
        const collection = await findCollection(ctx, catalog, options, ctx.params.collection ?? '');
        // Its own question: only `true` passes, so allowing the collection does not allow this.
        await authorize(ctx, options, '_explain');
        await authorize(ctx, options, collection.name);
        const request = pipelineRequest(ctx, options, collection);
        const explained = await explainRequest(collection, options, request, ctx.query.explain === 'plan');
        // Read after the explain's transaction ended: PGlite has a single connection.
        const scans =
          explained.plan === undefined || options.indexAdvice === undefined
            ? []
            : await adviseScans(options.knex, catalog, collection.name, explained.plan, options.indexAdvice.minRows);
        renderJson(ctx, scans.length === 0 ? explained : { ...explained, seqScans: scans }, cachingFor(options));
      }),
    );
  }
  const serve = async (ctx: RouteContext, next: () => Promise<unknown>) => {
    const relative = ctx.path.slice(admin.path.length);
    if (ctx.method === 'GET' || ctx.method === 'HEAD') {
      if (relative === '' && !ctx.path.endsWith('/')) {
        ctx.redirect(`${admin.path}/`);
        return;
      }
      if (await serveAdminFile(ctx, relative, prefix)) return;
    }
    await next();
  };
  router.get(admin.path, serve);
  router.get(`${admin.path}/{*file}`, serve);
}
