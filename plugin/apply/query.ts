// Turns a ValidatedQuery into statements and runs them: the page (or rows) query, one query per
// expanded relation for all parents at once (`key in (...)`, no N+1), and the count the envelope
// needs. Rows come back plain through knex: the response needs plain rows, and Objection's model
// instances and eager loading cost more than the whole rest of a request (docs/benchmarks.md).
//
// Two ways to the same SQL. When the host has a `scope` hook, a model with its own query builder or
// query(), or a relation modifier, the statement is an Objection query builder, so those see the
// API they know. Otherwise the statement text is sent as it is: compiling a builder costs more CPU
// than everything else the plugin does for a request.

import type { Knex } from 'knex';
import { Model, QueryBuilder, type QueryBuilder as QueryBuilderType } from 'objection';
import type { ModelClass, RelationCatalog } from '../schema';
import type { ValidatedExpansion, ValidatedQuery } from '../validate';
import { qualified } from './sql';
import {
  countStatement, joinThrough, keyIn, ownerAlias, ownerSelect, scopeSql, selectStatement, type ScopeSql, type Statement,
} from './statements';

export type ModelQuery = QueryBuilderType<Model, Model[]>;

/** Called with the collection name (`users`) or a relation path (`users.posts`) and that query (decisions.md 31). */
export type ScopeHook = (label: string, query: ModelQuery) => void;

export type Row = Record<string, unknown>;

/** A statement ready to run, and its text in knex's `toSQL()` form. */
export interface Runnable {
  toSQL(): Statement;
  rows(): Promise<Row[]>;
}

function viaBuilder(query: ModelQuery | Knex.QueryBuilder): Runnable {
  const compiled = () => ('toKnexQuery' in query ? query.toKnexQuery() : query);
  return {
    toSQL: () => {
      const { sql, bindings } = compiled().toSQL();
      return { sql, bindings };
    },
    rows: async () => (await compiled()) as Row[],
  };
}

function viaText(knex: Knex, statement: Statement): Runnable {
  const raw = () => knex.raw(statement.sql, statement.bindings as Knex.RawBinding[]);
  return {
    toSQL: () => {
      const { sql, bindings } = raw().toSQL();
      return { sql, bindings };
    },
    rows: async () => ((await raw()) as { rows: Row[] }).rows,
  };
}

/** A model whose queries are Objection's own, so the statement text alone is what a builder would run. */
const plainModel = (modelClass: ModelClass): boolean =>
  modelClass.QueryBuilder === QueryBuilder && modelClass.query === Model.query;

function applyConditions(query: ModelQuery, where: ScopeSql['where']): void {
  for (const { sql, bindings } of where) query.whereRaw(sql, [...bindings]);
}

function applySelectAndOrder(query: ModelQuery, knex: Knex, select: readonly string[], order: string): void {
  query.select(knex.raw(select.join(', ')));
  if (order !== '') query.orderByRaw(order);
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
    relation.relatedKeys.forEach((key, i) => join.on(`${relation.scope.table}.${key}`, `${through.table}.${through.relatedKeys[i] as string}`));
  });
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
  /** With one key column and no builder needed: the whole text, ending in `= any(?)` for the keys. */
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
  const ownerColumns = through === undefined
    ? relation.relatedKeys.map((key) => qualified(scope.catalog.table, key))
    : through.ownerKeys.map((key) => qualified(through.table, key));
  const plain = plainModel(scope.catalog.modelClass) && relation.modify === undefined && through?.modify === undefined;
  const made: ExpansionParts = {
    parts,
    select,
    ownerColumns,
    keyColumns: through === undefined ? relation.relatedKeys : through.ownerKeys.map((_, i) => ownerAlias(i)),
    text: plain && ownerColumns.length === 1
      ? selectStatement({ ...parts, select, join: joinThrough(relation), where: [...parts.where, keyIn(ownerColumns, [])] })
      : undefined,
  };
  expansionPartsOf.set(expansion, made);
  return made;
}

/**
 * The related rows of every parent in one statement: `posts.user_id = any(?)`, or for a join table
 * `inner join user_roles on ... where user_roles.user_id = any(?)` with the owner key selected alongside.
 */
export function expansionQuery(parents: readonly Row[], knex: Knex, expansion: ValidatedExpansion, hook?: ScopeHook): ExpansionQuery | undefined {
  const { relation, scope } = expansion;
  const values = ownerValues(parents, relation.ownerKeys);
  if (values.length === 0) return undefined;
  const { parts, select, ownerColumns, keyColumns, text } = expansionParts(expansion);
  if (hook === undefined && text !== undefined) {
    return { query: viaText(knex, { sql: text.sql, bindings: [...text.bindings, values] }), keyColumns };
  }
  const ownedBy = keyIn(ownerColumns, values);
  const plain = plainModel(scope.catalog.modelClass) && relation.modify === undefined && relation.through?.modify === undefined;
  if (hook === undefined && plain) {
    const statement = selectStatement({ ...parts, select, join: joinThrough(relation), where: [...parts.where, ownedBy] });
    return { query: viaText(knex, statement), keyColumns };
  }
  const query = scope.catalog.modelClass.query(knex) as ModelQuery;
  applySelectAndOrder(query, knex, select, parts.order);
  applyConditions(query, parts.where);
  if (relation.modify !== undefined) query.modify(relation.modify);
  hook?.(scope.catalog.label, query);
  joinOnBuilder(query, knex, relation);
  query.whereRaw(ownedBy.sql, [...ownedBy.bindings] as Knex.RawBinding[]);
  return { query: viaBuilder(query), keyColumns };
}

/** Loads one expansion for all parents and attaches it under the relation's name; returns statements run. */
async function loadExpansion(parents: readonly Row[], knex: Knex, expansion: ValidatedExpansion, hook?: ScopeHook): Promise<number> {
  const { relation } = expansion;
  const planned = expansionQuery(parents, knex, expansion, hook);
  const byOwner = new Map<string, Row[]>();
  if (planned !== undefined) {
    for (const row of await planned.query.rows()) {
      const key = keyOf(row, planned.keyColumns);
      if (key === undefined) continue;
      const list = byOwner.get(key);
      if (list === undefined) byOwner.set(key, [row]);
      else list.push(row);
    }
  }
  for (const parent of parents) {
    const key = keyOf(parent, relation.ownerKeys);
    const related = key === undefined ? undefined : byOwner.get(key);
    parent[relation.name] = relation.cardinality === 'many' ? related ?? [] : related?.[0] ?? null;
  }
  return planned === undefined ? 0 : 1;
}

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

function rootParts(validated: ValidatedQuery): { parts: ScopeSql; limit: number; offset: number } {
  const { root, paging, expansions } = validated;
  const parts = scopeSql(root, expansions.flatMap((e) => e.relation.ownerKeys));
  if (paging.kind === 'page') return { parts, limit: paging.pageSize, offset: (paging.page - 1) * paging.pageSize };
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
  if (plainModel(validated.collection.modelClass)) {
    const { parts, limit, offset } = rootParts(validated);
    made = { rows: selectStatement({ ...parts, limit, offset }), count: countStatement(parts.from, parts.where) };
  }
  rootStatementsOf.set(validated, made);
  return made;
}

/** `filter[id]=>=5&sort[name]=desc&per-page=10` -> a page query and a count query on `users`. */
export function planQueries(validated: ValidatedQuery, knex: Knex, hook?: ScopeHook): PlannedQueries {
  const { collection, paging, expansions } = validated;
  let rows: Runnable;
  let count: Runnable;
  const direct = hook === undefined ? rootStatements(validated) : undefined;
  if (direct !== undefined) {
    rows = viaText(knex, direct.rows);
    count = viaText(knex, direct.count);
  } else {
    const { parts, limit, offset } = rootParts(validated);
    const base = collection.modelClass.query(knex) as ModelQuery;
    applyConditions(base, parts.where);
    hook?.(collection.name, base);
    // Counting the scoped query as a subquery stays right whatever the hook added (joins, distinct).
    count = viaBuilder(knex.count({ count: '*' }).from(base.clone().toKnexQuery().as('counted')));
    const query = base.clone();
    applySelectAndOrder(query, knex, parts.select, parts.order);
    query.limit(limit);
    if (offset > 0) query.offset(offset);
    rows = viaBuilder(query);
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
