// One app instance of the shared-cache suite, run as its own process: the fixture's collections with
// the shared cache on a Redis at REDIS_URL, on the database at DATABASE_URL. It prints its port as one
// JSON line, counts the statements it sends other than the versions read (GET /_statements), and
// says in X-Test-Cache whether an answer came from the cache. SCOPED=1 adds a scope hook on users
// reading X-Status, with cacheKey reading the same header unless NO_CACHE_KEY=1.

import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import Koa from 'koa';
import { knex as createKnex } from 'knex';
import { Model } from 'objection';
import { queryModifiers, type QueryModifiersOptions } from '../../plugin';
import { Comment, Phone, Post, Role, User } from './fixture';

async function main(): Promise<void> {
  const knex = createKnex({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 4 } });
  Model.knex(knex);
  let statements = 0;
  knex.on('query', (query: { sql: string }) => {
    if (!query.sql.includes('koa_query_modifiers')) statements += 1;
  });
  const redis = new Redis(process.env.REDIS_URL as string);
  // Redis going away is part of the suite: the plugin copes, and ioredis's reconnect attempts are not news.
  redis.on('error', () => undefined);
  const scoped = process.env.SCOPED === '1';
  const options: QueryModifiersOptions = {
    knex,
    collections: { users: User, posts: Post, comments: Comment, phones: Phone, roles: Role },
    cursorSecret: 'the shared cache instances share this cursor secret',
    indexAdvice: false,
    logger: { error: () => undefined, warn: (message) => process.stderr.write(`${message}\n`) },
    cache: {
      redis,
      ttlSeconds: 60,
      ...(scoped && process.env.NO_CACHE_KEY !== '1' ? { cacheKey: (ctx) => ctx.get('X-Status') } : {}),
    },
    ...(scoped
      ? {
          scope: (ctx, label, query) => {
            if (label === 'users') void query.where('status', ctx.get('X-Status'));
          },
        }
      : {}),
  };
  const router = await queryModifiers(options);
  const app = new Koa();
  // Behind a load balancer every instance builds the same page links: the suite sends X-Forwarded-Host.
  app.proxy = true;
  app.use(async (ctx, next) => {
    if (ctx.path === '/_statements') {
      ctx.body = { statements };
      return;
    }
    await next();
    const report = ctx.state as { queryModifiers?: { cache?: string } };
    ctx.set('X-Test-Cache', report.queryModifiers?.cache ?? 'none');
  });
  app.use(router.routes());
  const server = app.listen(0, '127.0.0.1', () => {
    process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
  });
  process.on('SIGTERM', () => {
    server.close();
    router.close();
    redis.disconnect();
    void knex.destroy().then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
