// What a query string means for a collection, parsed, validated and compiled once and kept between
// requests (the plan cache). A cursor page is kept once per query, not once per cursor: every page of
// a walk has its own `cursor=` value, so keyed by the whole string each page would be compiled anew
// and would push the queries that do repeat out of the cache. The cursor's value is checked for each
// request against the kept query's sort, and only its seek is written again (docs/query-language.md, cursors). The
// cursor is opened (cursor-seal.ts) before its direction picks the kept query: a cursor that does not
// open takes the full path, whose validation refuses it.

import { compiledBytes, compileQuery, cursorSqlAt, stringBytes, type CompiledQuery } from './apply';
import type { LruMap } from './caches';
import type { CollectionCatalog } from './schema';
import { describeQuery, parseQueryString, type CursorToken } from './syntax';
import { checkCursor, validateQuery, type CursorOpener, type ValidationLimits } from './validate';

/**
 * What a query string means for a collection; depends on nothing else, so it is kept between
 * requests. Only what answering it again needs: no pairs, no parse, no validated clauses.
 */
export interface PreparedQuery {
  readonly compiled: CompiledQuery;
  /** Where `page` is among the query string's segments (page links replace it); -1 when absent. */
  readonly pageAt: number;
  /** Where `cursor` is among them (cursor links replace it, docs/query-language.md, "Cursors: cursor"); -1 when absent. */
  readonly cursorAt: number;
  /** What keeping it costs, key included: the plan cache's weight of this entry (0 when there is no cache to keep it). */
  readonly bytes: number;
  /** What the heavy-request lane needs to know of it, kept with it (lane/cost.ts). */
  readonly cost: CostSlot;
}

/**
 * A compiled query's cost, asked of the planner once and kept with the query in the plan cache
 * (docs/configuration.md, heavy requests). Mutable: filled in by the first request that needs it.
 */
export interface CostSlot {
  /** It sorts by a relation field or a count: heavy whatever the planner says. */
  readonly heavySort: boolean;
  /** The planner's total cost of the rows statement, once known. */
  value?: number;
  /** The EXPLAIN asking for it, while it runs. */
  asking?: Promise<number>;
  /** Past `limits.maxCost`: the parameter whose removal lowers the cost most, once found. */
  costliest?: Promise<string | undefined>;
}

/** The plan cache's Map slot and the PreparedQuery object around the compiled query. */
const ENTRY_BYTES = 96;

/** A request's one `cursor=<token>` segment, and the cache key of every request that differs from it only there. */
interface KeptCursor {
  readonly token: CursorToken;
  readonly key: string;
}

/**
 * `users` + `sort[name]&cursor=Jx9…` -> the key `\0users?sort[name]&cursor=next.1`: what the compiled
 * query depends on is the cursor's direction and whether it has a boundary row, not its values. A
 * NUL starts the key, which no `<collection>?<query string>` key does. Undefined when the string has
 * no cursor with a boundary, or one that does not open (the full parse then reports it).
 */
function keptCursor(collection: string, queryString: string, seal: CursorOpener): KeptCursor | undefined {
  // Found in the raw string, not split into segments: this runs on every request of a walk.
  const segment = queryString.startsWith('cursor=') ? 0 : queryString.indexOf('&cursor=') + 1;
  if (segment === 0 && !queryString.startsWith('cursor=')) return undefined;
  const from = segment + 'cursor='.length;
  const to = queryString.indexOf('&', from);
  const token = seal.open(collection, to === -1 ? queryString.slice(from) : queryString.slice(from, to));
  if (token === undefined || token.at === null) return undefined;
  const rest = to === -1 ? '' : queryString.slice(to);
  return { token, key: `\u0000${collection}?${queryString.slice(0, from)}${token.direction}.1${rest}` };
}

/** A kept cursor query for this request's cursor: checked against the kept sort, its seek written for its values. */
function atCursor(kept: PreparedQuery, token: CursorToken): PreparedQuery {
  const { compiled } = kept;
  if (compiled.paging.kind !== 'cursor' || compiled.cursor === undefined) return kept;
  const cursor = checkCursor(token, compiled.cursor.sort);
  return Object.freeze({
    ...kept,
    compiled: Object.freeze({
      ...compiled,
      paging: Object.freeze({ ...compiled.paging, cursor }),
      cursor: cursorSqlAt(compiled.cursor, cursor),
    }),
  });
}

/** Parses, validates and compiles a query string, or takes the result from the cache. */
export function prepareQuery(
  collection: CollectionCatalog,
  limits: ValidationLimits,
  queryString: string,
  plans?: LruMap<string, PreparedQuery>,
): PreparedQuery {
  const cursor = plans === undefined ? undefined : keptCursor(collection.name, queryString, limits.cursorSeal);
  const key = cursor?.key ?? `${collection.name}?${queryString}`;
  const kept = plans?.get(key);
  if (kept !== undefined) return cursor === undefined ? kept : atCursor(kept, cursor.token);
  const pairs = parseQueryString(queryString);
  const validated = validateQuery(describeQuery(pairs), collection, limits);
  const compiled = compileQuery(validated);
  const { order, joins } = validated.root;
  const pageAt = pairs.findIndex((p) => p.key === 'page');
  const cursorAt = pairs.findIndex((p) => p.key === 'cursor');
  const prepared: PreparedQuery = Object.freeze({
    compiled,
    pageAt,
    cursorAt,
    // Weighed only to be kept: with the plan cache off, a request does not walk what it compiled.
    bytes: plans === undefined ? 0 : ENTRY_BYTES + stringBytes(key) + compiledBytes(compiled),
    cost: { heavySort: order.some((key) => joins.some((join) => join.column === key.column)) },
  });
  plans?.set(key, prepared);
  return prepared;
}
