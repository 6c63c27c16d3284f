// Owns the demo Koa application: the order of its layers (request log, problem answers, compression,
// CORS, request limits, the API token, probes, the index at `/`, the plugin's router over the four
// demo collections) and the settings read from the environment. Creating an app never listens or
// touches the schema; http-server.ts serves it.
import Koa from 'koa';
import type { Knex } from 'knex';
import { queryModifiers, type QueryModifiersOptions } from '../plugin';
import { requireToken } from './auth';
import { compression } from './compression';
import { corsForApi } from './cors';
import { collections as COLLECTIONS } from './demo/models';
import { healthRoutes } from './health';
import { homeRoute } from './home';
import { createLogger, logAppErrors, pluginLogger, requestLogger, type Logger } from './logging';
import { serverProblems } from './problems';
import { requestLimits } from './request-limits';

export interface AppOptions {
  readonly knex: Knex;
  /** When set, every request but /health and /ready needs the token (auth.ts). */
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
  /** The plugin's `cursorSecret` (see cursorSecretFromEnv); absent: a random key per process. */
  readonly cursorSecret?: string | readonly string[] | undefined;
  /** Trust X-Forwarded-Proto/-Host from a reverse proxy in front (Koa's `app.proxy`), for page URLs; default false. */
  readonly trustProxy?: boolean | undefined;
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
export function cachesFromEnv(env: {
  readonly PLAN_CACHE?: string | undefined;
  readonly TOTALS_CACHE_SECONDS?: string | undefined;
}): CacheSettings {
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

/**
 * Whether the demo sends Server-Timing: while developing, not under `NODE_ENV=production`, where its
 * durations would tell every client how the database is doing.
 * Example: `serverTimingFromEnv({ NODE_ENV: 'production' })` -> false.
 */
export function serverTimingFromEnv(env: { readonly NODE_ENV?: string | undefined }): boolean {
  return env.NODE_ENV !== 'production';
}

/**
 * `CURSOR_SECRET`: the secret cursors are sealed with, or several separated by commas while rotating
 * (the first seals, every one opens); unset or empty: none. Example:
 * `cursorSecretFromEnv({ CURSOR_SECRET: 'new…,old…' })` -> `['new…', 'old…']`. Throws on a secret
 * shorter than the plugin accepts, naming the variable (never its value).
 */
export function cursorSecretFromEnv(env: { readonly CURSOR_SECRET?: string | undefined }): string | string[] | undefined {
  const value = env.CURSOR_SECRET;
  if (value === undefined || value === '') return undefined;
  const secrets = value.split(',');
  if (secrets.some((secret) => secret.length < 32)) {
    throw new Error('CURSOR_SECRET must be at least 32 characters long, or a comma-separated list of such secrets (the first seals)');
  }
  return secrets.length === 1 ? value : secrets;
}

function normalisePrefix(prefix: string | undefined): string {
  const trimmed = (prefix ?? '/api').replace(/\/+$/, '');
  return trimmed === '' || trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/**
 * Creates the demo app (does not listen). Example:
 * `const app = await createApp({ knex }); request(app.callback()).get('/api/users?per-page=10')`.
 */
export async function createApp(options: AppOptions): Promise<Koa> {
  const prefix = normalisePrefix(options.prefix);
  const logger = options.logger ?? createLogger(process.env);
  const router = await queryModifiers({
    knex: options.knex,
    collections: COLLECTIONS,
    prefix,
    admin: options.admin === false ? false : { explain: options.explain === true },
    logger: pluginLogger(logger),
    ...(options.cursorSecret === undefined ? {} : { cursorSecret: options.cursorSecret }),
    ...options.caches,
    ...options.plugin,
  });
  // The demo owns its database: with the shared cache on, it puts the change triggers in place itself.
  if (options.plugin?.cache) await router.installChangeTriggers();
  const app = new Koa();
  app.proxy = options.trustProxy === true;
  logAppErrors(app, logger);
  // Outermost first: the log line sees the final answer; problems.ts has the last word on it.
  app.use(requestLogger(logger));
  app.use(serverProblems());
  app.use(compression());
  if (options.cors !== undefined) app.use(corsForApi(options.cors, prefix));
  app.use(requestLimits());
  if (options.apiToken !== undefined && options.apiToken !== '') app.use(requireToken(options.apiToken));
  app.use(healthRoutes(options.knex, logger));
  app.use(homeRoute(prefix, Object.keys(COLLECTIONS), options.admin === false ? undefined : '/admin'));
  app.use(router.routes()).use(router.allowedMethods());
  return app;
}
