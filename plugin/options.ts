// The plugin's options: their types, defaults, and the start-up check (ajv for the plain values,
// explicit checks for the parts JSON Schema cannot describe: the Knex instance, models and hooks).

import type cors from '@koa/cors';
import Ajv from 'ajv';
import type { Knex } from 'knex';
import type { Context } from 'koa';
import type { ModelQuery } from './apply';
import type { ModelClass } from './schema';
import { optionsSchema } from './options-schema';

/** `true` allows; `false` is 403; `{status: 401}` asks the client to authenticate. */
export type AuthorizeResult = boolean | { readonly status: 401 | 403; readonly detail?: string };

export interface QueryModifiersOptions {
  readonly knex: Knex;
  readonly collections: Readonly<Record<string, ModelClass>>;
  readonly prefix?: string;
  readonly pagination?: { readonly defaultPageSize?: number; readonly maxPageSize?: number };
  readonly maxRows?: number;
  readonly limits?: {
    readonly maxQueryLength?: number;
    readonly maxClauses?: number;
    readonly maxListItems?: number;
    readonly maxExpansions?: number;
    /** Most related records one expansion may load for all parents of a response (default 5000). */
    readonly maxRelatedRows?: number;
  };
  /** CORS for the plugin's routes (options of @koa/cors); off when absent or false. */
  readonly cors?: false | cors.Options;
  /** Cache-Control of 200 responses: one value, or per collection name (others get `no-cache`). */
  readonly cacheControl?: string | Readonly<Record<string, string>>;
  /**
   * Admin UI at `path` (default /admin) and `<prefix>/_meta`. `explain: true` (default false) adds
   * `<prefix>/_explain`, which shows SQL, bindings and plans, scope conditions included, to the clients
   * `authorize` answers `true` for `'_explain'`.
   */
  readonly admin?: false | { readonly path?: string; readonly explain?: boolean };
  readonly authorize?: (ctx: Context, collection: string) => AuthorizeResult | Promise<AuthorizeResult>;
  /**
   * Restricts a model wherever its records are read (the collection, every expansion at any depth,
   * every count, explain): called with the model class of each query. Awaited; may be async.
   */
  readonly scopeModel?: (ctx: Context, model: ModelClass, query: ModelQuery, label: string) => void | Promise<void>;
  /** Restricts one label: the collection name (`users`) or a relation path (`users.posts`). Awaited; may be async. */
  readonly scope?: (ctx: Context, collection: string, query: ModelQuery) => void | Promise<void>;
  readonly logger?: { error(message: string, error?: unknown): void };
  /**
   * Prepared queries kept between requests, least recently used dropped first: `{ maxBytes }` bounds
   * their estimated memory (default `{ maxBytes: 8 MiB }`), optionally with `maxEntries`; a number
   * bounds how many are kept (entries, as before); 0 turns the cache off.
   */
  readonly planCache?: number | { readonly maxBytes: number; readonly maxEntries?: number };
  /** Keep envelope totals for `ttlSeconds` (totals may lag writes by that much); off by default. */
  readonly totalsCache?: false | { readonly ttlSeconds: number; readonly maxEntries?: number };
}

export interface ResolvedOptions {
  readonly knex: Knex;
  readonly collections: Readonly<Record<string, ModelClass>>;
  readonly prefix: string;
  readonly defaultPageSize: number;
  readonly maxPageSize: number;
  readonly maxRows: number;
  readonly maxQueryLength: number;
  readonly maxClauses: number;
  readonly maxListItems: number;
  readonly maxExpansions: number;
  readonly maxRelatedRows: number;
  readonly cors: cors.Options | undefined;
  readonly cacheControl: string | Readonly<Record<string, string>>;
  readonly admin: { readonly path: string; readonly explain: boolean } | undefined;
  readonly authorize: QueryModifiersOptions['authorize'];
  readonly scope: QueryModifiersOptions['scope'];
  readonly scopeModel: QueryModifiersOptions['scopeModel'];
  readonly logger: { error(message: string, error?: unknown): void };
  /** undefined: off. Unbounded sides are `Infinity`. */
  readonly planCache: { readonly maxEntries: number; readonly maxBytes: number } | undefined;
  readonly totalsCache: { readonly ttlSeconds: number; readonly maxEntries: number } | undefined;
}

/** The default plan cache: 8 MiB of prepared queries, however many that is. */
export const DEFAULT_PLAN_CACHE_BYTES = 8 * 1024 * 1024;

/** `500` -> 500 entries, any size; `{ maxBytes: 1048576 }` -> 1 MiB, any count; `0` -> off. */
function resolvePlanCache(planCache: QueryModifiersOptions['planCache']): ResolvedOptions['planCache'] {
  const limits = typeof planCache === 'number' ? { maxEntries: planCache } : planCache ?? { maxBytes: DEFAULT_PLAN_CACHE_BYTES };
  const resolved = {
    maxEntries: limits.maxEntries ?? Number.POSITIVE_INFINITY,
    maxBytes: 'maxBytes' in limits ? limits.maxBytes : Number.POSITIVE_INFINITY,
  };
  return resolved.maxEntries === 0 || resolved.maxBytes === 0 ? undefined : Object.freeze(resolved);
}

const ajv = new Ajv({ allErrors: true, strict: false });
const checkSchema = ajv.compile(optionsSchema);

function isModelClass(value: unknown): value is ModelClass {
  return typeof value === 'function' && typeof (value as { query?: unknown }).query === 'function'
    && typeof (value as { tableName?: unknown }).tableName === 'string';
}

function codeProblems(options: QueryModifiersOptions): string[] {
  const problems: string[] = [];
  const knex: unknown = options.knex;
  if (typeof knex !== 'function' || typeof (knex as { raw?: unknown }).raw !== 'function') {
    problems.push('knex must be a Knex instance');
  }
  for (const [name, model] of Object.entries(options.collections ?? {})) {
    if (!isModelClass(model)) problems.push(`collections.${name} must be an Objection model class with a tableName`);
  }
  for (const hook of ['authorize', 'scope', 'scopeModel'] as const) {
    if (options[hook] !== undefined && typeof options[hook] !== 'function') problems.push(`${hook} must be a function`);
  }
  const { defaultPageSize = 15, maxPageSize = 100 } = options.pagination ?? {};
  if (defaultPageSize > maxPageSize) problems.push('pagination.defaultPageSize must not exceed pagination.maxPageSize');
  return problems;
}

/** Checks the options and fills in defaults; throws one Error listing every problem. */
export function resolveOptions(options: QueryModifiersOptions): ResolvedOptions {
  const schemaOk = checkSchema(options);
  const problems = schemaOk ? [] : (checkSchema.errors ?? []).map((e) => `options${e.instancePath.replace(/\//g, '.')} ${e.message ?? 'is invalid'}`);
  problems.push(...(typeof options === 'object' && options !== null ? codeProblems(options) : []));
  if (problems.length > 0) throw new Error(`koa-query-modifiers: invalid options:\n- ${problems.join('\n- ')}`);
  const limits = options.limits ?? {};
  return Object.freeze({
    knex: options.knex,
    collections: options.collections,
    prefix: options.prefix ?? '/api',
    defaultPageSize: options.pagination?.defaultPageSize ?? 15,
    maxPageSize: options.pagination?.maxPageSize ?? 100,
    maxRows: options.maxRows ?? 1000,
    maxQueryLength: limits.maxQueryLength ?? 8192,
    maxClauses: limits.maxClauses ?? 50,
    maxListItems: limits.maxListItems ?? 500,
    maxExpansions: limits.maxExpansions ?? 5,
    maxRelatedRows: limits.maxRelatedRows ?? 5000,
    // The routes are read-only: advertise only GET and HEAD unless the host says otherwise.
    cors: options.cors ? { allowMethods: 'GET,HEAD', ...options.cors } : undefined,
    cacheControl: options.cacheControl ?? 'no-cache',
    // Explain shows what the API hides (scope conditions, hidden columns in SQL): only on request.
    admin: options.admin ? { path: options.admin.path ?? '/admin', explain: options.admin.explain === true } : undefined,
    authorize: options.authorize,
    scope: options.scope,
    scopeModel: options.scopeModel,
    logger: options.logger ?? console,
    planCache: resolvePlanCache(options.planCache),
    totalsCache: options.totalsCache
      ? { ttlSeconds: options.totalsCache.ttlSeconds, maxEntries: options.totalsCache.maxEntries ?? 1000 }
      : undefined,
  });
}
