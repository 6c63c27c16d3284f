// What every statement for an expansion's related rows shares, whatever the parents are: the
// scope's select list, conditions and order, the owner-key columns, and the start of the builder
// the host's hooks see (expansions.ts and windows.ts finish it).

import type { Knex } from 'knex';
import { usesOwnQueryBuilder, type Column, type RelationCatalog } from '../schema';
import type { ValidatedExpansion } from '../validate';
import { applyConditions, applySelectAndOrder, type ModelQuery, type ScopeHook } from './runnable';
import { columnSql } from './sql';
import { joinThrough, keyIn, ownerAlias, ownerSelect, scopeSql, selectStatement, type ScopeSql, type Statement } from './statements';

/** What an expansion's statement is whatever the parents are. */
export interface ExpansionParts {
  readonly parts: ScopeSql;
  readonly select: readonly string[];
  /** ` inner join "user_roles" on ...` for a join-table relation, else empty. */
  readonly join: string;
  /** The columns compared with the parents' keys: `posts.user_id`, or `user_roles.user_id` through a join table. */
  readonly ownerKeyColumns: readonly Column[];
  /** The same, qualified: `"posts"."user_id"`. */
  readonly ownerColumns: readonly string[];
  /** The columns of each related row that hold its owner's key. */
  readonly keyColumns: readonly string[];
  /** No builder needed: a plain related model, no relation or join-table `modify`. */
  readonly plain: boolean;
  /** Plain with one key column and no window: the whole text, ending in `= any(?)` for the keys. */
  readonly text: Statement | undefined;
}

// Validated queries are kept by the pipeline, so what is worked out from them is kept with them.
const expansionPartsOf = new WeakMap<ValidatedExpansion, ExpansionParts>();

export function expansionParts(expansion: ValidatedExpansion): ExpansionParts {
  const known = expansionPartsOf.get(expansion);
  if (known !== undefined) return known;
  const { relation, scope } = expansion;
  const { through } = relation;
  // The related rows are the parents of the nested expansions: their owner keys are read too.
  const nestedKeys = expansion.expansions.flatMap((nested) => nested.relation.ownerKeys);
  const parts = scopeSql(scope, [...(through === undefined ? relation.relatedKeys : []), ...nestedKeys]);
  const select = [...parts.select, ...ownerSelect(relation)];
  const ownerKeyColumns = through === undefined ? relation.relatedKeys : through.ownerKeys;
  const ownerColumns = ownerKeyColumns.map(columnSql);
  const plain = usesOwnQueryBuilder(scope.catalog.modelClass) && relation.modify === undefined && through?.modify === undefined;
  const join = joinThrough(relation);
  const made: ExpansionParts = {
    parts,
    select,
    join,
    ownerKeyColumns,
    ownerColumns,
    keyColumns: through === undefined ? relation.relatedKeys.map((key) => key.name) : through.ownerKeys.map((_, i) => ownerAlias(i)),
    plain,
    text: plain && ownerColumns.length === 1 && expansion.window === undefined
      ? selectStatement({ ...parts, select, join, where: [...parts.where, keyIn(ownerColumns, [])], limit: expansion.maxRows + 1 })
      : undefined,
  };
  expansionPartsOf.set(expansion, made);
  return made;
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

/**
 * The related model's builder with `select` and `order`, the alias's conditions, the relation's
 * `modify`, the host's hooks (awaited, with the relation's path) and the join table; the caller
 * adds which parents it is for. Wrapped in an object: a builder is thenable, so an async function
 * returning it bare would run it.
 */
export async function relatedBuilder(knex: Knex, expansion: ValidatedExpansion, select: readonly string[], order: string, hook?: ScopeHook): Promise<{ query: ModelQuery }> {
  const { relation, scope } = expansion;
  const query = scope.catalog.modelClass.query(knex) as ModelQuery;
  applySelectAndOrder(query, knex, select, order);
  applyConditions(query, expansionParts(expansion).parts.where);
  if (relation.modify !== undefined) query.modify(relation.modify);
  await hook?.(scope.catalog.label, query);
  joinOnBuilder(query, knex, relation);
  return { query };
}
