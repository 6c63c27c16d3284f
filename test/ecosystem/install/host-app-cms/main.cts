// A CMS host that mounts koa-query-modifiers beside its own routers, under its own prefix, with the
// admin UI on its own path and an async tenant restriction keyed by model (docs/installing.md).
// It is served by serve-host.cts.
import Koa from 'koa';
import Router from '@koa/router';
import { queryModifiers } from 'koa-query-modifiers';
import { openDatabase } from './database.cjs';
import { Article, Author, Tag } from './models.cjs';
import { serveHost, type Host } from './serve-host.cjs';

/** The host's tenant lookup: asynchronous, as a database or cache lookup is. */
async function tenantOf(ctx: Koa.Context): Promise<number> {
  await new Promise((resolveSoon) => setTimeout(resolveSoon, 1));
  return ctx.get('X-Tenant') === 'globex' ? 2 : 1;
}

async function main(): Promise<Host> {
  const knex = await openDatabase();
  const router = await queryModifiers({
    knex,
    prefix: '/cms/v2',
    collections: { authors: Author, articles: Article, tags: Tag },
    admin: { path: '/tools/query' },
    scopeModel: async (ctx, model, query) => {
      if (model === Author || model === Article) query.where(`${model.tableName}.tenant_id`, await tenantOf(ctx));
    },
  });

  // The host's own routes on the same prefix: one router before the plugin's, one after.
  const before = new Router({ prefix: '/cms/v2' });
  before.get('/me', (ctx) => {
    ctx.body = { me: 'editor' };
  });
  before.post('/articles', (ctx) => {
    ctx.status = 201;
    ctx.body = { created: true };
  });
  const after = new Router({ prefix: '/cms/v2' });
  after.get('/articles/:id/preview', (ctx) => {
    ctx.body = { preview: ctx.params.id };
  });

  const app = new Koa();
  app.use(before.routes()).use(before.allowedMethods());
  app.use(router.routes()).use(router.allowedMethods());
  app.use(after.routes()).use(after.allowedMethods());

  return { app, knex };
}

serveHost(main);
