// Loads expanded relations: one statement per relation for all parents at once (`key = any(?)`, or a
// tuple `in` for composite keys; through the join table for many-to-many), grouped by key in
// memory and attached under the relation's name. No N+1.

import type { Knex } from 'knex';
import { usesOwnQueryBuilder } from '../schema';
import { raise } from '../errors';
import type { ValidatedExpansion } from '../validate';
import {
  applyConditions, applySelectAndOrder, joinOnBuilder, viaBuilder, viaText, type ModelQuery, type Row, type Runnable, type ScopeHook,
} from './runnable';
import { columnSql } from './sql';
import { joinThrough, keyIn, ownerAlias, ownerSelect, scopeSql, selectStatement, type ScopeSql, type Statement } from './statements';

/** The values of `columns` in `row` as one lookup key; undefined when any is NULL (NULL joins nothing). */
function keyOf(row: Row, columns: readonly string[]): string | undefined {
  let key = '';
  for (let i = 0; i < columns.length; i++) {
    const value = row[columns[i] as string];
    if (value === null || value === undefined) return undefined;
    key += i === 0 ? String(value) : `\u0000${String(value)}`;
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

/** What an expansion's statement is whatever the parents are. */
interface ExpansionParts {
  readonly parts: ScopeSql;
  readonly select: readonly string[];
  /** Qualified columns compared with the parents' keys: `"posts"."user_id"` or `"user_roles"."user_id"`. */
  readonly ownerColumns: readonly string[];
  readonly keyColumns: readonly string[];
  /** No builder needed: a plain related model, no relation or join-table `modify`. */
  readonly plain: boolean;
  /** Plain with one key column: the whole text, ending in `= any(?)` for the keys. */
  readonly text: Statement | undefined;
}

// Validated queries are kept by the pipeline, so what is worked out from them is kept with them.
const expansionPartsOf = new WeakMap<ValidatedExpansion, ExpansionParts>();

function expansionParts(expansion: ValidatedExpansion): ExpansionParts {
  const known = expansionPartsOf.get(expansion);
  if (known !== undefined) return known;
  const { relation, scope } = expansion;
  const { through } = relation;
  const parts = scopeSql(scope, through === undefined ? relation.relatedKeys : []);
  const select = [...parts.select, ...ownerSelect(relation)];
  const ownerColumns = (through === undefined ? relation.relatedKeys : through.ownerKeys).map(columnSql);
  const plain = usesOwnQueryBuilder(scope.catalog.modelClass) && relation.modify === undefined && through?.modify === undefined;
  const made: ExpansionParts = {
    parts,
    select,
    ownerColumns,
    keyColumns: through === undefined ? relation.relatedKeys.map((key) => key.name) : through.ownerKeys.map((_, i) => ownerAlias(i)),
    plain,
    text: plain && ownerColumns.length === 1
      ? selectStatement({ ...parts, select, join: joinThrough(relation), where: [...parts.where, keyIn(ownerColumns, [])], limit: expansion.maxRows + 1 })
      : undefined,
  };
  expansionPartsOf.set(expansion, made);
  return made;
}

/**
 * The related rows of every parent in one statement: `posts.user_id = any(?)`, or for a join table
 * `inner join user_roles on ... where user_roles.user_id = any(?)` with the owner key selected alongside.
 */
export async function expansionQuery(parents: readonly Row[], knex: Knex, expansion: ValidatedExpansion, hook?: ScopeHook): Promise<ExpansionQuery | undefined> {
  const { relation, scope } = expansion;
  const values = ownerValues(parents, relation.ownerKeys.map((key) => key.name));
  if (values.length === 0) return undefined;
  const { parts, select, ownerColumns, keyColumns, plain, text } = expansionParts(expansion);
  // One row past the cap tells that the expansion is too large, whatever the parents (decisions.md 42).
  const limit = expansion.maxRows + 1;
  if (hook === undefined && text !== undefined) {
    const bindings = [...text.bindings];
    bindings.splice(bindings.length - 1, 0, values);
    return { query: viaText(knex, { sql: text.sql, bindings }), keyColumns };
  }
  const ownedBy = keyIn(ownerColumns, values);
  if (hook === undefined && plain) {
    const statement = selectStatement({ ...parts, select, join: joinThrough(relation), where: [...parts.where, ownedBy], limit });
    return { query: viaText(knex, statement), keyColumns };
  }
  const query = scope.catalog.modelClass.query(knex) as ModelQuery;
  applySelectAndOrder(query, knex, select, parts.order);
  applyConditions(query, parts.where);
  if (relation.modify !== undefined) query.modify(relation.modify);
  await hook?.(scope.catalog.label, query);
  joinOnBuilder(query, knex, relation);
  query.whereRaw(ownedBy.sql, [...ownedBy.bindings] as Knex.RawBinding[]);
  query.limit(limit);
  return { query: viaBuilder(knex, query), keyColumns };
}

function tooManyRelated(expansion: ValidatedExpansion): never {
  return raise('LIMIT_EXCEEDED', expansion.parameter,
    `\`${expansion.parameter}\` would load more than ${expansion.maxRows} related records for this page; `
    + 'ask for fewer parents (per-page, limit) or narrow the related records with the alias\'s filter, in, between or search',
    expansion.maxRows);
}

/** Loads one expansion for all parents and attaches it under the relation's name; returns statements run. */
export async function loadExpansion(parents: readonly Row[], knex: Knex, expansion: ValidatedExpansion, hook?: ScopeHook): Promise<number> {
  const { relation } = expansion;
  const planned = await expansionQuery(parents, knex, expansion, hook);
  const byOwner = new Map<string, Row[]>();
  if (planned !== undefined) {
    const rows = await planned.query.rows();
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
    parent[relation.name] = relation.cardinality === 'many' ? related ?? [] : related?.[0] ?? null;
  }
  return planned === undefined ? 0 : 1;
}
