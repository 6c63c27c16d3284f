// A host Koa application on the oldest objection, knex and koa the package supports, mounting
// koa-query-modifiers as docs/installing.md shows. It listens on an ephemeral port, prints
// {"port": N} and stops on SIGTERM.
import http from 'node:http';
import Koa from 'koa';
import { queryModifiers } from 'koa-query-modifiers';
import { openDatabase } from './database.cjs';
import { Article, Author } from './models.cjs';

async function main() {
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
