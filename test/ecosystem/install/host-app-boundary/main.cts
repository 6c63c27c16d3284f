// A host that mounts koa-query-modifiers twice: under /api as the README teaches (scopeModel keeps
// drafts from being read anywhere), and under /label with the label-based scope hook the README
// once used, which restricts the `posts` collection only. It is served by serve-host.cts.
import Koa from 'koa';
import { queryModifiers } from 'koa-query-modifiers';
import { openDatabase } from './database.cjs';
import { Account, Post, User } from './models.cjs';
import { serveHost, type Host } from './serve-host.cjs';

async function main(): Promise<Host> {
  const knex = await openDatabase();
  const router = await queryModifiers({
    knex,
    collections: { accounts: Account, users: User, posts: Post },
    prefix: '/api',
    admin: { path: '/admin' },
    // Which rows clients may ever see, wherever the model's records are read.
    scopeModel: (ctx, model, query) => {
      if (model === Post) query.where('posts.status', 'published');
    },
  });
  const labelled = await queryModifiers({
    knex,
    collections: { users: User, posts: Post },
    prefix: '/label',
    scope: (ctx, collection, query) => {
      if (collection === 'posts') query.where('posts.status', 'published');
    },
  });

  const app = new Koa();
  app.use(router.routes()).use(router.allowedMethods());
  app.use(labelled.routes()).use(labelled.allowedMethods());

  return { app, knex };
}

serveHost(main);
