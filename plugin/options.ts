// The plugin's options: their types, defaults, and the start-up check (ajv for the plain values,
// explicit checks for the parts JSON Schema cannot describe: the Knex instance, models and hooks).

import type cors from '@koa/cors';
import Ajv from 'ajv';
import type { Knex } from 'knex';
import type { Context } from 'koa';
import { DEFAULT_MIN_ROWS, type IndexAdviceOptions } from './advice';
import type { ModelQuery } from './apply';
import { createCursorSeal, type CursorSeal } from './cursor-seal';
import type { HostModelClass, ModelClass } from './schema';
import type { TotalMode } from './syntax';
import { optionProblems } from './options-errors';
import { optionsSchema } from './options-schema';
import { sharedCacheProblems } from './cache-headers';
import type { QueryModifiersLogger } from './logger';

/** A read replica: its Knex instance, or one with the name logs and Server-Timing use (default `replica-<n>`). */
export type ReplicaServer = Knex | { readonly name: string; readonly knex: Knex };

/** Read replicas (docs/scaling.md): where each request's statements may go instead of `knex`. */
export interface ReplicaOptions {
  readonly servers: readonly ReplicaServer[];
  /** A replica further behind the primary than this gets no requests (default 2000). */
  readonly maxLagMs?: number;
  /** How often each server's replication state is read (default 1000). */
  readonly checkIntervalMs?: number;
  /** A replica whose check takes longer is taken out of rotation (default 2000). */
  readonly checkTimeoutMs?: number;
  /**
   * How long one request's statements may take on a replica, together, before the replica is taken
   * out of rotation and the request is answered by another server (default 5000): a replica that
   * hangs (frozen, not stopped) costs a request at most this much.
   */
  readonly queryTimeoutMs?: number;
  /**
   * The WAL position (`pg_current_wal_lsn()` after the client's last write, e.g. from a cookie) this
   * request's answer must include: only a replica that has replayed it may answer, else the primary.
   * Undefined or empty: any usable replica. A value that is not a WAL position: the primary.
   */
  readonly readAfter?: (ctx: Context) => string | undefined | Promise<string | undefined>;
  /** Name the server that answered in `Server-Timing` (`db;desc="replica-1"`), sent only with `serverTiming: true`; default false. */
  readonly revealServer?: boolean;
}

export interface ResolvedReplicas {
  readonly servers: readonly { readonly name: string; readonly knex: Knex }[];
  readonly maxLagMs: number;
  readonly checkIntervalMs: number;
  readonly checkTimeoutMs: number;
  readonly queryTimeoutMs: number;
  readonly readAfter: ReplicaOptions['readAfter'];
  readonly revealServer: boolean;
}

export type { QueryModifiersLogger };

/** `true` allows; `false` is 403; `{status: 401}` asks the client to authenticate. */
export type AuthorizeResult = boolean | { readonly status: 401 | 403; readonly detail?: string };

export interface QueryModifiersOptions {
  readonly knex: Knex;
  /** Collection name -> Objection model class (a custom QueryBuilder of any constructor is fine). */
  readonly collections: Readonly<Record<string, HostModelClass>>;
  readonly prefix?: string;
  readonly pagination?: {
    readonly defaultPageSize?: number;
    readonly maxPageSize?: number;
    /** How envelopes get their total when the client sends no `total=`: one mode, or per collection name (others exact). */
    readonly total?: TotalMode | Readonly<Record<string, TotalMode>>;
    /** `total=estimated` counts exactly up to this many matching records (default 10000). */
    readonly estimateAbove?: number;
    /**
     * How long the planner's estimate of one query (statement and values) is kept and given again
     * before PostgreSQL plans it anew, in seconds (default 5; 0 plans on every request). The capped
     * count still runs on every request, so a total of at most `estimateAbove` is always exact.
     */
    readonly estimateTtlSeconds?: number;
    /**
     * With a `scope` or `scopeModel` hook, `total=estimated` past `estimateAbove` answers
     * `estimateAbove + 1` (a lower bound): the planner's estimate is table-wide and moves with the
     * rows the hooks hide. `true` (or per collection name) gives the planner's estimate anyway,
     * which lets a client watch how many hidden rows there are, roughly. Default false.
     */
    readonly plannerEstimatesUnderScope?: boolean | Readonly<Record<string, boolean>>;
  };
  readonly maxRows?: number;
  readonly limits?: {
    readonly maxQueryLength?: number;
    readonly maxClauses?: number;
    readonly maxListItems?: number;
    /** Expansions at every depth together (docs/query-language.md, "Nested expansion"). */
    readonly maxExpansions?: number;
    /** Deepest expansion: a root `expand` is depth 1, its alias's `_expand` depth 2 (default 3). */
    readonly maxExpandDepth?: number;
    /** Most related records one expansion may load for all parents of a response (default 5000). */
    readonly maxRelatedRows?: number;
    /** Largest body of one response, in bytes; past it the answer is 400 LIMIT_EXCEEDED (default 8 MiB). */
    readonly maxResponseBytes?: number;
    /**
     * Response bytes all requests in flight may hold together; a request arriving past it is 503
     * SERVER_BUSY with `Retry-After` (default 8 times maxResponseBytes).
     */
    readonly maxInFlightBytes?: number;
    /**
     * Most records a whole-list CSV export may stream (docs/query-language.md, "Export as CSV"); a
     * list with more is 400 LIMIT_EXCEEDED before anything is sent (default 100000).
     */
    readonly maxExportRows?: number;
    /** Most records one batch of a whole-list CSV export reads at a time (default 1000). */
    readonly exportBatchRows?: number;
    /**
     * A request whose rows statement the planner costs above this is heavy (docs/configuration.md,
     * heavy requests), as is one sorting by a relation field or a count. Default 25000.
     */
    readonly heavyCost?: number;
    /** Most heavy requests holding database connections at once; default half the pool, at least 1. */
    readonly heavyConcurrency?: number;
    /** How long a heavy request waits for a turn before 503 SERVER_BUSY (default 2000 ms). */
    readonly heavyQueueMs?: number;
    /** A request the planner costs above this is 400 LIMIT_EXCEEDED, naming its costliest clause; default off. */
    readonly maxCost?: number;
  };
  /** CORS for the plugin's routes (options of @koa/cors); off when absent or false. */
  readonly cors?: false | cors.Options;
  /**
   * Cache-Control of 200 and 304 responses: one value, or per collection name (others get `no-cache`).
   * With an `authorize`, `scope` or `scopeModel` hook, a value that does not say who may keep it
   * (`public`, `private`, `s-maxage`, `no-store`) gets `private, ` in front; `public` or `s-maxage`
   * there needs `vary` (docs/configuration.md).
   */
  readonly cacheControl?: string | Readonly<Record<string, string>>;
  /**
   * The request headers the hooks read (e.g. `['Authorization', 'X-Tenant']`), added to `Vary` on
   * every answer, so a shared cache keeps one copy per caller. Required for a `public` or `s-maxage`
   * `cacheControl` on a mount with hooks.
   */
  readonly vary?: readonly string[];
  /** Send `Server-Timing` (parse, query and serialize durations) on collection answers; default false. */
  readonly serverTiming?: boolean;
  /**
   * Admin UI at `path` (default /admin) and `<prefix>/_meta`. `explain: true` (default false) adds
   * `<prefix>/_explain`, which shows SQL, bindings and plans, scope conditions included, to the clients
   * `authorize` answers `true` for `'_explain'`.
   */
  readonly admin?: false | { readonly path?: string; readonly explain?: boolean };
  readonly authorize?: (ctx: Context, collection: string) => AuthorizeResult | Promise<AuthorizeResult>;
  /**
   * Restricts a model wherever its records are read (the collection, every expansion at any depth,
   * every count, explain): called with the model class of each query. Awaited; may be async. What it
   * returns is ignored: returning the query (`=> query.where(...)`) does not run it.
   */
  readonly scopeModel?: (ctx: Context, model: ModelClass, query: ModelQuery, label: string) => unknown;
  /**
   * Restricts one label: the collection name (`users`) or a relation path (`users.posts`). Awaited;
   * may be async. What it returns is ignored: returning the query does not run it.
   */
  readonly scope?: (ctx: Context, collection: string, query: ModelQuery) => unknown;
  readonly logger?: QueryModifiersLogger;
  /**
   * Prepared queries kept between requests, least recently used dropped first: `{ maxBytes }` bounds
   * their estimated memory (default `{ maxBytes: 8 MiB }`), optionally with `maxEntries`; a number
   * bounds how many are kept (entries, as before); 0 turns the cache off.
   */
  readonly planCache?: number | { readonly maxBytes: number; readonly maxEntries?: number };
  /** `similar[...]` keeps records at least this similar (0 to 1, default 0.3): docs/query-language.md, "Ranked search: match and similar". */
  readonly search?: { readonly similarityThreshold?: number };
  /** Keep envelope totals for `ttlSeconds` (totals may lag writes by that much); off by default. */
  readonly totalsCache?: false | { readonly ttlSeconds: number; readonly maxEntries?: number };
  /** Read replicas: a list of Knex instances, or the list with settings (docs/scaling.md). Off when absent. */
  readonly replicas?: readonly ReplicaServer[] | ReplicaOptions;
  /**
   * The secret cursors are sealed with (docs/configuration.md): at least 32 characters, the same on
   * every instance; or a list whose first entry seals and every entry opens, to rotate it. Absent: a
   * random key per process, so cursors do not survive a restart or cross instances.
   */
  readonly cursorSecret?: string | readonly string[];
  /**
   * The start-up check of the indexes the declarations need (docs/installing.md, "Indexes for your
   * declarations"): one warning per collection lacking one on a table of at least `minRows` rows
   * (the planner's estimate; default 10000); `false` skips it.
   */
  readonly indexAdvice?: IndexAdviceOptions;
}

export interface ResolvedOptions {
  readonly knex: Knex;
  readonly collections: Readonly<Record<string, ModelClass>>;
  readonly prefix: string;
  readonly defaultPageSize: number;
  readonly maxPageSize: number;
  readonly total: TotalMode | Readonly<Record<string, TotalMode>>;
  readonly estimateAbove: number;
  /** 0: every estimate planned anew. */
  readonly estimateTtlSeconds: number;
  readonly plannerEstimatesUnderScope: boolean | Readonly<Record<string, boolean>>;
  readonly maxRows: number;
  readonly maxQueryLength: number;
  readonly maxClauses: number;
  readonly maxListItems: number;
  readonly maxExpansions: number;
  readonly maxExpandDepth: number;
  readonly maxRelatedRows: number;
  readonly maxResponseBytes: number;
  readonly maxInFlightBytes: number;
  readonly maxExportRows: number;
  readonly exportBatchRows: number;
  readonly heavyCost: number;
  /** undefined: half the pool of `knex`, at least 1 (lane/admission.ts). */
  readonly heavyConcurrency: number | undefined;
  readonly heavyQueueMs: number;
  /** undefined: off. */
  readonly maxCost: number | undefined;
  readonly cors: cors.Options | undefined;
  readonly cacheControl: string | Readonly<Record<string, string>>;
  readonly vary: readonly string[];
  readonly serverTiming: boolean;
  readonly admin: { readonly path: string; readonly explain: boolean } | undefined;
  readonly authorize: QueryModifiersOptions['authorize'];
  readonly scope: QueryModifiersOptions['scope'];
  readonly scopeModel: QueryModifiersOptions['scopeModel'];
  readonly logger: QueryModifiersLogger;
  /** undefined: off. Unbounded sides are `Infinity`. */
  readonly planCache: { readonly maxEntries: number; readonly maxBytes: number } | undefined;
  readonly totalsCache: { readonly ttlSeconds: number; readonly maxEntries: number } | undefined;
  readonly search: { readonly similarityThreshold: number };
  readonly replicas: ResolvedReplicas | undefined;
  /** Seals and opens the cursors (the keys derived from `cursorSecret`, never the secret itself). */
  readonly cursorSeal: CursorSeal;
  /** undefined: no start-up check and no advice in explain. */
  readonly indexAdvice: { readonly minRows: number } | undefined;
}

/** The planner cost past which a request is heavy (docs/configuration.md, heavy requests). */
export const DEFAULT_HEAVY_COST = 25000;

/** The default plan cache: 8 MiB of prepared queries, however many that is. */
export const DEFAULT_PLAN_CACHE_BYTES = 8 * 1024 * 1024;

/** limits.maxResponseBytes when the host gives none: 8 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** How many whole responses limits.maxInFlightBytes holds when the host gives none (docs/configuration.md). */
const IN_FLIGHT_RESPONSES = 8;

/** `500` -> 500 entries, any size; `{ maxBytes: 1048576 }` -> 1 MiB, any count; `0` -> off. */
function resolvePlanCache(planCache: QueryModifiersOptions['planCache']): ResolvedOptions['planCache'] {
  const limits = typeof planCache === 'number' ? { maxEntries: planCache } : (planCache ?? { maxBytes: DEFAULT_PLAN_CACHE_BYTES });
  const resolved = {
    maxEntries: limits.maxEntries ?? Number.POSITIVE_INFINITY,
    maxBytes: 'maxBytes' in limits ? limits.maxBytes : Number.POSITIVE_INFINITY,
  };
  return resolved.maxEntries === 0 || resolved.maxBytes === 0 ? undefined : Object.freeze(resolved);
}

// verbose: each finding carries its schema and value, from which options-errors.ts writes the expected form.
const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
const checkSchema = ajv.compile(optionsSchema);

function isModelClass(value: unknown): value is ModelClass {
  return (
    typeof value === 'function' &&
    typeof (value as { query?: unknown }).query === 'function' &&
    typeof (value as { tableName?: unknown }).tableName === 'string'
  );
}

function isKnex(value: unknown): value is Knex {
  return typeof value === 'function' && typeof (value as { raw?: unknown }).raw === 'function';
}

function replicaList(replicas: QueryModifiersOptions['replicas']): readonly ReplicaServer[] {
  if (replicas === undefined) return [];
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- checked as given at run time: a JavaScript host's options have no types
  return Array.isArray(replicas) ? replicas : ((replicas as ReplicaOptions).servers ?? []);
}

/** `[knexA, {name: 'eu', knex: knexB}]` -> `replica-1`, `eu`. */
function replicaServers(replicas: QueryModifiersOptions['replicas']): { name: string; knex: Knex }[] {
  return replicaList(replicas).map((server, i) =>
    isKnex(server) ? { name: `replica-${i + 1}`, knex: server } : { name: server.name, knex: server.knex },
  );
}

function replicaProblems(options: QueryModifiersOptions): string[] {
  const problems: string[] = [];
  const names = new Set<string>(['primary']);
  replicaList(options.replicas).forEach((server, i) => {
    if (isKnex(server)) {
      names.add(`replica-${i + 1}`);
      return;
    }
    const entry = server as { name?: unknown; knex?: unknown } | null;
    if (typeof entry !== 'object' || entry === null || !isKnex(entry.knex)) {
      problems.push(`replicas[${i}] must be a Knex instance or {name, knex}`);
    } else if (typeof entry.name !== 'string' || !/^[A-Za-z0-9._-]{1,64}$/.test(entry.name)) {
      problems.push(`replicas[${i}].name must be 1 to 64 letters, digits, ".", "_" or "-"`);
    } else if (names.has(entry.name)) {
      problems.push(`replicas[${i}].name "${entry.name}" is used twice (or is "primary")`);
    } else {
      names.add(entry.name);
    }
  });
  const readAfter: unknown = Array.isArray(options.replicas) ? undefined : (options.replicas as ReplicaOptions | undefined)?.readAfter;
  if (readAfter !== undefined && typeof readAfter !== 'function') problems.push('replicas.readAfter must be a function');
  return problems;
}

function codeProblems(options: QueryModifiersOptions): string[] {
  const problems: string[] = [];
  if (!isKnex(options.knex)) problems.push('knex must be a Knex instance');
  problems.push(...replicaProblems(options));
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- checked as given at run time: a JavaScript host's options have no types
  for (const [name, model] of Object.entries(options.collections ?? {})) {
    if (!isModelClass(model)) problems.push(`collections.${name} must be an Objection model class with a tableName`);
  }
  for (const hook of ['authorize', 'scope', 'scopeModel'] as const) {
    if (options[hook] !== undefined && typeof options[hook] !== 'function') problems.push(`${hook} must be a function`);
  }
  const { defaultPageSize = 15, maxPageSize = 100 } = options.pagination ?? {};
  if (defaultPageSize > maxPageSize) problems.push('pagination.defaultPageSize must not exceed pagination.maxPageSize');
  const total = options.pagination?.total;
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- checked as given at run time: a JavaScript host's options have no types
  if (typeof total === 'object' && total !== null) {
    for (const name of Object.keys(total)) {
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- checked as given at run time: a JavaScript host's options have no types
      if (!Object.prototype.hasOwnProperty.call(options.collections ?? {}, name))
        problems.push(`pagination.total.${name} names no collection`);
    }
  }
  problems.push(...sharedCacheProblems(options));
  return problems;
}

/** The shortest `cursorSecret` accepted: 32 characters, as many as the key it is turned into has bytes. */
const MIN_SECRET_LENGTH = 32;

/** What is wrong with `cursorSecret`, in one sentence naming its path (never its value). */
function cursorSecretProblems(secret: unknown): string[] {
  if (secret === undefined) return [];
  const short = (path: string) =>
    `${path} must be at least ${MIN_SECRET_LENGTH} characters long (a random string, e.g. from \`openssl rand -base64 48\`)`;
  if (typeof secret === 'string') return secret.length < MIN_SECRET_LENGTH ? [short('cursorSecret')] : [];
  if (!Array.isArray(secret) || secret.length === 0 || !secret.every((entry) => typeof entry === 'string')) {
    return ['cursorSecret must be a string of at least 32 characters, or a non-empty list of them (the first seals)'];
  }
  return secret.flatMap((entry, i) => (entry.length < MIN_SECRET_LENGTH ? [short(`cursorSecret[${i}]`)] : []));
}

/** Checks the options and fills in defaults; throws one Error listing every problem. */
export function resolveOptions(options: QueryModifiersOptions): ResolvedOptions {
  const schemaOk = checkSchema(options);
  const problems = schemaOk
    ? []
    : // cursorSecret's problems are told once, below, instead of once per branch of its schema.
      optionProblems((checkSchema.errors ?? []).filter((e) => !e.instancePath.startsWith('/cursorSecret')));
  problems.push(...cursorSecretProblems((options as { cursorSecret?: unknown } | null)?.cursorSecret));
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- checked as given at run time: a JavaScript host's options have no types
  problems.push(...(typeof options === 'object' && options !== null ? codeProblems(options) : []));
  if (problems.length > 0) throw new Error(`koa-query-modifiers: invalid options:\n- ${problems.join('\n- ')}`);
  const limits = options.limits ?? {};
  const maxResponseBytes = limits.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return Object.freeze({
    knex: options.knex,
    // Checked above (codeProblems): each is a model class; its QueryBuilder's constructor type does not matter here.
    collections: options.collections as Readonly<Record<string, ModelClass>>,
    prefix: options.prefix ?? '/api',
    defaultPageSize: options.pagination?.defaultPageSize ?? 15,
    maxPageSize: options.pagination?.maxPageSize ?? 100,
    total: options.pagination?.total ?? 'exact',
    estimateAbove: options.pagination?.estimateAbove ?? 10000,
    estimateTtlSeconds: options.pagination?.estimateTtlSeconds ?? 5,
    plannerEstimatesUnderScope: options.pagination?.plannerEstimatesUnderScope ?? false,
    maxRows: options.maxRows ?? 1000,
    maxQueryLength: limits.maxQueryLength ?? 8192,
    maxClauses: limits.maxClauses ?? 50,
    maxListItems: limits.maxListItems ?? 500,
    maxExpansions: limits.maxExpansions ?? 5,
    maxExpandDepth: limits.maxExpandDepth ?? 3,
    maxRelatedRows: limits.maxRelatedRows ?? 5000,
    maxResponseBytes,
    maxInFlightBytes: limits.maxInFlightBytes ?? IN_FLIGHT_RESPONSES * maxResponseBytes,
    maxExportRows: limits.maxExportRows ?? 100000,
    exportBatchRows: limits.exportBatchRows ?? 1000,
    heavyCost: limits.heavyCost ?? DEFAULT_HEAVY_COST,
    heavyConcurrency: limits.heavyConcurrency,
    heavyQueueMs: limits.heavyQueueMs ?? 2000,
    maxCost: limits.maxCost,
    // The routes are read-only: advertise only GET and HEAD unless the host says otherwise.
    cors: options.cors ? { allowMethods: 'GET,HEAD', ...options.cors } : undefined,
    cacheControl: options.cacheControl ?? 'no-cache',
    vary: options.vary ?? [],
    serverTiming: options.serverTiming === true,
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
    search: { similarityThreshold: options.search?.similarityThreshold ?? 0.3 },
    replicas: resolveReplicas(options.replicas),
    cursorSeal: createCursorSeal(options.cursorSecret),
    indexAdvice: options.indexAdvice === false ? undefined : { minRows: options.indexAdvice?.minRows ?? DEFAULT_MIN_ROWS },
  });
}

function resolveReplicas(replicas: QueryModifiersOptions['replicas']): ResolvedReplicas | undefined {
  const servers = replicaServers(replicas);
  if (servers.length === 0) return undefined;
  const settings: ReplicaOptions = Array.isArray(replicas) ? { servers: [] } : (replicas as ReplicaOptions);
  const checkIntervalMs = settings.checkIntervalMs ?? 1000;
  return {
    servers,
    maxLagMs: settings.maxLagMs ?? 2000,
    checkIntervalMs,
    checkTimeoutMs: settings.checkTimeoutMs ?? 2000,
    queryTimeoutMs: settings.queryTimeoutMs ?? 5000,
    readAfter: settings.readAfter,
    revealServer: settings.revealServer === true,
  };
}
