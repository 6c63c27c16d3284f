// The plugin side of the benchmark: the production demo app (server/app.ts createApp) on the bench
// database, nothing seeded. Bench-only additions: `GET /__bench/stats` reports how many SQL statements
// knex has sent (from knex's 'query' events) and how many requests were answered, and SIGTERM/SIGINT
// exit cleanly so that `--cpu-prof` writes its profile.
// With BENCH_BARE=1 it serves the plugin's router alone on a bare Koa app (no request logs, compression,
// health routes or CORS), to tell the plugin's cost from the demo server's middleware.
// With BENCH_STORED_DOCUMENT=1 the posts' search document is their stored `document` column.
// With BENCH_MODEL_JSON=1 the demo models override `$formatJson` (returning what Objection's would), so
// the plugin builds every record through the model: the cost of a host model that customises its JSON.
// It serves the explain view, which the bench reads before a run to tell the statements a shape runs.
// Env: DATABASE_URL (the bench database), DATABASE_REPLICA_URLS (its replicas, for --replica), PORT (0 = any), PLAN_CACHE, TOTALS_CACHE_SECONDS and
// CURSOR_SECRET (as the demo server reads them); prints `listening <port>` when ready.

import Koa from 'koa';
import type { Knex } from 'knex';
import { Model, type Pojo } from 'objection';
import { queryModifiers } from '../plugin';
import { cachesFromEnv, createApp, cursorSecretFromEnv } from '../server/app';
import { closeKnex, createKnex, createReplicaKnexes } from '../server/db';
import { Phone, Post, Role, User } from '../server/demo/models';
import { newCounters, serveBench } from './bench-server';

/** BENCH_ESTIMATE_ABOVE (read by the floor too): where total=estimated starts estimating. */
const pagination =
  process.env.BENCH_ESTIMATE_ABOVE === undefined ? {} : { pagination: { estimateAbove: Number(process.env.BENCH_ESTIMATE_ABOVE) } };

/** The plugin with the demo app's collections and options, and nothing else. */
async function bareApp(knex: Knex): Promise<Koa> {
  const router = await queryModifiers({
    knex,
    collections: { users: User, posts: Post, phones: Phone, roles: Role },
    prefix: '/api',
    admin: { explain: true },
    ...cachesFromEnv(process.env),
    cursorSecret: cursorSecretFromEnv(process.env),
    ...pagination,
  });
  const app = new Koa();
  app.use(router.routes()).use(router.allowedMethods());
  return app;
}

/** Gives each demo model its own `$formatJson` (same output), as a host model that customises its JSON has. */
function customiseModelJson(): void {
  for (const model of [User, Post, Phone, Role]) {
    Object.defineProperty(model.prototype, '$formatJson', {
      value(this: Model, json: Pojo): Pojo {
        return Model.prototype.$formatJson.call(this, json);
      },
    });
  }
}

/**
 * BENCH_STORED_DOCUMENT=1 (bench --stored-document): Post declares the stored `document` column as its
 * search document, and lists its other columns as its fields, so the column itself is never shown.
 */
function declareStoredDocument(): void {
  const fields = ['id', 'user_id', 'title', 'body', 'status', 'views', 'created_at'];
  Object.defineProperty(Post, 'getFullTextSearch', { value: () => ({ language: 'english', column: 'document' }) });
  Object.defineProperty(Post, 'getProjectableFields', { value: () => fields });
}

async function main(): Promise<void> {
  if (process.env.BENCH_MODEL_JSON === '1') customiseModelJson();
  if (process.env.BENCH_STORED_DOCUMENT === '1') declareStoredDocument();
  // The production settings: statement timeout and pool wait come from the environment (STATEMENT_TIMEOUT_MS, POOL_TIMEOUT_MS).
  const knex = createKnex(process.env);
  // DATABASE_REPLICA_URLS (bench --replica): reads go to the replicas, as on the demo server.
  const replicas = createReplicaKnexes(process.env);
  const counters = newCounters();
  for (const instance of [knex, ...replicas]) {
    instance.on('query', () => {
      counters.statements++;
    });
  }
  const app =
    process.env.BENCH_BARE === '1'
      ? await bareApp(knex)
      : await createApp({
          knex,
          caches: cachesFromEnv(process.env),
          cursorSecret: cursorSecretFromEnv(process.env),
          // The explain view tells the bench which statements a shape runs; it is never requested under load.
          explain: true,
          plugin: { ...pagination, ...(replicas.length === 0 ? {} : { replicas: { servers: replicas } }) },
        });
  const handler = app.callback();
  serveBench(
    (req, res) => void handler(req, res),
    counters,
    () => Promise.all([knex, ...replicas].map(closeKnex)),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
