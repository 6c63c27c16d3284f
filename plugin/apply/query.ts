// Turns a ValidatedQuery into Objection queries: the page (or rows) query with its expansions fetched
// through withGraphFetched and named modifiers, and the count query the envelope needs.

import type { Knex } from 'knex';
import type { Model, QueryBuilder } from 'objection';
import type { Column } from '../schema';
import type { ValidatedExpansion, ValidatedQuery, ValidatedScope } from '../validate';
import { renderGroup, selectColumn } from './sql';

export type ModelQuery = QueryBuilder<Model, Model[]>;

/** Called with the collection name (`users`) or a relation path (`users.posts`) and that query (decisions.md 31). */
export type ScopeHook = (label: string, query: ModelQuery) => void;

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

function applyExpansions(query: ModelQuery, knex: Knex, expansions: readonly ValidatedExpansion[], hook: ScopeHook): void {
  if (expansions.length === 0) return;
  const expression: Record<string, { $modify: string[] }> = {};
  const modifiers: Record<string, (builder: ModelQuery) => void> = {};
  expansions.forEach(({ relation, scope }, index) => {
    const name = `expand${index}`;
    expression[relation.name] = { $modify: [name] };
    modifiers[name] = (builder) => {
      applySelect(builder, knex, scope, relation.relatedKeys);
      applyConditions(builder, scope);
      applyOrder(builder, scope);
      hook(scope.catalog.label, builder);
    };
  });
  query.withGraphFetched(expression).modifiers(modifiers);
}

export interface PlannedQueries {
  readonly rows: ModelQuery;
  /** The count of all matching rows, for the envelope; built from the same filtered and scoped query. */
  readonly count: () => Promise<number>;
}

/** `filter[id]=>=5&sort[name]=desc&per-page=10` -> a page query and a count query on `users`. */
export function planQueries(validated: ValidatedQuery, knex: Knex, hook: ScopeHook): PlannedQueries {
  const { root, collection, paging } = validated;
  const base = collection.modelClass.query(knex) as ModelQuery;
  applyConditions(base, root);
  hook(collection.name, base);
  const count = () => base.clone().resultSize();
  const rows = base.clone();
  const ownerKeys = validated.expansions.flatMap((e) => e.relation.ownerKeys);
  applySelect(rows, knex, root, ownerKeys);
  applyOrder(rows, root);
  applyExpansions(rows, knex, validated.expansions, hook);
  if (paging.kind === 'page') {
    rows.limit(paging.pageSize).offset((paging.page - 1) * paging.pageSize);
  } else {
    // One row past the cap tells whether the response was cut (decisions.md 28).
    rows.limit(paging.truncatable ? paging.limit + 1 : paging.limit);
    if (paging.offset > 0) rows.offset(paging.offset);
  }
  return { rows, count };
}
