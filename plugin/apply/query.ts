// Turns a compiled query (compiled.ts) into statements and runs them: the page (or rows) query, the
// expansions (expansions.ts) and the count the envelope needs. Rows come back plain through knex: the response
// needs plain rows, and Objection's model instances and eager loading cost more than the whole
// rest of a request (docs/benchmarks.md).
//
// Two ways to the same SQL. When the host has a `scope` hook, a model with its own query builder or
// query(), or a relation modifier, the statement is an Objection query builder, so those see the
// API they know. Otherwise the statement text is sent as it is: compiling a builder costs more CPU
// than everything else the plugin does for a request.

import type { Knex } from 'knex';
import type { CompiledQuery } from './compiled';
import { loadExpansion } from './expansions';
import {
  applyConditions, applySelectAndOrder, viaBuilder, viaText, type ModelQuery, type Row, type Runnable, type ScopeHook,
} from './runnable';
import { countStatement, selectStatement, type Statement } from './statements';

export type { ModelQuery, Row, Runnable, ScopeHook } from './runnable';

export interface PlannedQueries {
  /** The page (or rows) query of the root collection, before it runs. */
  readonly rows: Runnable;
  /** The count of all matching rows, for the envelope: the same filtered and scoped query, counted. */
  readonly count: Runnable;
  /** Runs the rows query and loads every expansion into the rows; reports the statements run. */
  readonly run: () => Promise<{ readonly rows: Row[]; readonly statements: number }>;
}

/** The root's rows and count statements, written without a builder. */
export interface RootStatements {
  readonly rows: Statement;
  readonly count: Statement;
}

function rootWindow(compiled: CompiledQuery): { limit: number; offset: number } {
  const { paging } = compiled;
  if (paging.kind === 'page') return { limit: paging.pageSize, offset: (paging.page - 1) * paging.pageSize };
  // One row past the cap tells whether the response was cut (decisions.md 28).
  return { limit: paging.truncatable ? paging.limit + 1 : paging.limit, offset: paging.offset };
}

/**
 * The root statements' text when a plain model makes a builder unnecessary; undefined otherwise.
 * Assembled for each request from the compiled parts, which keep the shared conditions once.
 */
export function rootStatements(compiled: CompiledQuery): RootStatements | undefined {
  if (!compiled.plain) return undefined;
  const { root } = compiled;
  let count: Statement | undefined;
  return {
    rows: selectStatement({ select: root.select, from: root.from, where: root.where, order: root.order, ...rootWindow(compiled) }),
    // Only an envelope whose total the page does not tell needs it: written on first use.
    get count() {
      count ??= countStatement(root.from, root.where);
      return count;
    },
  };
}

/** `filter[id]=>=5&sort[name]=desc&per-page=10` -> a page query and a count query on `users`. */
export async function planQueries(compiled: CompiledQuery, knex: Knex, hook?: ScopeHook): Promise<PlannedQueries> {
  const { collection, paging, expansions, root } = compiled;
  let rows: Runnable;
  let count: Runnable;
  const direct = hook === undefined ? rootStatements(compiled) : undefined;
  if (direct !== undefined) {
    rows = viaText(knex, direct.rows);
    count = viaText(knex, () => direct.count);
  } else {
    const { limit, offset } = rootWindow(compiled);
    const base = collection.modelClass.query(knex) as ModelQuery;
    applyConditions(base, root.where);
    await hook?.(collection.name, base);
    // Counting the scoped query as a subquery stays right whatever the hook added (joins, distinct).
    count = viaBuilder(knex, knex.count({ count: '*' }).from(base.clone().toKnexQuery().as('counted')));
    const query = base.clone();
    applySelectAndOrder(query, knex, root.select, root.order);
    query.limit(limit);
    if (offset > 0) query.offset(offset);
    rows = viaBuilder(knex, query);
  }
  const run = async () => {
    const found = await rows.rows();
    // Rows past the cap are dropped before expanding: they are never shown.
    const parents = paging.kind === 'rows' && paging.truncatable && found.length > paging.limit ? found.slice(0, paging.limit) : found;
    let statements = 1;
    if (parents.length > 0 && expansions.length > 0) {
      const loaded = await Promise.all(expansions.map((expansion) => loadExpansion(parents, knex, expansion, hook)));
      statements += loaded.reduce((sum, n) => sum + n, 0);
    }
    return { rows: found, statements };
  };
  return { rows, count, run };
}
