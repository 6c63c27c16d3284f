// A host Koa application that mounts koa-query-modifiers following only docs/installing.md and the
// package's plugin.json. It is served by serve-host.cts.
import Koa from 'koa';
import manifest from 'koa-query-modifiers/plugin.json';
import { queryModifiers, QueryError } from 'koa-query-modifiers';
import { openDatabase } from './database.cjs';
import { Article, Author, Note } from './models.cjs';
import { serveHost, type Host } from './serve-host.cjs';

async function main(): Promise<Host> {
  const knex = await openDatabase();
  // Settings an administrator stored for this plugin (validated by the host against manifest.optionsSchema).
  const settings = { prefix: manifest.routes.prefix, pagination: { defaultPageSize: 2, maxPageSize: 3 }, maxRows: 4 };
  const router = await queryModifiers({
    ...settings,
    knex,
    collections: { authors: Author, articles: Article, notes: Note },
    admin: { path: manifest.routes.admin },
    cacheControl: { articles: 'public, max-age=60' },
    vary: ['X-Host-Key'], // the authorize hook reads it: a shared cache keeps one copy per value
    authorize: (ctx) => (ctx.get('X-Host-Key') === 'closed' ? { status: 403, detail: 'Closed by the host.' } : true),
  });

  const app = new Koa();
  // The host's own error handler keeps the status of errors that carry `expose: true`.
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (error instanceof QueryError || (error as { expose?: boolean }).expose) throw error;
      ctx.status = 500;
      ctx.body = { host: 'internal error' };
    }
  });
  app.use(async (ctx, next) => {
    if (ctx.path !== '/host') return next();
    ctx.body = { host: 'still mine', plugin: manifest.id };
  });
  app.use(router.routes()).use(router.allowedMethods());

  return { app, knex };
}

serveHost(main);
