// The one place the stages meet: raw query string -> pairs -> QueryDescription -> ValidatedQuery ->
// compiled statement parts (kept between requests) -> queries (run through knex) -> records -> bare
// array or pagination envelope.

import type { Knex } from 'knex';
import { planQueries, planSummary, ResponseBudget, type ScopeHook } from './apply';
import type { LruMap, TotalsCache } from './caches';
import { raise } from './errors';
import type { ResolvedOptions } from './options';
import { cursorPage, guardCursor, lookBehind } from './cursor-page';
import { weighRequest, type HeavyLane, type LaneTicket } from './lane';
import { findTotal, plannerEstimatesFor } from './page-total';
import { findSummary } from './page-summary';
import { startExport, type CsvExportStream } from './export';
import {
  buildCursorEnvelope,
  csvColumns,
  buildEnvelope,
  buildSimpleEnvelope,
  shapeRecordsInSlices,
  Slices,
  type CsvColumn,
  type CursorEnvelope,
  type Envelope,
  type JsonRecord,
  type SimpleEnvelope,
  type Summary,
  withSummary,
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
  /** This request's hold on the heavy-request lane, shared by its attempts on replicas; none: no lane. */
  readonly lane?: LaneTicket;
}

/**
 * Kept between requests: prepared queries by `<collection>?<query string>`, the planner's estimates
 * of `total=estimated` by their `EXPLAIN` statement, and (when on) totals.
 */
export interface PipelineCaches {
  readonly plans?: LruMap<string, PreparedQuery>;
  readonly estimates?: TotalsCache;
  readonly totals?: TotalsCache;
  /** The heavy-request lane of the mount (docs/scaling.md); none: every request is let through. */
  readonly lane?: HeavyLane;
  /** Facets and stats, kept like totals (on with `totalsCache`). */
  readonly summaries?: TotalsCache<Summary>;
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
  /** A whole-list CSV export (docs/query-language.md, "Export as CSV"): its first batch read, the rest as the stream asks. */
  | { readonly kind: 'export'; readonly stream: CsvExportStream }
) & {
  readonly metrics: PipelineMetrics;
  /** The JSON text of the records read, in bytes, as the database measured it (limits.maxInFlightBytes). */
  readonly bytes: number;
  /** A page asked for as CSV: the columns its records are written in. */
  readonly csv?: readonly CsvColumn[];
};

/** Page links keep every other parameter as sent and replace only `page`, or `cursor` (docs/query-language.md, "The envelope"). */
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
  const prepared = prepareQuery(collection, options, request.queryString, caches.plans);
  const { compiled, pageAt, cursorAt } = prepared;
  const knex = request.knex ?? options.knex;
  // A whole-list export counts its records first, up to one past what it may send.
  const whole = compiled.csv?.whole === true;
  const planned = await planQueries(compiled, knex, request.scopeHook, whole ? options.maxExportRows + 1 : undefined);
  let weighing = 0;
  if (request.lane !== undefined) {
    const { queryString, scopeHook } = request;
    const { summary: facets } = compiled;
    // Facets and stats are one more statement of the request: their cost counts too.
    const summary = facets === undefined ? undefined : () => planSummary(collection, facets, compiled.plain, knex, scopeHook, true);
    // The EXPLAIN binds the request's values as the rows statement does: a cursor's are guarded alike.
    const asked = weighRequest(prepared, planned, options, { queryString, knex, kept: caches.plans !== undefined, summary });
    const weighed = asked instanceof Promise ? await guardCursor(compiled, asked) : asked;
    weighing = weighed.statements;
    // An export reads many batches: it takes a turn in the heavy lane and keeps it until its answer is sent.
    if (weighed.heavy || whole) await request.lane.enter();
  }
  const parsed = performance.now();
  if (whole) {
    const settings = { knex, hook: request.scopeHook, maxExportRows: options.maxExportRows, maxResponseBytes: options.maxResponseBytes };
    const stream = await startExport(compiled, planned, settings);
    const queried = performance.now();
    const metrics = { parse: parsed - started, query: queried - parsed, serialize: 0, statements: stream.statements + weighing };
    return { kind: 'export', stream, metrics, bytes: stream.first.bytes };
  }
  const csv = compiled.csv === undefined ? {} : { csv: csvColumns(compiled.root) };
  const { paging, root, expansions } = compiled;
  // What asks for fewer root records when they are what passes the byte budget (docs/configuration.md).
  const budget = new ResponseBudget(options.maxResponseBytes, paging.kind === 'rows' ? 'limit' : 'per-page');
  const { rows, statements: ran, readBoundary } = await guardCursor(compiled, planned.run(budget));
  const { bytes } = budget;
  // Shaping gives way to other requests every few milliseconds (docs/reliability.md, "What is bounded").
  const shape = (shown: typeof rows) => shapeRecordsInSlices(shown, root, expansions, new Slices());
  let statements = ran + weighing;
  const metrics = (queried: number, serialized: number): PipelineMetrics => ({
    parse: parsed - started,
    query: queried - parsed,
    serialize: serialized - queried,
    statements,
  });
  // Facets and stats: one statement of their own, for any envelope (docs/query-language.md, Facets and stats).
  const summarise = async () => {
    const found = await findSummary(compiled, request.knex ?? options.knex, request.scopeHook, caches.summaries);
    statements += found.statements;
    return found.summary;
  };
  if (paging.kind === 'rows') {
    const queried = performance.now();
    const truncated = paging.truncatable && rows.length > paging.limit;
    const records = await shape(truncated ? rows.slice(0, paging.limit) : rows);
    return { kind: 'rows', records, truncated, metrics: metrics(queried, performance.now()), bytes, ...csv };
  }
  if (paging.kind === 'cursor' && compiled.cursor !== undefined) {
    // The rows statement read the boundary row again, if it is still there (docs/query-language.md, "Cursors: cursor"); if not, the probe asks.
    const behind = await guardCursor(compiled, lookBehind(planned.probe, readBoundary));
    statements += behind.statements;
    const seal = (token: CursorToken): string => options.cursorSeal.seal(collection.name, token);
    const page = cursorPage(paging, compiled.cursor, rows, behind.found, seal);
    const summary = await summarise();
    const queried = performance.now();
    const envelope = buildCursorEnvelope(await shape(page.rows), {
      pageSize: paging.pageSize,
      path: request.path,
      nextCursor: page.nextCursor,
      prevCursor: page.prevCursor,
      cursorUrl: pageUrls(request.path, request.queryString, cursorAt, 'cursor'),
    });
    return { kind: 'page', envelope: withSummary(envelope, summary), metrics: metrics(queried, performance.now()), bytes, ...csv };
  }
  if (paging.kind === 'cursor') throw new Error('koa-query-modifiers: cursor paging without its compiled seek');
  const pageUrl = pageUrls(request.path, request.queryString, pageAt);
  if (paging.total.kind === 'none') {
    // One row was read past the page: it only tells that a next page exists (docs/query-language.md, "Totals: total=exact, estimated, none").
    const shown = rows.slice(0, paging.pageSize);
    const summary = await summarise();
    const queried = performance.now();
    const envelope = buildSimpleEnvelope(await shape(shown), {
      page: paging.page,
      pageSize: paging.pageSize,
      hasMore: rows.length > paging.pageSize,
      path: request.path,
      pageUrl,
    });
    return { kind: 'page', envelope: withSummary(envelope, summary), metrics: metrics(queried, performance.now()), bytes, ...csv };
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
  const summary = await summarise();
  const queried = performance.now();
  const envelope = buildEnvelope(await shape(rows), {
    page: paging.page,
    pageSize: paging.pageSize,
    total: found.total,
    ...(found.isEstimate === undefined ? {} : { isEstimate: found.isEstimate }),
    path: request.path,
    pageUrl,
  });
  return { kind: 'page', envelope: withSummary(envelope, summary), metrics: metrics(queried, performance.now()), bytes, ...csv };
}
