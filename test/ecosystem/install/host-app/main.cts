// A host Koa application that mounts koa-query-modifiers following only docs/installing.md and the
// package's plugin.json. It listens on an ephemeral port, prints {"port": N} and stops on SIGTERM.
import http from 'node:http';
import Koa from 'koa';
import manifest from 'koa-query-modifiers/plugin.json';
import { queryModifiers, QueryError } from 'koa-query-modifiers';
import { openDatabase } from './database.cjs';
import { Article, Author, Note } from './models.cjs';

async function main() {
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
