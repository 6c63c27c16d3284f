// Owns the demo Koa application: the four demo collections served by the plugin, the optional
// bearer-token check, CORS, compression, request logs, health probes and a small JSON index at `/`.
// Creating an app never listens or touches the schema.
import crypto from 'node:crypto';
import type cors from '@koa/cors';
import Koa from 'koa';
import compress from 'koa-compress';
import type { Knex } from 'knex';
import { queryModifiers, type AuthorizeResult, type QueryModifiersOptions } from '../plugin';
import { Phone, Post, Role, User } from './demo/models';
import { healthRoutes } from './health';
import { createLogger, logAppErrors, pluginLogger, requestLogger, type Logger } from './logging';

export interface AppOptions {
  readonly knex: Knex;
  /** When set, every collection request needs `Authorization: Bearer <apiToken>`. */
  readonly apiToken?: string | undefined;
  /** Path prefix of the collection routes; default '/api'. */
  readonly prefix?: string | undefined;
  /** Serve the admin UI at /admin with its metadata endpoints; default true. */
  readonly admin?: boolean | undefined;
  /** Also serve `<prefix>/_explain` (SQL and plans; to token holders when there is a token); default false. */
  readonly explain?: boolean | undefined;
  /** CORS for the API routes, e.g. `{ origin: 'https://app.example.com' }`; off when absent. */
  readonly cors?: { readonly origin: string } | undefined;
  /** Structured logs; default: a pino logger configured from LOG_LEVEL / NODE_ENV. */
  readonly logger?: Logger | undefined;
  /** The plugin's `planCache` and `totalsCache` (see cachesFromEnv); plugin defaults when absent. */
  readonly caches?: CacheSettings | undefined;
  /** More plugin options laid over the demo's, e.g. `{ limits: { maxRelatedRows: 100 } }` (the docs' examples of other settings). */
  readonly plugin?: Partial<Omit<QueryModifiersOptions, 'knex' | 'collections' | 'prefix'>> | undefined;
}

/** The demo server's cache settings, from PLAN_CACHE and TOTALS_CACHE_SECONDS. */
export interface CacheSettings {
  readonly planCache?: number | { readonly maxBytes: number };
  readonly totalsCache?: { readonly ttlSeconds: number };
}

const BYTE_UNITS: Readonly<Record<string, number>> = { KiB: 1024, MiB: 1024 * 1024 };

/**
 * `PLAN_CACHE` (a whole number of entries, or of bytes with `KiB` or `MiB`, e.g. `16MiB`; 0 = off;
 * default the plugin's 8 MiB) and `TOTALS_CACHE_SECONDS` (keep totals that long; unset = count
 * every time). Example: `cachesFromEnv({ PLAN_CACHE: '16MiB' })` -> `{ planCache: { maxBytes: 16777216 } }`.
 * Throws on a value that is not a number of the right kind.
 */
export function cachesFromEnv(env: { readonly PLAN_CACHE?: string | undefined; readonly TOTALS_CACHE_SECONDS?: string | undefined }): CacheSettings {
  const settings: { planCache?: CacheSettings['planCache']; totalsCache?: { ttlSeconds: number } } = {};
  const plans = env.PLAN_CACHE;
  if (plans !== undefined && plans !== '') {
    const match = /^(\d+)(KiB|MiB)?$/.exec(plans);
    if (match === null) {
      throw new Error(`PLAN_CACHE must be a whole number of entries, or of bytes ending in KiB or MiB (0 turns it off), got "${plans}"`);
    }
    const unit = match[2];
    settings.planCache = unit === undefined ? Number(match[1]) : { maxBytes: Number(match[1]) * (BYTE_UNITS[unit] ?? 1) };
  }
  const seconds = env.TOTALS_CACHE_SECONDS;
  if (seconds !== undefined && seconds !== '') {
    const ttl = Number(seconds);
    if (!Number.isFinite(ttl) || ttl <= 0 || ttl > 86400) {
      throw new Error(`TOTALS_CACHE_SECONDS must be a number of seconds above 0 and at most 86400, got "${seconds}"`);
    }
    settings.totalsCache = { ttlSeconds: ttl };
  }
  return settings;
}

/** Bodies below this size are sent as they are: compressing them costs more than it saves. */
const COMPRESS_THRESHOLD_BYTES = 1024;

/** Headers a browser script may read on a cross-origin answer. */
const EXPOSED_HEADERS = ['X-Result-Truncated', 'X-Request-Id', 'Server-Timing'];

const COLLECTIONS = { users: User, posts: Post, phones: Phone, roles: Role };

const EXAMPLE_QUERIES: readonly string[] = [
  'users?filter[id]=>=5&sort[name]=desc&per-page=10',
  'users?search[name]=an&fields=id,name,email',
  'users?between[created_at]=2025-04-01,2025-04-17&filter[status]=active',
  'users?filter[role]=admin&filter[or status]=banned&sort[created_at]=desc',
  'users?in[role]=admin,editor&fields!=updated_at',
  'users?expand[posts]=p&p_fields=id,title&p_sort[created_at]=desc&p_filter[status]=published',
  'posts?expand[author]&sort[views]=desc&limit=5',
];

function digest(text: string): Buffer {
  return crypto.createHash('sha256').update(text, 'utf8').digest();
}

/** Builds the `authorize` hook for a token: compares in constant time, 401 with `WWW-Authenticate` otherwise. */
function bearerAuthorizer(apiToken: string): (ctx: Koa.Context) => AuthorizeResult {
  const expected = digest(apiToken);
  return (ctx) => {
    const header = ctx.get('Authorization');
    const match = /^Bearer +(\S+) *$/i.exec(header);
    const given = match?.[1];
    if (given !== undefined && crypto.timingSafeEqual(digest(given), expected)) return true;
    ctx.set('WWW-Authenticate', 'Bearer');
    const detail = header === '' ? 'This API needs an "Authorization: Bearer <token>" header.' : 'The bearer token is not valid.';
    return { status: 401, detail };
  };
}

function normalisePrefix(prefix: string | undefined): string {
  const trimmed = (prefix ?? '/api').replace(/\/+$/, '');
  return trimmed === '' || trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** Serves `GET /`: the collection names and a few example URLs to try. */
function indexMiddleware(prefix: string): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    // Koa 3 `ctx.origin` is the Origin request header, not this server: build the origin from protocol and host.
    const base = `${ctx.protocol}://${ctx.host}${prefix}`;
    ctx.body = {
      name: 'koa-query-modifiers demo',
      collections: Object.fromEntries(Object.keys(COLLECTIONS).map((name) => [name, `${base}/${name}`])),
      examples: EXAMPLE_QUERIES.map((query) => `${base}/${query}`),
      openapi: `${base}/openapi.json`,
      health: `${ctx.protocol}://${ctx.host}/health`,
    };
  };
}

/**
 * `CORS_ORIGIN` as the app's `cors` setting: `*`, one origin, or a comma-separated list of origins.
 * Unset or empty turns CORS off. Example: `corsFromEnv('https://app.example')` -> `{origin: 'https://app.example'}`.
 */
export function corsFromEnv(value: string | undefined): { origin: string } | undefined {
  const origin = value?.trim();
  return origin === undefined || origin === '' ? undefined : { origin };
}

/** The plugin's `cors` option: a list echoes the request's Origin when it is listed; reads only. */
function corsOptions(setting: { readonly origin: string }): cors.Options {
  const allowed = setting.origin.split(',').map((o) => o.trim()).filter((o) => o !== '');
  const origin = allowed.length === 1 || allowed.includes('*')
    ? (allowed.includes('*') ? '*' : (allowed[0] as string))
    : (ctx: Koa.Context): string => (allowed.includes(ctx.get('Origin')) ? ctx.get('Origin') : '');
  return { origin, allowMethods: ['GET', 'HEAD'], exposeHeaders: EXPOSED_HEADERS, maxAge: 600 };
}

/**
 * Creates the demo app (does not listen). Example:
 * `const app = await createApp({ knex }); request(app.callback()).get('/api/users?per-page=10')`.
 */
export async function createApp(options: AppOptions): Promise<Koa> {
  const prefix = normalisePrefix(options.prefix);
  const authorize = options.apiToken !== undefined && options.apiToken !== '' ? bearerAuthorizer(options.apiToken) : undefined;
  const logger = options.logger ?? createLogger(process.env);
  const router = await queryModifiers({
    knex: options.knex,
    collections: COLLECTIONS,
    prefix,
    admin: options.admin === false ? false : { explain: options.explain === true },
    logger: pluginLogger(logger),
    ...(options.cors === undefined ? {} : { cors: corsOptions(options.cors) }),
    ...(authorize === undefined ? {} : { authorize }),
    ...options.caches,
    ...options.plugin,
  });
  const app = new Koa();
  logAppErrors(app, logger);
  app.use(requestLogger(logger));
  app.use(compress({ threshold: COMPRESS_THRESHOLD_BYTES }));
  app.use(healthRoutes(options.knex, logger));
  app.use(indexMiddleware(prefix));
  app.use(router.routes()).use(router.allowedMethods());
  return app;
}
