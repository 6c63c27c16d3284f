// Turns a ValidatedQuery into statements and runs them: the page (or rows) query, the expansions
// (expansions.ts) and the count the envelope needs. Rows come back plain through knex: the response
// needs plain rows, and Objection's model instances and eager loading cost more than the whole
// rest of a request (docs/benchmarks.md).
//
// Two ways to the same SQL. When the host has a `scope` hook, a model with its own query builder or
// query(), or a relation modifier, the statement is an Objection query builder, so those see the
// API they know; a relation condition's subquery is then the relation's own builder too. Otherwise
// the statement text is sent as it is: compiling a builder costs more CPU than everything else the
// plugin does for a request.

import type { Knex } from 'knex';
import { usesOwnQueryBuilder } from '../schema';
import type { ValidatedQuery } from '../validate';
import type { Fragment } from './sql';
import { loadExpansion } from './expansions';
import { builtSources, plainSources, splitJoins, textSources, type RelatedSources } from './sources';
import {
  applyConditions, applyJoins, applySelectAndOrder, viaBuilder, viaText, type ModelQuery, type Row, type Runnable, type ScopeHook,
} from './runnable';
import { countStatement, scopeSql, selectStatement, type ScopeSql, type Statement } from './statements';

export type { ModelQuery, Row, Runnable, ScopeHook } from './runnable';

export interface PlannedQueries {
  /** The page (or rows) query of the root collection, before it runs. */
  readonly rows: Runnable;
  /** The count of all matching rows, for the envelope: the same filtered and scoped query, counted. */
  readonly count: Runnable;
  /** Runs the rows query and loads every expansion into the rows; reports the statements run. */
  readonly run: () => Promise<{ readonly rows: Row[]; readonly statements: number }>;
}

const rootStatementsOf = new WeakMap<ValidatedQuery, RootStatements | undefined>();

/** The root's rows and count statements, written without a builder. */
export interface RootStatements {
  readonly rows: Statement;
  readonly count: Statement;
}

interface RootParts {
  readonly parts: ScopeSql;
  readonly limit: number;
  readonly offset: number;
  /** Joins the conditions read: in the count too. */
  readonly filtered: readonly Fragment[];
  /** Joins only the rows statement reads (sort keys, shown values), after the filtered ones. */
  readonly others: readonly Fragment[];
}

function rootParts(validated: ValidatedQuery, sources: RelatedSources): RootParts {
  const { root, paging, expansions } = validated;
  const parts = scopeSql(root, expansions.flatMap((e) => e.relation.ownerKeys), sources.exists);
  const { filtered, others } = splitJoins(root);
  const joins = { filtered: filtered.map(sources.join), others: others.map(sources.join) };
  if (paging.kind === 'page') return { parts, ...joins, limit: paging.pageSize, offset: (paging.page - 1) * paging.pageSize };
  // One row past the cap tells whether the response was cut (decisions.md 28).
  return { parts, ...joins, limit: paging.truncatable ? paging.limit + 1 : paging.limit, offset: paging.offset };
}

/**
 * The root statements' text when a plain model makes a builder unnecessary; undefined otherwise.
 * Worked out once per validated query (which the pipeline keeps between requests).
 */
export function rootStatements(validated: ValidatedQuery): RootStatements | undefined {
  if (rootStatementsOf.has(validated)) return rootStatementsOf.get(validated);
  let made: RootStatements | undefined;
  if (usesOwnQueryBuilder(validated.collection.modelClass) && plainSources(validated.root)) {
    const { parts, limit, offset, filtered, others } = rootParts(validated, textSources);
    made = {
      rows: selectStatement({ ...parts, joins: [...filtered, ...others], limit, offset }),
      count: countStatement(parts.from, parts.where, filtered),
    };
  }
  rootStatementsOf.set(validated, made);
  return made;
}

/** `filter[id]=>=5&sort[name]=desc&per-page=10` -> a page query and a count query on `users`. */
export async function planQueries(validated: ValidatedQuery, knex: Knex, hook?: ScopeHook): Promise<PlannedQueries> {
  const { collection, paging, expansions } = validated;
  let rows: Runnable;
  let count: Runnable;
  const direct = hook === undefined ? rootStatements(validated) : undefined;
  if (direct !== undefined) {
    rows = viaText(knex, direct.rows);
    count = viaText(knex, direct.count);
  } else {
    const { parts, limit, offset, filtered, others } = rootParts(validated, await builtSources(validated.root, knex, hook));
    const base = collection.modelClass.query(knex) as ModelQuery;
    applyJoins(base, filtered);
    applyConditions(base, parts.where);
    await hook?.(collection.name, base);
    // Counting the scoped query as a subquery stays right whatever the hook added (joins, distinct).
    count = viaBuilder(knex, knex.count({ count: '*' }).from(base.clone().toKnexQuery().as('counted')));
    const query = base.clone();
    applyJoins(query, others);
    applySelectAndOrder(query, knex, parts.select, parts.order);
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
