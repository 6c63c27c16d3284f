// Loads expanded relations: one statement per relation for all parents at once (`key = any(?)`, or a
// tuple `in` for composite keys; through the join table for many-to-many), grouped by key in
// memory and attached under the relation's name. No N+1.

import type { Knex } from 'knex';
import { usesOwnQueryBuilder, type Column, type RelationCatalog } from '../schema';
import { raise } from '../errors';
import {
  applyConditions, applySelectAndOrder, viaBuilder, viaText, type ModelQuery, type Row, type Runnable, type ScopeHook,
} from './runnable';
import type { CompiledExpansion } from './compiled';
import { columnSql } from './sql';
import { joinThrough, keyIn, ownerAlias, selectStatement } from './statements';

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

/** The join the builder path needs: plain, or through the join table's own `modify`. */
function joinOnBuilder(query: ModelQuery, knex: Knex, relation: RelationCatalog): void {
  const through = relation.through;
  if (through === undefined) return;
  if (through.modify === undefined) {
    query.joinRaw(joinThrough(relation).trimStart());
    return;
  }
  const source = through.modelClass.query(knex).modify(through.modify).as(through.table) as unknown as string;
  query.join(source, (join) => {
    relation.relatedKeys.forEach((key, i) => join.on(`${key.table}.${key.column}`, `${through.table}.${(through.relatedKeys[i] as Column).column}`));
  });
}

export interface ExpansionQuery {
  readonly query: Runnable;
  /** The columns of each related row that hold its owner's key. */
  readonly keyColumns: readonly string[];
}

/** What a relation's statements need whatever the query: the same for every request, so worked out once. */
interface RelationParts {
  /** Qualified columns compared with the parents' keys: `"posts"."user_id"` or `"user_roles"."user_id"`. */
  readonly ownerColumns: readonly string[];
  readonly keyColumns: readonly string[];
  /** No builder needed: a plain related model, no relation or join-table `modify`. */
  readonly plain: boolean;
  /** The join through the join table, or `''`. */
  readonly join: string;
}

// Keyed by the catalog's relations, which live as long as the router: bounded by the declarations.
const relationPartsOf = new WeakMap<RelationCatalog, RelationParts>();

function relationParts(relation: RelationCatalog): RelationParts {
  const known = relationPartsOf.get(relation);
  if (known !== undefined) return known;
  const { through } = relation;
  const made: RelationParts = {
    ownerColumns: (through === undefined ? relation.relatedKeys : through.ownerKeys).map(columnSql),
    keyColumns: through === undefined ? relation.relatedKeys.map((key) => key.name) : through.ownerKeys.map((_, i) => ownerAlias(i)),
    plain: usesOwnQueryBuilder(relation.scope.modelClass) && relation.modify === undefined && through?.modify === undefined,
    join: joinThrough(relation),
  };
  relationPartsOf.set(relation, made);
  return made;
}

/**
 * The related rows of every parent in one statement: `posts.user_id = any(?)`, or for a join table
 * `inner join user_roles on ... where user_roles.user_id = any(?)` with the owner key selected alongside.
 */
export async function expansionQuery(parents: readonly Row[], knex: Knex, expansion: CompiledExpansion, hook?: ScopeHook): Promise<ExpansionQuery | undefined> {
  const { relation, scope } = expansion;
  const values = ownerValues(parents, relation.ownerKeys.map((key) => key.name));
  if (values.length === 0) return undefined;
  const { ownerColumns, keyColumns, plain, join } = relationParts(relation);
  // One row past the cap tells that the expansion is too large, whatever the parents (decisions.md 42).
  const limit = expansion.maxRows + 1;
  const ownedBy = keyIn(ownerColumns, values);
  if (hook === undefined && plain) {
    const statement = selectStatement({ ...scope, join, where: [...scope.where, ownedBy], limit });
    return { query: viaText(knex, statement), keyColumns };
  }
  const query = scope.catalog.modelClass.query(knex) as ModelQuery;
  applySelectAndOrder(query, knex, scope.select, scope.order);
  applyConditions(query, scope.where);
  if (relation.modify !== undefined) query.modify(relation.modify);
  await hook?.(scope.catalog.label, query);
  joinOnBuilder(query, knex, relation);
  query.whereRaw(ownedBy.sql, [...ownedBy.bindings] as Knex.RawBinding[]);
  query.limit(limit);
  return { query: viaBuilder(knex, query), keyColumns };
}

function tooManyRelated(expansion: CompiledExpansion): never {
  return raise('LIMIT_EXCEEDED', expansion.parameter,
    `\`${expansion.parameter}\` would load more than ${expansion.maxRows} related records for this page; `
    + 'ask for fewer parents (per-page, limit) or narrow the related records with the alias\'s filter, in, between or search',
    expansion.maxRows);
}

/** Loads one expansion for all parents and attaches it under the relation's name; returns statements run. */
export async function loadExpansion(parents: readonly Row[], knex: Knex, expansion: CompiledExpansion, hook?: ScopeHook): Promise<number> {
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
