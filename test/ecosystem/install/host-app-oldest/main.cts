// A host Koa application on the oldest objection, knex and koa the package supports, mounting
// koa-query-modifiers as docs/installing.md shows. It is served by serve-host.cts.
import Koa from 'koa';
import { queryModifiers } from 'koa-query-modifiers';
import { openDatabase } from './database.cjs';
import { Article, Author } from './models.cjs';
import { serveHost, type Host } from './serve-host.cjs';

async function main(): Promise<Host> {
  const knex = await openDatabase();
  const router = await queryModifiers({
    knex,
    collections: { authors: Author, articles: Article },
    prefix: '/api',
    admin: {},
    cors: { origin: 'https://site.example' },
  });

  const app = new Koa();
  app.use(router.routes()).use(router.allowedMethods());

  return { app, knex };
}

serveHost(main);
