// Turns a ValidatedQuery into statements and runs them: the page (or rows) query, the expansions
// (expansions.ts) and the count the envelope needs. Rows come back plain through knex: the response
// needs plain rows, and Objection's model instances and eager loading cost more than the whole
// rest of a request (docs/benchmarks.md).
//
// Two ways to the same SQL. When the host has a `scope` hook, a model with its own query builder or
// query(), or a relation modifier, the statement is an Objection query builder, so those see the
// API they know. Otherwise the statement text is sent as it is: compiling a builder costs more CPU
// than everything else the plugin does for a request.

import type { Knex } from 'knex';
import { usesOwnQueryBuilder } from '../schema';
import type { ValidatedQuery } from '../validate';
import { loadExpansion } from './expansions';
import {
  applyConditions, applySelectAndOrder, viaBuilder, viaExplain, viaText, type ModelQuery, type Row, type Runnable, type ScopeHook,
} from './runnable';
import {
  cappedCountStatement, countStatement, estimateStatement, scopeSql, selectStatement, type ScopeSql, type Statement,
} from './statements';

export type { ModelQuery, Row, Runnable, ScopeHook } from './runnable';

export interface PlannedQueries {
  /** The page (or rows) query of the root collection, before it runs. */
  readonly rows: Runnable;
  /** The count of all matching rows, for the envelope: the same filtered and scoped query, counted. */
  readonly count: Runnable;
  /** For `total=estimated` only (decisions.md 44): the count capped at `estimateAbove` + 1 rows, and the planner's plan. */
  readonly estimated?: EstimateQueries;
  /** Runs the rows query and loads every expansion into the rows; reports the statements run. */
  readonly run: () => Promise<{ readonly rows: Row[]; readonly statements: number }>;
}

export interface EstimateQueries {
  readonly capped: Runnable;
  readonly estimate: Runnable;
}

const rootStatementsOf = new WeakMap<ValidatedQuery, RootStatements | undefined>();

/** The root's rows and count statements, written without a builder. */
export interface RootStatements {
  readonly rows: Statement;
  readonly count: Statement;
  readonly capped?: Statement;
  readonly estimate?: Statement;
}

/** `estimateAbove` + 1 when the request asks for an estimated total; undefined otherwise. */
function estimateCap(validated: ValidatedQuery): number | undefined {
  const { paging } = validated;
  return paging.kind === 'page' && paging.total.kind === 'estimated' ? paging.total.estimateAbove + 1 : undefined;
}

function rootParts(validated: ValidatedQuery): { parts: ScopeSql; limit: number; offset: number } {
  const { root, paging, expansions } = validated;
  const parts = scopeSql(root, expansions.flatMap((e) => e.relation.ownerKeys));
  if (paging.kind === 'page') {
    // Without a total, one row past the page tells whether there is a next page (decisions.md 44).
    const limit = paging.total.kind === 'none' ? paging.pageSize + 1 : paging.pageSize;
    return { parts, limit, offset: (paging.page - 1) * paging.pageSize };
  }
  // One row past the cap tells whether the response was cut (decisions.md 28).
  return { parts, limit: paging.truncatable ? paging.limit + 1 : paging.limit, offset: paging.offset };
}

/**
 * The root statements' text when a plain model makes a builder unnecessary; undefined otherwise.
 * Worked out once per validated query (which the pipeline keeps between requests).
 */
export function rootStatements(validated: ValidatedQuery): RootStatements | undefined {
  if (rootStatementsOf.has(validated)) return rootStatementsOf.get(validated);
  let made: RootStatements | undefined;
  if (usesOwnQueryBuilder(validated.collection.modelClass)) {
    const { parts, limit, offset } = rootParts(validated);
    const cap = estimateCap(validated);
    made = {
      rows: selectStatement({ ...parts, limit, offset }),
      count: countStatement(parts.from, parts.where),
      ...(cap === undefined ? {} : { capped: cappedCountStatement(parts.from, parts.where, cap), estimate: estimateStatement(parts.from, parts.where) }),
    };
  }
  rootStatementsOf.set(validated, made);
  return made;
}

/** `filter[id]=>=5&sort[name]=desc&per-page=10` -> a page query and a count query on `users`. */
export async function planQueries(validated: ValidatedQuery, knex: Knex, hook?: ScopeHook): Promise<PlannedQueries> {
  const { collection, expansions } = validated;
  let rows: Runnable;
  let count: Runnable;
  let estimated: EstimateQueries | undefined;
  const direct = hook === undefined ? rootStatements(validated) : undefined;
  if (direct !== undefined) {
    rows = viaText(knex, direct.rows);
    count = viaText(knex, direct.count);
    if (direct.capped !== undefined && direct.estimate !== undefined) {
      estimated = { capped: viaText(knex, direct.capped), estimate: viaText(knex, direct.estimate) };
    }
  } else {
    const { parts, limit, offset } = rootParts(validated);
    const base = collection.modelClass.query(knex) as ModelQuery;
    applyConditions(base, parts.where);
    await hook?.(collection.name, base);
    // Counting the scoped query as a subquery stays right whatever the hook added (joins, distinct).
    count = viaBuilder(knex, knex.count({ count: '*' }).from(base.clone().toKnexQuery().as('counted')));
    const cap = estimateCap(validated);
    if (cap !== undefined) {
      estimated = {
        capped: viaBuilder(knex, knex.count({ count: '*' }).from(base.clone().limit(cap).toKnexQuery().as('capped'))),
        estimate: viaExplain(knex, base.clone()),
      };
    }
    const query = base.clone();
    applySelectAndOrder(query, knex, parts.select, parts.order);
    query.limit(limit);
    if (offset > 0) query.offset(offset);
    rows = viaBuilder(knex, query);
  }
  const run = async () => {
    const found = await rows.rows();
    // Rows past the cap (or the row read past a page without a total) are dropped before expanding: they are never shown.
    const shown = shownRows(validated);
    const parents = found.length > shown ? found.slice(0, shown) : found;
    let statements = 1;
    if (parents.length > 0 && expansions.length > 0) {
      const loaded = await Promise.all(expansions.map((expansion) => loadExpansion(parents, knex, expansion, hook)));
      statements += loaded.reduce((sum, n) => sum + n, 0);
    }
    return { rows: found, statements };
  };
  return { rows, count, ...(estimated === undefined ? {} : { estimated }), run };
}

/** How many of the rows read are shown: the rest only tell that there are more. */
function shownRows(validated: ValidatedQuery): number {
  const { paging } = validated;
  if (paging.kind === 'page') return paging.pageSize;
  return paging.limit;
}
