// Loads expanded relations: one statement per relation for all parents at once (`key = any(?)`, or a
// tuple `in` for composite keys; through the join table for many-to-many; a per-parent window in
// windows.ts), grouped by key in memory and attached under the relation's name, then their nested
// expansions the same way. No N+1.

import type { Knex } from 'knex';
import { raise } from '../errors';
import type { BudgetPart, ResponseBudget } from './budget';
import type { CompiledExpansion, Row } from './types';
import { relatedBuilder, relationParts } from './related';
import { viaBuilder, viaText, type Runnable, type ScopeHook } from './runnable';
import { keyIn, selectStatement } from './statements';
import { windowQuery } from './windows';

/** One key value as text: a JSON or array key by its JSON text, never `[object Object]` or `a,b`. */
function keyText(value: unknown): string {
  if (typeof value === 'object') return JSON.stringify(value);
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- not an object: a string, number, boolean or bigint as the driver reads it
  return String(value);
}

/** The values of `columns` in `row` as one lookup key; undefined when any is NULL (NULL joins nothing). */
function keyOf(row: Row, columns: readonly string[]): string | undefined {
  let key = '';
  for (let i = 0; i < columns.length; i++) {
    const value = row[columns[i] as string];
    if (value === null || value === undefined) return undefined;
    key += i === 0 ? keyText(value) : `\u0000${keyText(value)}`;
  }
  return key;
}

/** The distinct non-NULL owner key values of the parents, as `in` wants them (scalars or tuples). */
function ownerValues(parents: readonly Row[], columns: readonly string[]): unknown[] {
  const seen = new Map<string, unknown>();
  for (const row of parents) {
    const key = keyOf(row, columns);
    if (key === undefined || seen.has(key)) continue;
    seen.set(key, columns.length === 1 ? row[columns[0] as string] : columns.map((c) => row[c]));
  }
  return [...seen.values()];
}

export interface ExpansionQuery {
  readonly query: Runnable;
  /** The columns of each related row that hold its owner's key. */
  readonly keyColumns: readonly string[];
}

/**
 * The related rows of every parent in one statement: `posts.user_id = any(?)`, or for a join table
 * `inner join user_roles on ... where user_roles.user_id = any(?)` with the owner key selected alongside.
 */
export async function expansionQuery(
  parents: readonly Row[],
  knex: Knex,
  expansion: CompiledExpansion,
  hook?: ScopeHook,
): Promise<ExpansionQuery | undefined> {
  const { relation, scope } = expansion;
  const values = ownerValues(
    parents,
    relation.ownerKeys.map((key) => key.name),
  );
  if (values.length === 0) return undefined;
  const { ownerColumns, keyColumns, plain, join } = relationParts(relation);
  if (expansion.window !== undefined) return { query: await windowQuery(values, knex, expansion, hook), keyColumns };
  // One row past the cap tells that the expansion is too large, whatever the parents
  // (docs/query-language.md, "Cost limits").
  const limit = expansion.maxRows + 1;
  const ownedBy = keyIn(ownerColumns, values);
  if (hook === undefined && plain) {
    const statement = selectStatement({
      ...scope,
      join,
      ...(scope.ranks === undefined ? {} : { joins: scope.ranks }),
      where: [...scope.where, ownedBy],
      limit,
    });
    return { query: viaText(knex, statement), keyColumns };
  }
  const { query } = await relatedBuilder(knex, expansion, hook);
  query.whereRaw(ownedBy.sql, [...ownedBy.bindings] as Knex.RawBinding[]);
  query.limit(limit);
  return { query: viaBuilder(knex, query), keyColumns };
}

/** An expansion's records as a part of the response's byte budget (budget.ts). */
export function expansionPart(expansion: CompiledExpansion, records: readonly Row[]): BudgetPart {
  return {
    fieldsParameter: expansion.fieldsParameter,
    rowsParameter: expansion.limitParameter,
    fields: expansion.scope.output.map((column) => column.name),
    records: () => records,
  };
}

/**
 * LIMIT_EXCEEDED naming the alias's `_limit`: more than maxRelatedRows related rows for this page
 * (docs/query-language.md, "Cost limits").
 */
export function tooManyRelated(expansion: CompiledExpansion): never {
  const { parameter, limitParameter, maxRows } = expansion;
  const fewer = limitParameter === parameter ? '' : `fewer per parent (\`${limitParameter}\`), `;
  return raise(
    'LIMIT_EXCEEDED',
    limitParameter,
    `\`${parameter}\` would load more than ${maxRows} related records for this page; ask for fewer parents (per-page, limit), ${fewer}` +
      "or narrow the related records with the alias's filter, in, between or search",
    maxRows,
  );
}

/**
 * Loads one expansion for all parents and attaches it under the relation's name, then its nested
 * expansions for all of its rows, one statement per relation whatever the number of parents
 * (docs/query-language.md, "Nested expansion"); returns the statements run.
 */
export async function loadExpansion(
  parents: readonly Row[],
  knex: Knex,
  expansion: CompiledExpansion,
  hook?: ScopeHook,
  budget?: ResponseBudget,
): Promise<number> {
  const { relation } = expansion;
  const planned = await expansionQuery(parents, knex, expansion, hook);
  const byOwner = new Map<string, Row[]>();
  let rows: Row[] = [];
  if (planned !== undefined) {
    rows = budget === undefined ? await planned.query.rows() : await budget.read(planned.query, (got) => [expansionPart(expansion, got)]);
    if (rows.length > expansion.maxRows) tooManyRelated(expansion);
    for (const row of rows) {
      const key = keyOf(row, planned.keyColumns);
      if (key === undefined) continue;
      const list = byOwner.get(key);
      if (list === undefined) byOwner.set(key, [row]);
      else list.push(row);
    }
  }
  const ownerNames = relation.ownerKeys.map((key) => key.name);
  for (const parent of parents) {
    const key = keyOf(parent, ownerNames);
    const related = key === undefined ? undefined : byOwner.get(key);
    parent[relation.name] = relation.cardinality === 'many' ? (related ?? []) : (related?.[0] ?? null);
  }
  if (planned === undefined) return 0;
  if (rows.length === 0 || expansion.expansions.length === 0) return 1;
  const nested = await Promise.all(expansion.expansions.map((child) => loadExpansion(rows, knex, child, hook, budget)));
  return nested.reduce((sum, n) => sum + n, 1);
}
