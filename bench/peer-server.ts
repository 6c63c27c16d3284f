// The peer of the benchmark (`--peer`): Koa + Objection + objection-find, written as the libraries'
// documentation shows, on the bench database. Every library comes from PEER_DIR (bench/.peer, which
// the bench installs; see peer.ts), never from the project. `limit` and `offset` are read by the
// route; everything else is objection-find's. `GET /__bench/stats` reports the statements knex sent
// and the requests answered, like the other two servers.
// Env: DATABASE_URL (the bench database), PEER_DIR, PORT (0 = any); prints `listening <port>` when ready.

import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { newCounters, serveBench } from './bench-server';

/** What this server uses of the peer's libraries (loaded at run time, so typed here by hand). */
type Query = Record<string, string | string[] | undefined>;
interface Builder extends PromiseLike<unknown> {
  limit(n: number): Builder;
  offset(n: number): Builder;
}
interface FindQuery {
  allowEager(expression: string): FindQuery;
  build(params: Query): Builder;
}
interface KnexInstance {
  on(event: 'query', listener: () => void): void;
  destroy(): Promise<void>;
}
interface QueryBuilderLike {
  select(...columns: string[]): QueryBuilderLike;
  orderBy(column: string, direction?: string): QueryBuilderLike;
}
interface ModelStatics {
  new (): object;
  knex(knex: KnexInstance): void;
  readonly HasManyRelation: unknown;
  readonly HasOneRelation: unknown;
  readonly ManyToManyRelation: unknown;
}
interface KoaContext {
  path: string;
  query: Query;
  status: number;
  body: unknown;
}
interface KoaApp {
  use(middleware: (ctx: KoaContext) => Promise<void>): KoaApp;
  callback(): (req: http.IncomingMessage, res: http.ServerResponse) => void;
}

const peerDir = process.env.PEER_DIR;
if (peerDir === undefined || peerDir === '') throw new Error('PEER_DIR names the folder the peer libraries are installed in');
const load = createRequire(path.join(peerDir, 'package.json'));
const Koa = load('koa') as new () => KoaApp;
const { Model } = load('objection') as { Model: ModelStatics };
const createKnex = load('knex') as (config: object) => KnexInstance;
const findQuery = load('objection-find') as (model: unknown) => FindQuery;

class Post extends Model {
  static tableName = 'posts';
  // The shape's per-relation fields and order, as named modifiers: `eager=posts(idTitle,newestFirst)`.
  static modifiers = {
    idTitle: (query: QueryBuilderLike) => query.select('posts.id', 'posts.title', 'posts.user_id'),
    newestFirst: (query: QueryBuilderLike) => query.orderBy('posts.created_at', 'desc').orderBy('posts.id'),
  };
}
class Phone extends Model {
  static tableName = 'phones';
}
class Role extends Model {
  static tableName = 'roles';
}
class User extends Model {
  static tableName = 'users';
  static relationMappings = {
    posts: { relation: Model.HasManyRelation, modelClass: Post, join: { from: 'users.id', to: 'posts.user_id' } },
    phone: { relation: Model.HasOneRelation, modelClass: Phone, join: { from: 'users.id', to: 'phones.user_id' } },
    roles: {
      relation: Model.ManyToManyRelation,
      modelClass: Role,
      join: { from: 'users.id', through: { from: 'user_roles.user_id', to: 'user_roles.role_id' }, to: 'roles.id' },
    },
  };
}

const knex = createKnex({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 10 } });
Model.knex(knex);
const counters = newCounters();
knex.on('query', () => {
  counters.statements++;
});

const models: Readonly<Record<string, unknown>> = { '/api/users': User, '/api/posts': Post };

const app = new Koa();
app.use(async (ctx) => {
  const model = models[ctx.path];
  if (model === undefined) {
    ctx.status = 404;
    return;
  }
  const { limit, offset, ...params } = ctx.query;
  let query = findQuery(model).allowEager('[posts, roles, phone]').build(params);
  if (typeof limit === 'string') query = query.limit(Number(limit));
  if (typeof offset === 'string') query = query.offset(Number(offset));
  ctx.body = await query;
});

serveBench(app.callback(), counters, () => knex.destroy());
