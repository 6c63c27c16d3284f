// The one place the stages meet: raw query string -> pairs -> QueryDescription -> ValidatedQuery ->
// queries (run through knex) -> records -> bare array or pagination envelope.

import type { Knex } from 'knex';
import { planQueries, type ScopeHook } from './apply';
import type { LruMap, TotalsCache } from './caches';
import { raise } from './errors';
import type { ResolvedOptions } from './options';
import { findTotal } from './page-total';
import { buildEnvelope, buildSimpleEnvelope, shapeRecords, type Envelope, type JsonRecord, type SimpleEnvelope } from './respond';
import type { CollectionCatalog } from './schema';
import { describeQuery, parseQueryString, type QueryPair } from './syntax';
import { validateQuery, type ValidatedQuery } from './validate';

export interface PipelineRequest {
  readonly queryString: string;
  /** The collection's absolute URL without a query, e.g. `http://localhost:3000/api/users`. */
  readonly path: string;
  /** The host's `scope` option bound to this request; undefined when the host has none. */
  readonly scopeHook: ScopeHook | undefined;
  /** The server every statement of this request goes to (a replica); default `options.knex`. */
  readonly knex?: Knex;
}

/** What a query string means for a collection; depends on nothing else, so it is kept between requests. */
export interface PreparedQuery {
  readonly pairs: readonly QueryPair[];
  /** Also holds what apply/ works out from it once, e.g. the statement text. */
  readonly validated: ValidatedQuery;
}

/** Kept between requests: prepared queries by `<collection>?<query string>`, and (when on) totals. */
export interface PipelineCaches {
  readonly plans?: LruMap<string, PreparedQuery>;
  readonly totals?: TotalsCache;
}

/** Parses and validates a query string, or takes the result from the cache. */
function prepare(collection: CollectionCatalog, options: ResolvedOptions, queryString: string, plans?: LruMap<string, PreparedQuery>): PreparedQuery {
  const key = `${collection.name}?${queryString}`;
  const kept = plans?.get(key);
  if (kept !== undefined) return kept;
  const pairs = parseQueryString(queryString);
  const validated = validateQuery(describeQuery(pairs), collection, options);
  const prepared = { pairs, validated };
  plans?.set(key, prepared);
  return prepared;
}

/** Milliseconds spent per stage, for the Server-Timing header, and the SQL statements run. */
export interface PipelineMetrics {
  readonly parse: number;
  readonly query: number;
  readonly serialize: number;
  readonly statements: number;
}

export type PipelineOutcome = (
  | { readonly kind: 'rows'; readonly records: JsonRecord[]; readonly truncated: boolean }
  | { readonly kind: 'page'; readonly envelope: Envelope | SimpleEnvelope }
) & { readonly metrics: PipelineMetrics };

/** Page links keep every other parameter as sent and replace only `page` (decisions.md 27). */
function pageUrls(path: string, pairs: readonly QueryPair[]): (page: number) => string {
  const segments = pairs.map((p) => p.raw);
  const at = pairs.findIndex((p) => p.key === 'page');
  return (page) => {
    const query = [...segments];
    if (at === -1) query.push(`page=${page}`);
    else query[at] = `page=${page}`;
    return `${path}?${query.join('&')}`;
  };
}

/** Answers `GET /api/users?<queryString>`; throws QueryError for client mistakes. */
export async function runPipeline(
  collection: CollectionCatalog,
  options: ResolvedOptions,
  request: PipelineRequest,
  caches: PipelineCaches = {},
): Promise<PipelineOutcome> {
  const started = performance.now();
  if (request.queryString.length > options.maxQueryLength) {
    raise('LIMIT_EXCEEDED', undefined,
      `The query string is ${request.queryString.length} characters long; at most ${options.maxQueryLength} are allowed`,
      options.maxQueryLength);
  }
  const { pairs, validated } = prepare(collection, options, request.queryString, caches.plans);
  const planned = await planQueries(validated, request.knex ?? options.knex, request.scopeHook);
  const parsed = performance.now();
  const { rows, statements: ran } = await planned.run();
  const { paging, root, expansions } = validated;
  let statements = ran;
  const metrics = (queried: number, serialized: number): PipelineMetrics =>
    ({ parse: parsed - started, query: queried - parsed, serialize: serialized - queried, statements });
  if (paging.kind === 'rows') {
    const queried = performance.now();
    const truncated = paging.truncatable && rows.length > paging.limit;
    const records = shapeRecords(truncated ? rows.slice(0, paging.limit) : rows, root, expansions);
    return { kind: 'rows', records, truncated, metrics: metrics(queried, performance.now()) };
  }
  const pageUrl = pageUrls(request.path, pairs);
  if (paging.total.kind === 'none') {
    // One row was read past the page: it only tells that a next page exists (decisions.md 44).
    const shown = rows.slice(0, paging.pageSize);
    const queried = performance.now();
    const envelope = buildSimpleEnvelope(shapeRecords(shown, root, expansions), {
      page: paging.page, pageSize: paging.pageSize, hasMore: rows.length > paging.pageSize, path: request.path, pageUrl,
    });
    return { kind: 'page', envelope, metrics: metrics(queried, performance.now()) };
  }
  const found = await findTotal(planned, { page: paging.page, pageSize: paging.pageSize, total: paging.total, shown: rows.length }, caches.totals);
  statements += found.statements;
  const queried = performance.now();
  const envelope = buildEnvelope(shapeRecords(rows, root, expansions), {
    page: paging.page,
    pageSize: paging.pageSize,
    total: found.total,
    ...(found.isEstimate === undefined ? {} : { isEstimate: found.isEstimate }),
    path: request.path,
    pageUrl,
  });
  return { kind: 'page', envelope, metrics: metrics(queried, performance.now()) };
}
