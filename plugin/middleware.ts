// The one place that touches Koa's ctx for API answers: runs the authorize and scope hooks, runs the
// pipeline, and renders results and problems (problem+json; 503 when the database is down or a
// statement timed out; 500 INTERNAL_ERROR for any other fault, such as a host hook that throws).

import * as crypto from 'node:crypto';
import type { Context } from 'koa';
import type { ModelQuery, ScopeHook } from './apply';
import { cachingFor, type Caching } from './cache-headers';
import { isUnavailable, problem, QueryError, raise } from './errors';
import type { ResolvedOptions } from './options';
import { LruMap, TotalsCache } from './caches';
import { createLane, ticketFor } from './lane';
import type { Summary } from './respond';
import { InFlightBytes } from './in-flight';
import { runPipeline, type PipelineCaches, type PipelineOutcome, type PipelineRequest } from './pipeline';
import type { PreparedQuery } from './prepared';
import { csvHeader, csvRows, serializeInSlices, Slices, type CsvColumn, type JsonRecord } from './respond';
import { exportStream } from './export-stream';
import { parseLsn, runOnReplicas, type ReplicaSet, type Server } from './replicas';
import type { Catalog, CollectionCatalog, ModelClass } from './schema';

export type RouteContext = Context & { params: Record<string, string> };

/** What the plugin tells the host about a request it answered, e.g. for access logs. */
export interface RequestReport {
  collection?: string;
  statements?: number;
  code?: string;
  /** The error behind a 503 or a 500, for the host's request log. */
  error?: unknown;
  /** With replicas: the server that answered (`primary`, `replica-1`, or the name given). */
  server?: string;
  /** With replicas: the replica a first attempt failed on before `server` answered. */
  retriedFrom?: string;
  /** `heavy` when the request ran (or waited) in the heavy-request lane, else `cheap` (docs/scaling.md). */
  lane?: 'heavy' | 'cheap';
}

function report(ctx: Context): RequestReport {
  const state = ctx.state as { queryModifiers?: RequestReport };
  state.queryModifiers ??= {};
  return state.queryModifiers;
}

/** Sends `error` as application/problem+json with its status and headers, never cached. */
export function renderProblem(ctx: Context, error: QueryError): void {
  ctx.status = error.status;
  for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
  // An error depends on this request only; caching it would replay a mistake.
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = JSON.stringify(error.toBody());
  ctx.type = 'application/problem+json';
  report(ctx).code = error.code;
}

/** A body's SHA-1 in base64url: one call where Node has `crypto.hash` (20.12 and later), a Hash object before. */
const sha1: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha1', text, 'base64url')
    : (text) => crypto.createHash('sha1').update(text).digest('base64url');

/** The Content-Type of a JSON answer. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** Sets the headers of a 200 answer and its weak ETag; answers 304 when the client's If-None-Match already names it. */
function sendJson(ctx: Context, text: string | Buffer, etag: string, caching: Caching, type = JSON_TYPE): void {
  setSuccessHeaders(ctx, caching);
  ctx.etag = `W/"${etag}"`;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.body = text;
  ctx.type = type;
}

/** The status and headers every successful answer carries: Cache-Control, Vary, nosniff. */
function setSuccessHeaders(ctx: Context, caching: Caching): void {
  ctx.status = 200;
  ctx.set('Cache-Control', caching.cacheControl);
  for (const header of caching.vary) ctx.vary(header);
  ctx.set('X-Content-Type-Options', 'nosniff');
}

/**
 * Sends a JSON body with status 200, a weak ETag, the given Cache-Control and Vary headers; answers
 * 304 when the client's If-None-Match already names this body.
 */
export function renderJson(ctx: Context, body: unknown, caching: Caching): void {
  const text = JSON.stringify(body);
  sendJson(ctx, text, sha1(text), caching);
}

/**
 * `renderJson` for the records of a collection, written and hashed in slices that give way to other
 * requests (docs/reliability.md, What is bounded); the same bytes and ETag.
 */
async function renderRecords(
  ctx: Context,
  body: JsonRecord[] | { data: JsonRecord[] },
  caching: Caching,
  csv: readonly CsvColumn[] | undefined,
): Promise<void> {
  if (csv !== undefined) {
    // A page asked for as CSV: the records without their envelope (docs/query-language.md, "Export as CSV").
    const text = csvHeader(csv) + csvRows(Array.isArray(body) ? body : body.data, csv);
    ctx.set('Content-Disposition', attachment(ctx));
    sendJson(ctx, text, sha1(text), caching, CSV_TYPE);
    return;
  }
  const slices = new Slices();
  const chunks = await serializeInSlices(body, slices);
  if (slices.yielded === 0) {
    const text = chunks.join('');
    sendJson(ctx, text, sha1(text), caching);
    return;
  }
  // A long body is kept as bytes outside the JavaScript heap while it waits to be sent.
  const hash = crypto.createHash('sha1');
  const bytes: Buffer[] = [];
  for (const chunk of chunks) {
    const part = Buffer.from(chunk);
    hash.update(part);
    bytes.push(part);
    if (slices.due()) await slices.next();
  }
  sendJson(ctx, Buffer.concat(bytes), hash.digest('base64url'), caching);
}

/** The Content-Type of a CSV answer. */
const CSV_TYPE = 'text/csv; charset=utf-8';

/** `attachment; filename="users.csv"`: the collection's name, its quotes and backslashes escaped. */
function attachment(ctx: Context): string {
  const name = (ctx.state as { queryModifiers?: RequestReport }).queryModifiers?.collection ?? 'export';
  return `attachment; filename="${name.replace(/["\\]/g, '\\$&')}.csv"`;
}

/**
 * A whole-list export: status and headers now (no ETag: the body is not known before it is sent),
 * the body streamed batch by batch; a batch that fails cuts the connection (export-stream.ts).
 */
function renderExport(
  ctx: Context,
  options: ResolvedOptions,
  outcome: Extract<PipelineOutcome, { kind: 'export' }>,
  caching: Caching,
  inFlight: InFlightBytes,
): void {
  setSuccessHeaders(ctx, caching);
  ctx.set('Content-Disposition', attachment(ctx));
  const reported = report(ctx);
  ctx.body = exportStream(outcome.stream, {
    hold: (bytes) => inFlight.take(bytes),
    read: () => (reported.statements = (reported.statements ?? 0) + 1),
    failed: (error) => {
      options.logger.error('koa-query-modifiers: an export failed after it started; its connection is cut', error);
      reported.error = error;
    },
  });
  ctx.type = CSV_TYPE;
}

async function renderOutcome(
  ctx: Context,
  options: ResolvedOptions,
  caching: Caching,
  outcome: PipelineOutcome,
  inFlight: InFlightBytes,
): Promise<void> {
  const serializing = performance.now();
  if (outcome.kind === 'rows' && outcome.truncated) ctx.set('X-Result-Truncated', 'true');
  if (outcome.kind === 'export') renderExport(ctx, options, outcome, caching, inFlight);
  else {
    inFlight.hold(ctx.res, outcome.bytes);
    await renderRecords(ctx, outcome.kind === 'page' ? outcome.envelope : outcome.records, caching, outcome.csv);
  }
  const { parse, query, serialize, statements } = outcome.metrics;
  report(ctx).statements = statements;
  if (!options.serverTiming) return;
  const ms = (n: number) => n.toFixed(2);
  const server = options.replicas?.revealServer === true && report(ctx).server !== undefined ? `, db;desc="${report(ctx).server}"` : '';
  ctx.set(
    'Server-Timing',
    `parse;dur=${ms(parse)}, query;dur=${ms(query)}, serialize;dur=${ms(serialize + performance.now() - serializing)}${server}`,
  );
}

/** Runs the authorize hook for `collection` (a collection name, `_meta` or `_explain`). */
export async function authorize(ctx: Context, options: ResolvedOptions, collection: string): Promise<void> {
  if (options.authorize === undefined) return;
  const result = await options.authorize(ctx, collection);
  if (result === true) return;
  if (result === false) raise('FORBIDDEN', undefined, `You are not allowed to read ${collection}`);
  const detail = result.detail ?? (result.status === 401 ? 'Authentication is required' : `You are not allowed to read ${collection}`);
  const headers: Record<string, string> = {};
  if (result.status === 401) headers['WWW-Authenticate'] = ctx.response.get('WWW-Authenticate') || 'Bearer';
  throw new QueryError([problem(result.status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN', undefined, detail)], headers);
}

/**
 * Whether a 404 may name the collections: only to a client the authorize hook lets read `_meta`
 * (everyone when there is no hook). Example: with `authorize: () => false`, `GET /api/nope` says
 * `There is no collection "nope"` and nothing more.
 */
export async function mayListCollections(ctx: Context, options: ResolvedOptions): Promise<boolean> {
  if (options.authorize === undefined) return true;
  const before = ctx.response.headers;
  const result = await options.authorize(ctx, '_meta');
  // Asked only whether to list names: headers the hook sets meanwhile (such as WWW-Authenticate
  // when it refuses) do not belong on this 404.
  const after = ctx.response.headers;
  for (const name of Object.keys(after)) if (!(name in before)) ctx.remove(name);
  for (const [name, value] of Object.entries(before)) {
    if (value !== undefined && after[name] !== value) ctx.set(name, Array.isArray(value) ? value : String(value));
  }
  return result === true;
}

/** `nope`, `['users', 'posts']` -> the 404 `There is no collection "nope"; collections: users, posts`. */
export function unknownCollection(name: string, listed: readonly string[] | undefined): QueryError {
  const detail = `There is no collection "${name.slice(0, 100)}"`;
  return new QueryError([
    problem('UNKNOWN_COLLECTION', undefined, listed === undefined ? detail : `${detail}; collections: ${listed.join(', ')}`),
  ]);
}

/** The catalog entry of `name`, or the UNKNOWN_COLLECTION problem (naming the others only when allowed). */
export async function findCollection(ctx: Context, catalog: Catalog, options: ResolvedOptions, name: string): Promise<CollectionCatalog> {
  const collection = catalog.get(name);
  if (collection !== undefined) return collection;
  throw unknownCollection(name, (await mayListCollections(ctx, options)) ? [...catalog.keys()] : undefined);
}

/**
 * The host's `scopeModel` and `scope` hooks bound to this request, awaited in that order on every
 * query; undefined when the host has neither (then no builder is needed).
 */
function scopeHook(ctx: Context, options: ResolvedOptions): ScopeHook | undefined {
  const { scope, scopeModel } = options;
  if (scope === undefined && scopeModel === undefined) return undefined;
  return async (label: string, query: ModelQuery) => {
    if (scopeModel !== undefined) await unrun(query, () => scopeModel(ctx, query.modelClass() as unknown as ModelClass, query, label));
    if (scope !== undefined) await unrun(query, () => scope(ctx, label, query));
  };
}

/**
 * Awaits a host hook without letting it run the query it was handed. Objection builders are
 * thenable, so a hook that returns the builder (`(ctx, label, query) => query.where(...)`, or any
 * async hook ending in `return query`) would have it run, unfinished, where its result is awaited:
 * its `then` is hidden while the hook runs, and the hook's result is ignored.
 */
async function unrun(query: ModelQuery, hook: () => unknown): Promise<void> {
  Object.defineProperty(query, 'then', { value: undefined, configurable: true, writable: true });
  try {
    await hook();
  } finally {
    delete (query as { then?: unknown }).then;
  }
}

/** What the pipeline needs from the request: the raw query, the collection URL and the scope hook. */
export function pipelineRequest(ctx: Context, options: ResolvedOptions, collection: CollectionCatalog): PipelineRequest {
  return {
    queryString: ctx.querystring,
    // Koa 3's ctx.origin is the Origin request header, not this server's origin.
    path: `${ctx.protocol}://${ctx.host}${options.prefix}/${encodeURIComponent(collection.name)}`,
    scopeHook: scopeHook(ctx, options),
  };
}

/**
 * Answers a fault that is neither the client's mistake nor the database being unavailable (a host
 * hook that throws, a bug): `500 INTERNAL_ERROR` with a generic detail. The error goes to the
 * configured logger and to `ctx.state.queryModifiers.error`, never to the client: its message may
 * name tables, hosts or the hook's internals.
 */
export function renderFault(ctx: Context, options: ResolvedOptions, error: unknown): void {
  options.logger.error('koa-query-modifiers: internal error', error);
  report(ctx).error = error;
  // Headers set before the fault (ETag, Server-Timing, X-Result-Truncated) describe an answer that was not sent.
  for (const name of ['ETag', 'Server-Timing', 'X-Result-Truncated']) ctx.remove(name);
  renderProblem(
    ctx,
    new QueryError([problem('INTERNAL_ERROR', undefined, 'The server failed to answer this request; the error has been logged')]),
  );
}

/** Wraps a route: client problems become problem+json, an unavailable database 503, any other fault 500. */
export function guarded(options: ResolvedOptions, work: (ctx: RouteContext) => Promise<void>) {
  return async (ctx: RouteContext): Promise<void> => {
    try {
      await work(ctx);
    } catch (error) {
      if (error instanceof QueryError) {
        renderProblem(ctx, error);
        return;
      }
      if (!isUnavailable(error)) {
        renderFault(ctx, options, error);
        return;
      }
      options.logger.error('koa-query-modifiers: database unavailable', error);
      report(ctx).error = error;
      renderProblem(
        ctx,
        new QueryError([problem('SERVICE_UNAVAILABLE', undefined, 'The database is not answering right now; try again shortly')], {
          'Retry-After': '1',
        }),
      );
    }
  };
}

/**
 * How many queries' planner estimates are kept: a statement's text is at most a few times the query
 * string's length (`limits.maxQueryLength`), so a few megabytes at worst, far less in practice.
 */
const ESTIMATES_KEPT = 256;

/** What one router's collection routes share: the caches, and the bytes of the responses in flight. */
export interface RouteShared extends PipelineCaches {
  readonly inFlight: InFlightBytes;
}

/** The caches one router's collection routes share (prepared queries, estimates, totals), and its bytes in flight. */
export function createCaches(options: ResolvedOptions): RouteShared {
  const totals = options.totalsCache;
  return {
    inFlight: new InFlightBytes(options.maxInFlightBytes),
    // Off (`planCache: 0`): nothing is kept, so nothing is weighed or stored either.
    plans:
      options.planCache === undefined || options.planCache.maxEntries === 0 || options.planCache.maxBytes === 0
        ? undefined
        : new LruMap<string, PreparedQuery>(options.planCache, (_, prepared) => prepared.bytes),
    estimates: options.estimateTtlSeconds > 0 ? new TotalsCache(options.estimateTtlSeconds * 1000, ESTIMATES_KEPT) : undefined,
    totals: totals === undefined ? undefined : new TotalsCache(totals.ttlSeconds * 1000, totals.maxEntries),
    lane: createLane(options),
    summaries: totals === undefined ? undefined : new TotalsCache<Summary>(totals.ttlSeconds * 1000, totals.maxEntries),
  };
}

/** Beyond any WAL position: a `readAfter` value that is not one sends the request to the primary. */
const UNREADABLE_POSITION = 1n << 64n;

/** The WAL position the host's `readAfter` hook asks this request to include, if any. */
async function requiredPosition(ctx: Context, options: ResolvedOptions): Promise<bigint | undefined> {
  const readAfter = options.replicas?.readAfter;
  if (readAfter === undefined) return undefined;
  const value = await readAfter(ctx);
  if (value === undefined || value === '') return undefined;
  return parseLsn(value) ?? UNREADABLE_POSITION;
}

/**
 * Runs the pipeline on one server chosen for this request, all of its statements there. A replica
 * that turns out unavailable, or does not answer within `replicas.queryTimeoutMs`, is taken out of
 * rotation and the request runs again elsewhere (reads repeat safely), so a failing or hung replica
 * costs the client time, not an error.
 */
async function answer(
  ctx: Context,
  options: ResolvedOptions,
  collection: CollectionCatalog,
  caches: PipelineCaches,
  replicas?: ReplicaSet,
): Promise<PipelineOutcome> {
  const lane = caches.lane === undefined ? undefined : ticketFor(ctx, caches.lane);
  let streaming = false;
  try {
    const request = {
      ...pipelineRequest(ctx, options, collection),
      queryString: negotiated(ctx),
      ...(lane === undefined ? {} : { lane }),
    };
    const outcome = await answerOn(ctx, options, collection, caches, request, replicas);
    streaming = outcome.kind === 'export';
    return outcome;
  } finally {
    if (lane !== undefined) {
      report(ctx).lane = lane.heavy ? 'heavy' : 'cheap';
      // Given back before the answer is serialised: the database is done with it. An export reads
      // batch after batch while it is sent: its turn is given back when its response closes.
      if (!streaming || ctx.res.closed) lane.release();
      else ctx.res.once('close', () => lane.release());
    }
  }
}

/** Whether the query string chooses the format itself (`format=...`): then Accept does not. */
const choosesFormat = (queryString: string): boolean => /(?:^|&)format=/.test(queryString);

/**
 * The query string the pipeline reads: as sent, with `format=csv` added when it names no `format` and
 * the Accept header prefers `text/csv` to `application/json` (docs/query-language.md, "Export as CSV").
 */
function negotiated(ctx: Context): string {
  const query = ctx.querystring;
  if (!ctx.get('Accept').includes('text/csv') || choosesFormat(query)) return query;
  if (ctx.accepts('application/json', 'text/csv') !== 'text/csv') return query;
  return query === '' ? 'format=csv' : `${query}&format=csv`;
}

/** The answer's caching headers: Vary names Accept too when Accept chose between JSON and CSV. */
function cachingOf(ctx: Context, options: ResolvedOptions, collection: string): Caching {
  const caching = cachingFor(options, collection);
  return choosesFormat(ctx.querystring) ? caching : { ...caching, vary: [...caching.vary, 'Accept'] };
}

/** answer() on one server, or on the replicas in turn: every attempt shares the request's lane ticket. */
async function answerOn(
  ctx: Context,
  options: ResolvedOptions,
  collection: CollectionCatalog,
  caches: PipelineCaches,
  request: PipelineRequest,
  replicas: ReplicaSet | undefined,
): Promise<PipelineOutcome> {
  if (replicas === undefined) return runPipeline(collection, options, request, caches);
  const settings = {
    after: await requiredPosition(ctx, options),
    timeoutMs: options.replicas?.queryTimeoutMs ?? Number.POSITIVE_INFINITY,
    retried: (from: Server) => (report(ctx).retriedFrom = from.name),
  };
  return runOnReplicas(replicas, settings, (server) => {
    report(ctx).server = server.name;
    return runPipeline(collection, options, { ...request, knex: server.knex }, caches);
  });
}

/** Handles `GET <prefix>/<collection>` (and HEAD) for one collection. */
export function collectionRoute(collection: CollectionCatalog, options: ResolvedOptions, caches: RouteShared, replicas?: ReplicaSet) {
  return guarded(options, async (ctx) => {
    report(ctx).collection = collection.name;
    await authorize(ctx, options, collection.name);
    caches.inFlight.admit();
    const outcome = await answer(ctx, options, collection, caches, replicas);
    await renderOutcome(ctx, options, cachingOf(ctx, options, collection.name), outcome, caches.inFlight);
  });
}
