// How a page's envelope gets its total
// (docs/query-language.md, "Totals: total=exact, estimated, none"): the page itself when it shows
// the end of the results, else a count (exact), or a count capped at `estimateAbove` + 1 rows
// followed, past that, by PostgreSQL's planner estimate (estimated), which is kept for
// `pagination.estimateTtlSeconds`, or under a scope hook by that count alone (a lower bound);
// totals are kept in the totals cache when it is on.

import type { PlannedQueries, Row, Runnable } from './apply';
import type { TotalsCache, TotalsLookup } from './caches';
import type { ResolvedOptions } from './options';
import type { ValidatedTotal } from './validate';

export interface PageTotal {
  readonly total: number;
  /** Set only for `total=estimated`: whether `total` is the planner's estimate. */
  readonly isEstimate?: boolean;
  /** Statements run to find it (0 when the page or the cache told it). */
  readonly statements: number;
}

export interface PageTotalRequest {
  readonly page: number;
  readonly pageSize: number;
  readonly total: Exclude<ValidatedTotal, { kind: 'none' }>;
  /** How many records the page holds. */
  readonly shown: number;
  /**
   * Whether the planner's estimate may be given past `estimateAbove`: not under a scope hook unless
   * the collection opts in (`pagination.plannerEstimatesUnderScope`), since it counts hidden rows.
   */
  readonly plannerEstimates: boolean;
}

const countOf = (rows: readonly Row[]): number => Number(rows[0]?.count ?? 0);

/**
 * Whether `total=estimated` may give the planner's estimate for `collection`: without a `scope` or
 * `scopeModel` hook, or where the collection opts in (`pagination.plannerEstimatesUnderScope`).
 */
export function plannerEstimatesFor(options: ResolvedOptions, collection: string): boolean {
  if (options.scope === undefined && options.scopeModel === undefined) return true;
  const setting = options.plannerEstimatesUnderScope;
  if (typeof setting === 'boolean') return setting;
  return Object.prototype.hasOwnProperty.call(setting, collection) && setting[collection] === true;
}

/** The top node's `Plan Rows` of an `EXPLAIN (FORMAT JSON)` result (one row, one column). */
export function planRows(rows: readonly Row[]): number {
  const first = rows[0];
  const cell: unknown = first === undefined ? undefined : Object.values(first)[0];
  const plan: unknown = typeof cell === 'string' ? JSON.parse(cell) : cell;
  const top: unknown = Array.isArray(plan) ? (plan[0] as { Plan?: Record<string, unknown> } | undefined)?.Plan?.['Plan Rows'] : undefined;
  if (typeof top !== 'number') throw new Error('koa-query-modifiers: the plan has no "Plan Rows"');
  return top;
}

/**
 * Exact up to `estimateAbove` records (the capped count, run on every request), the planner's
 * estimate past it, never below `estimateAbove` + 1; the estimate as kept in `estimates` when it is
 * there and fresh, else planned now (one more statement). Without `planner`, `estimateAbove` + 1
 * past it: what the capped count proves, and nothing about the rows a scope hides.
 */
async function estimate(
  queries: NonNullable<PlannedQueries['estimated']>,
  { estimateAbove, planner }: { readonly estimateAbove: number; readonly planner: boolean },
  ran: () => void,
  estimates: TotalsCache | undefined,
): Promise<number> {
  ran();
  const counted = countOf(await queries.capped.rows());
  if (counted <= estimateAbove || !planner) return counted;
  const plan = () => {
    ran();
    return queries.estimate.rows().then(planRows);
  };
  const planned = await (estimates === undefined ? plan() : estimates.get(cacheKey(queries.estimate), plan).total);
  return Math.max(Math.round(planned), estimateAbove + 1);
}

function cacheKey(statement: Runnable): string {
  const { sql, bindings } = statement.toSQL();
  return `${sql}\u0000${JSON.stringify(bindings)}`;
}

/** `per-page=15&page=2` over 23 matches -> `{total: 23, statements: 0}` (the partial page tells it). */
export async function findTotal(
  planned: PlannedQueries,
  request: PageTotalRequest,
  { totals: cache, estimates }: { readonly totals?: TotalsLookup | undefined; readonly estimates?: TotalsCache | undefined },
): Promise<PageTotal> {
  const { page, pageSize, shown, total: mode } = request;
  const offset = (page - 1) * pageSize;
  // A partial page, or a short first page, tells the exact total without a count query.
  if ((shown > 0 || page === 1) && shown < pageSize) {
    return { total: offset + shown, ...(mode.kind === 'estimated' ? { isEstimate: false } : {}), statements: 0 };
  }
  let statements = 0;
  const ran = () => {
    statements++;
  };
  const queries = planned.estimated;
  if (mode.kind === 'estimated' && queries === undefined) throw new Error('koa-query-modifiers: no estimate statements were planned');
  const [statement, find] =
    mode.kind === 'estimated' && queries !== undefined
      ? [queries.capped, () => estimate(queries, { estimateAbove: mode.estimateAbove, planner: request.plannerEstimates }, ran, estimates)]
      : [
          planned.count,
          () => {
            ran();
            return planned.count.rows().then(countOf);
          },
        ];
  // The capped statement names the query and the cap, so an estimated total is kept under its own key.
  const value = await (cache === undefined ? find() : cache.get(cacheKey(statement), find).total);
  if (mode.kind === 'exact') return { total: value, statements };
  const isEstimate = value > mode.estimateAbove;
  // A full page proves its records exist, whatever the planner thought.
  return { total: isEstimate ? Math.max(value, offset + shown) : value, isEstimate, statements };
}
