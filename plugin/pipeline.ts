// The one place the stages meet: raw query string -> pairs -> QueryDescription -> ValidatedQuery ->
// compiled statement parts (kept between requests) -> queries (run through knex) -> records -> bare
// array or pagination envelope.

import type { Knex } from 'knex';
import { planQueries, ResponseBudget, type ScopeHook } from './apply';
import type { LruMap, TotalsCache } from './caches';
import { raise } from './errors';
import type { ResolvedOptions } from './options';
import { cursorPage, guardCursor, lookBehind } from './cursor-page';
import { findTotal, plannerEstimatesFor } from './page-total';
import {
  buildCursorEnvelope,
  buildEnvelope,
  buildSimpleEnvelope,
  shapeRecords,
  type CursorEnvelope,
  type Envelope,
  type JsonRecord,
  type SimpleEnvelope,
} from './respond';
import type { CollectionCatalog } from './schema';
import { prepareQuery, type PreparedQuery } from './prepared';
import { querySegments, type CursorToken } from './syntax';

export interface PipelineRequest {
  readonly queryString: string;
  /** The collection's absolute URL without a query, e.g. `http://localhost:3000/api/users`. */
  readonly path: string;
  /** The host's `scope` option bound to this request; undefined when the host has none. */
  readonly scopeHook: ScopeHook | undefined;
  /** The server every statement of this request goes to (a replica); default `options.knex`. */
  readonly knex?: Knex;
}

/**
 * Kept between requests: prepared queries by `<collection>?<query string>`, the planner's estimates
 * of `total=estimated` by their `EXPLAIN` statement, and (when on) totals.
 */
export interface PipelineCaches {
  readonly plans?: LruMap<string, PreparedQuery>;
  readonly estimates?: TotalsCache;
  readonly totals?: TotalsCache;
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
  | { readonly kind: 'page'; readonly envelope: Envelope | SimpleEnvelope | CursorEnvelope }
) & {
  readonly metrics: PipelineMetrics;
  /** The JSON text of the records read, in bytes, as the database measured it (limits.maxInFlightBytes). */
  readonly bytes: number;
};

/** Page links keep every other parameter as sent and replace only `page` (decisions.md 27), or `cursor` (43). */
function pageUrls(path: string, queryString: string, at: number, key = 'page'): (value: number | string) => string {
  const segments = querySegments(queryString);
  return (value) => {
    const query = [...segments];
    if (at === -1) query.push(`${key}=${value}`);
    else query[at] = `${key}=${value}`;
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
    raise(
      'LIMIT_EXCEEDED',
      undefined,
      `The query string is ${request.queryString.length} characters long; at most ${options.maxQueryLength} are allowed`,
      options.maxQueryLength,
    );
  }
  const { compiled, pageAt, cursorAt } = prepareQuery(collection, options, request.queryString, caches.plans);
  const planned = await planQueries(compiled, request.knex ?? options.knex, request.scopeHook);
  const parsed = performance.now();
  const { paging, root, expansions } = compiled;
  // What asks for fewer root records when they are what passes the byte budget (docs/configuration.md).
  const budget = new ResponseBudget(options.maxResponseBytes, paging.kind === 'rows' ? 'limit' : 'per-page');
  const { rows, statements: ran, readBoundary } = await guardCursor(compiled, planned.run(budget));
  const { bytes } = budget;
  let statements = ran;
  const metrics = (queried: number, serialized: number): PipelineMetrics => ({
    parse: parsed - started,
    query: queried - parsed,
    serialize: serialized - queried,
    statements,
  });
  if (paging.kind === 'rows') {
    const queried = performance.now();
    const truncated = paging.truncatable && rows.length > paging.limit;
    const records = shapeRecords(truncated ? rows.slice(0, paging.limit) : rows, root, expansions);
    return { kind: 'rows', records, truncated, metrics: metrics(queried, performance.now()), bytes };
  }
  if (paging.kind === 'cursor' && compiled.cursor !== undefined) {
    // The rows statement read the boundary row again, if it is still there (decisions.md 43); if not, the probe asks.
    const behind = await guardCursor(compiled, lookBehind(planned.probe, readBoundary));
    statements += behind.statements;
    const seal = (token: CursorToken): string => options.cursorSeal.seal(collection.name, token);
    const page = cursorPage(paging, compiled.cursor, rows, behind.found, seal);
    const queried = performance.now();
    const envelope = buildCursorEnvelope(shapeRecords(page.rows, root, expansions), {
      pageSize: paging.pageSize,
      path: request.path,
      nextCursor: page.nextCursor,
      prevCursor: page.prevCursor,
      cursorUrl: pageUrls(request.path, request.queryString, cursorAt, 'cursor'),
    });
    return { kind: 'page', envelope, metrics: metrics(queried, performance.now()), bytes };
  }
  if (paging.kind === 'cursor') throw new Error('koa-query-modifiers: cursor paging without its compiled seek');
  const pageUrl = pageUrls(request.path, request.queryString, pageAt);
  if (paging.total.kind === 'none') {
    // One row was read past the page: it only tells that a next page exists (decisions.md 44).
    const shown = rows.slice(0, paging.pageSize);
    const queried = performance.now();
    const envelope = buildSimpleEnvelope(shapeRecords(shown, root, expansions), {
      page: paging.page,
      pageSize: paging.pageSize,
      hasMore: rows.length > paging.pageSize,
      path: request.path,
      pageUrl,
    });
    return { kind: 'page', envelope, metrics: metrics(queried, performance.now()), bytes };
  }
  const found = await findTotal(
    planned,
    {
      page: paging.page,
      pageSize: paging.pageSize,
      total: paging.total,
      shown: rows.length,
      plannerEstimates: plannerEstimatesFor(options, collection.name),
    },
    caches,
  );
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
  return { kind: 'page', envelope, metrics: metrics(queried, performance.now()), bytes };
}
