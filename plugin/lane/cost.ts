// What a request weighs: heavy when it sorts by a relation field or a count, or when the planner's
// cost of its rows statement, plus its facets and stats statement when it has one, passes
// `limits.heavyCost`; refused when that cost passes `limits.maxCost`. The cost is asked once per
// compiled query (an EXPLAIN of each, without running them) and kept with it in the plan cache
// (docs/configuration.md, heavy requests).

import type { Knex } from 'knex';
import { planSummary, rootStatements, type PlannedQueries, type Row, type Runnable } from '../apply';
import { viaText } from '../apply/runnable';
import { raise } from '../errors';
import type { ResolvedOptions } from '../options';
import { prepareQuery, type CostSlot, type PreparedQuery } from '../prepared';
import type { CollectionCatalog } from '../schema';
import { parseQueryString, querySegments } from '../syntax';

/** The top node's `Total Cost` of an `EXPLAIN (FORMAT JSON)` result (one row, one column). */
export function planCost(rows: readonly Row[]): number {
  const first = rows[0];
  const cell: unknown = first === undefined ? undefined : Object.values(first)[0];
  const plan: unknown = typeof cell === 'string' ? JSON.parse(cell) : cell;
  const top: unknown = Array.isArray(plan) ? (plan[0] as { Plan?: Record<string, unknown> } | undefined)?.Plan?.['Total Cost'] : undefined;
  if (typeof top !== 'number') throw new Error('koa-query-modifiers: the plan has no "Total Cost"');
  return top;
}

/** The EXPLAIN of a request's facets and stats statement, planned when first needed. */
export type SummaryExplain = () => Promise<Runnable>;

/** The planner's cost of the rows statement plus, with facets or stats, of their statement: both run for the request. */
async function askCost(explain: Runnable, summary: SummaryExplain | undefined): Promise<number> {
  const rows = planCost(await explain.rows());
  return summary === undefined ? rows : rows + planCost(await (await summary()).rows());
}

/**
 * The kept cost, or the planner asked now; requests arriving meanwhile wait for that one asking.
 * `asked` is called when this request is the one that sends it.
 */
function costOf(slot: CostSlot, explain: Runnable, summary: SummaryExplain | undefined, asked: () => void): number | Promise<number> {
  if (slot.value !== undefined) return slot.value;
  if (slot.asking !== undefined) return slot.asking;
  asked();
  slot.asking = askCost(explain, summary).then(
    (cost) => (slot.value = cost),
    (error: unknown) => {
      // Not kept: the next request asks again (the database may have been down a moment).
      slot.asking = undefined;
      throw error;
    },
  );
  return slot.asking;
}

/** Query keys that are not clauses: removing them changes what is shown, not what is searched and sorted. */
const UNWEIGHED = /^(page|per-page|limit|offset|cursor|total|fields|\w+_fields)$/;

/**
 * The parameter whose removal lowers the planner's cost most, e.g. `sort[comments_count]` for
 * `sort[author.name]&count[comments]&sort[comments_count]=desc`: each clause left out in turn and the
 * rest planned (on the plan's text, without hooks). Undefined when no clause can be left out alone.
 */
async function costliestClause(
  collection: CollectionCatalog,
  options: ResolvedOptions,
  queryString: string,
  knex: Knex,
  total: number,
): Promise<string | undefined> {
  const segments = querySegments(queryString);
  let best: { parameter: string; drop: number } | undefined;
  for (const [i, segment] of segments.entries()) {
    const parameter = parseQueryString(segment)[0]?.key;
    if (parameter === undefined || UNWEIGHED.test(parameter)) continue;
    let statement;
    let compiled;
    try {
      ({ compiled } = prepareQuery(collection, options, segments.filter((_, at) => at !== i).join('&')));
      statement = rootStatements({ ...compiled, plain: true })?.rows;
    } catch {
      // Another clause needs this one (a sort by the count it declares): not a clause of its own.
      continue;
    }
    if (statement === undefined) continue;
    const { summary } = compiled;
    const cost = await askCost(
      viaText(knex, { sql: `explain (format json) ${statement.sql}`, bindings: statement.bindings }),
      summary === undefined ? undefined : () => planSummary(collection, summary, true, knex, undefined, true),
    );
    const drop = total - cost;
    if (best === undefined || drop > best.drop) best = { parameter, drop };
  }
  return best?.parameter;
}

export interface Weighed {
  readonly heavy: boolean;
  /** Statements this request sent to find it: the EXPLAINs of a query seen for the first time (1, or 2 with facets or stats), else 0. */
  readonly statements: number;
}

const CHEAP: Weighed = Object.freeze({ heavy: false, statements: 0 });
const HEAVY: Weighed = Object.freeze({ heavy: true, statements: 0 });

interface WeighedRequest {
  readonly queryString: string;
  readonly knex: Knex;
  /** Whether the plan cache keeps the prepared query (and so its cost). */
  readonly kept: boolean;
  /** The EXPLAIN of its facets and stats statement; undefined without facets or stats. */
  readonly summary: SummaryExplain | undefined;
}

/**
 * Whether this request is heavy; throws LIMIT_EXCEEDED past `limits.maxCost`. A query whose cost is
 * kept is answered at once, without a promise. Without a plan cache nothing keeps the cost, and
 * asking the planner on every request is what the lane saves: only the sort decides then, and
 * `maxCost` is not checked.
 */
export function weighRequest(
  prepared: PreparedQuery,
  planned: PlannedQueries,
  options: ResolvedOptions,
  request: WeighedRequest,
): Weighed | Promise<Weighed> {
  const slot = prepared.cost;
  const asks = request.kept && (options.maxCost !== undefined || (!slot.heavySort && Number.isFinite(options.heavyCost)));
  if (!asks) return slot.heavySort ? HEAVY : CHEAP;
  const cost = slot.value;
  if (cost !== undefined && (options.maxCost === undefined || cost <= options.maxCost)) {
    return slot.heavySort || cost > options.heavyCost ? HEAVY : CHEAP;
  }
  return weighSlowly(prepared, planned, options, request);
}

/** weighRequest() for a query whose cost is not known yet, or is past `maxCost`. */
async function weighSlowly(
  prepared: PreparedQuery,
  planned: PlannedQueries,
  options: ResolvedOptions,
  request: WeighedRequest,
): Promise<Weighed> {
  const slot = prepared.cost;
  let statements = 0;
  const cost =
    slot.value ?? (await costOf(slot, planned.explainRows, request.summary, () => (statements = request.summary === undefined ? 1 : 2)));
  if (options.maxCost !== undefined && cost > options.maxCost) {
    const { collection } = prepared.compiled;
    slot.costliest ??= costliestClause(collection, options, request.queryString, request.knex, cost).catch((error: unknown) => {
      slot.costliest = undefined;
      throw error;
    });
    const parameter = await slot.costliest;
    raise(
      'LIMIT_EXCEEDED',
      parameter,
      `The planner expects this request to cost ${Math.round(cost)}, more than the ${options.maxCost} allowed` +
        (parameter === undefined ? '; ask for fewer clauses' : `; \`${parameter}\` costs the most, leave it out or narrow the filters`),
      options.maxCost,
    );
  }
  return { heavy: slot.heavySort || cost > options.heavyCost, statements };
}
