// Turns a ValidatedQuery into queries and runs them: the page (or rows) query, one query per
// expanded relation for all parents at once (`key IN (...)`, no N+1), and the count the envelope
// needs. Queries are built as Objection query builders, so the host's `scope` hook and relation
// modifiers see the API they know, and run through knex as plain rows: Objection's model
// instances and eager-loading machinery cost more than the whole rest of a request (measured in
// docs/benchmarks.md) and the response needs plain rows anyway.

import type { Knex } from 'knex';
import type { Model, QueryBuilder } from 'objection';
import type { Column, RelationCatalog } from '../schema';
import type { ValidatedExpansion, ValidatedQuery, ValidatedScope } from '../validate';
import { renderGroup, selectColumn } from './sql';

export type ModelQuery = QueryBuilder<Model, Model[]>;

/** Called with the collection name (`users`) or a relation path (`users.posts`) and that query (decisions.md 31). */
export type ScopeHook = (label: string, query: ModelQuery) => void;

export type Row = Record<string, unknown>;

/** Where join-table keys of many-to-many rows are selected; never shown (only output columns are). */
const ownerAlias = (index: number): string => `__kqm_owner${index}`;

function applyConditions(query: ModelQuery, scope: ValidatedScope): void {
  for (const group of scope.groups) {
    const { sql, bindings } = renderGroup(scope.catalog.table, group);
    query.whereRaw(sql, [...bindings]);
  }
}

/** Selects the output columns plus the join keys the expansions need (fetched, not shown: decisions.md 24). */
function applySelect(query: ModelQuery, knex: Knex, scope: ValidatedScope, keys: readonly string[]): void {
  const columns: Column[] = [...scope.output];
  for (const key of keys) {
    const column = scope.catalog.columns.get(key);
    if (column !== undefined && !columns.some((c) => c.name === key)) columns.push(column);
  }
  query.select(columns.map((column) => {
    const expression = selectColumn(scope.catalog.table, column);
    return expression === undefined ? `${scope.catalog.table}.${column.name}` : knex.raw(expression.sql, [...expression.bindings]);
  }));
}

function applyOrder(query: ModelQuery, scope: ValidatedScope): void {
  for (const key of scope.order) query.orderBy(`${scope.catalog.table}.${key.column.name}`, key.direction);
}

/** Runs a built query through knex and returns its rows as plain objects. */
async function execute(query: ModelQuery): Promise<Row[]> {
  return (await query.toKnexQuery()) as Row[];
}

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

/** The distinct non-NULL owner key values of the parents, as `whereIn` wants them (scalars or tuples). */
function ownerValues(parents: readonly Row[], columns: readonly string[]): unknown[] {
  const seen = new Map<string, unknown>();
  for (const row of parents) {
    const key = keyOf(row, columns);
    if (key === undefined || seen.has(key)) continue;
    seen.set(key, columns.length === 1 ? row[columns[0] as string] : columns.map((c) => row[c]));
  }
  return [...seen.values()];
}

/** `key IN (...)` for one key column, `(a, b) IN ((...), ...)` for a composite key. */
function whereKeyIn(query: ModelQuery, columns: readonly string[], values: unknown[]): void {
  query.whereIn(columns.length === 1 ? (columns[0] as string) : [...columns], values as never[]);
}

/**
 * The related rows of every parent in one query: `posts.user_id IN (...)`, or for a join table
 * `JOIN user_roles ON ... WHERE user_roles.user_id IN (...)` with the owner key selected alongside.
 * Returns the column names that hold each related row's owner key.
 */
function restrictToOwners(query: ModelQuery, knex: Knex, relation: RelationCatalog, values: unknown[]): readonly string[] {
  const table = relation.scope.table;
  const { through } = relation;
  if (through === undefined) {
    whereKeyIn(query, relation.relatedKeys.map((key) => `${table}.${key}`), values);
    return relation.relatedKeys;
  }
  const joined = through.table;
  const source = through.modify === undefined
    ? joined
    : (through.modelClass.query(knex).modify(through.modify).as(joined) as unknown as string);
  query.join(source, (join) => {
    relation.relatedKeys.forEach((key, i) => join.on(`${table}.${key}`, `${joined}.${through.relatedKeys[i] as string}`));
  });
  const aliases = through.ownerKeys.map((_, i) => ownerAlias(i));
  query.select(through.ownerKeys.map((key, i) => `${joined}.${key} as ${aliases[i] as string}`));
  whereKeyIn(query, through.ownerKeys.map((key) => `${joined}.${key}`), values);
  return aliases;
}

/** Loads one expansion for all parents and attaches it under the relation's name; returns statements run. */
async function loadExpansion(parents: readonly Row[], knex: Knex, expansion: ValidatedExpansion, hook: ScopeHook): Promise<number> {
  const { relation, scope } = expansion;
  const many = relation.cardinality === 'many';
  const values = ownerValues(parents, relation.ownerKeys);
  const byOwner = new Map<string, Row[]>();
  let statements = 0;
  if (values.length > 0) {
    const query = scope.catalog.modelClass.query(knex) as ModelQuery;
    applySelect(query, knex, scope, relation.through === undefined ? relation.relatedKeys : []);
    applyConditions(query, scope);
    applyOrder(query, scope);
    if (relation.modify !== undefined) query.modify(relation.modify);
    hook(scope.catalog.label, query);
    const keyColumns = restrictToOwners(query, knex, relation, values);
    statements = 1;
    for (const row of await execute(query)) {
      const key = keyOf(row, keyColumns);
      if (key === undefined) continue;
      const list = byOwner.get(key);
      if (list === undefined) byOwner.set(key, [row]);
      else list.push(row);
    }
  }
  for (const parent of parents) {
    const key = keyOf(parent, relation.ownerKeys);
    const related = key === undefined ? undefined : byOwner.get(key);
    parent[relation.name] = many ? related ?? [] : related?.[0] ?? null;
  }
  return statements;
}

export interface PlannedQueries {
  /** The page (or rows) query of the root collection, before it runs. */
  readonly rows: ModelQuery;
  /** Runs the rows query and loads every expansion into the rows; reports the statements run. */
  readonly run: () => Promise<{ readonly rows: Row[]; readonly statements: number }>;
  /** The count of all matching rows, for the envelope; built from the same filtered and scoped query. */
  readonly count: () => Promise<number>;
}

/** `filter[id]=>=5&sort[name]=desc&per-page=10` -> a page query and a count query on `users`. */
export function planQueries(validated: ValidatedQuery, knex: Knex, hook: ScopeHook): PlannedQueries {
  const { root, collection, paging, expansions } = validated;
  const base = collection.modelClass.query(knex) as ModelQuery;
  applyConditions(base, root);
  hook(collection.name, base);
  const count = async (): Promise<number> => {
    // Counting the scoped query as a subquery stays right whatever the host's hook added (joins, distinct).
    const result = (await knex.count({ count: '*' }).from(base.clone().toKnexQuery().as('counted'))) as { count: unknown }[];
    return Number(result[0]?.count ?? 0);
  };
  const rows = base.clone();
  const ownerKeys = expansions.flatMap((e) => e.relation.ownerKeys);
  applySelect(rows, knex, root, ownerKeys);
  applyOrder(rows, root);
  if (paging.kind === 'page') {
    rows.limit(paging.pageSize).offset((paging.page - 1) * paging.pageSize);
  } else {
    // One row past the cap tells whether the response was cut (decisions.md 28).
    rows.limit(paging.truncatable ? paging.limit + 1 : paging.limit);
    if (paging.offset > 0) rows.offset(paging.offset);
  }
  const run = async () => {
    const found = await execute(rows);
    // Rows past the cap are dropped before expanding: they are never shown.
    const parents = paging.kind === 'rows' && paging.truncatable && found.length > paging.limit ? found.slice(0, paging.limit) : found;
    let statements = 1;
    if (parents.length > 0) {
      const loaded = await Promise.all(expansions.map((expansion) => loadExpansion(parents, knex, expansion, hook)));
      statements += loaded.reduce((sum, n) => sum + n, 0);
    }
    return { rows: found, statements };
  };
  return { rows, run, count };
}
