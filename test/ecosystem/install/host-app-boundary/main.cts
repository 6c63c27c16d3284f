// A host that mounts koa-query-modifiers twice: under /api as the README teaches (scopeModel keeps
// drafts from being read anywhere), and under /label with the label-based scope hook the README
// once used, which restricts the `posts` collection only. It listens on an ephemeral port, prints
// {"port": N} and stops on SIGTERM.
import http from 'node:http';
import Koa from 'koa';
import { queryModifiers } from 'koa-query-modifiers';
import { openDatabase } from './database.cjs';
import { Account, Post, User } from './models.cjs';

async function main() {
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

  const server = http.createServer(app.callback());
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
  });
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => {
      knex.destroy().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`host failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
