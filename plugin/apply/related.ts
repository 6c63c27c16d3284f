// The related records a relation condition reads (decisions.md 36–37), as a derived table of their
// owner keys: `(select "posts"."user_id" as "__kqm_k0" from "posts" where <conditions>)`, then
// correlated with the parent outside it. The derived query is the relation's own query, so on the
// builder path it goes through the relation's `modify` and the host's hooks (labelled
// `<collection>.<relation>`) exactly as an expansion does; the correlation stays outside, so a hook
// that names the related table by its name means the related rows even when the parent's table is
// the same one (a self-relation). PostgreSQL flattens the derived table, so the relation's index
// on its key serves the lookup.

import type { Knex } from 'knex';
import { usesOwnQueryBuilder, type Column, type RelationCatalog } from '../schema';
import type { ConditionGroup, RelatedRows } from '../validate';
import { renderGroup } from './conditions';
import { applyConditions, joinOnBuilder, type ModelQuery, type ScopeHook } from './runnable';
import { columnSql, fragment, qualified, quoteIdentifier, quoteTable, type Fragment } from './sql';
import { joinThrough, selectStatement } from './statements';

/** The derived table's name where it is correlated; each use is its own subquery, so one name serves all. */
const relatedAlias = '__kqm_r';

const keyAlias = (index: number): string => `__kqm_k${index}`;

/** The columns of a related row that hold its owner's key: `posts.user_id`, or the join table's `user_roles.user_id`. */
function ownerKeyColumns(relation: RelationCatalog): readonly Column[] {
  return relation.through?.ownerKeys ?? relation.relatedKeys;
}

function keySelect(relation: RelationCatalog): string[] {
  return ownerKeyColumns(relation).map((column, i) => `${columnSql(column)} as ${quoteIdentifier(keyAlias(i))}`);
}

/** No builder needed: the related model uses its objection's own query builder, and no `modify` applies. */
export function plainRelation(relation: RelationCatalog): boolean {
  return usesOwnQueryBuilder(relation.scope.modelClass) && relation.modify === undefined && relation.through?.modify === undefined;
}

/** Renders a group of the related scope (which names no relation of its own). */
const relatedGroup = (group: ConditionGroup): Fragment => renderGroup(group);

/** The derived table as text, for a plain relation without hooks. */
export function relatedText(rows: RelatedRows): Fragment {
  const { relation } = rows;
  const statement = selectStatement({
    select: keySelect(relation),
    from: quoteTable(relation.scope.table),
    join: joinThrough(relation),
    where: rows.groups.map(relatedGroup),
    order: '',
  });
  return fragment(`(${statement.sql})`, statement.bindings);
}

/**
 * The derived table as the relation's Objection query: the client's conditions, then the relation's
 * `modify`, then the host's hooks for `<collection>.<relation>`, awaited before it is used. Written as
 * one `?` binding, which knex compiles in parentheses: the same text as relatedText's when nothing
 * was added.
 */
export async function relatedBuilder(rows: RelatedRows, knex: Knex, hook: ScopeHook | undefined): Promise<Fragment> {
  const { relation } = rows;
  const query = relation.scope.modelClass.query(knex) as ModelQuery;
  query.select(knex.raw(keySelect(relation).join(', ')));
  applyConditions(query, rows.groups.map(relatedGroup));
  if (relation.modify !== undefined) query.modify(relation.modify);
  await hook?.(relation.scope.label, query);
  joinOnBuilder(query, knex, relation);
  return fragment('?', [query.toKnexQuery()]);
}

/** `exists (select 1 from <derived> as "__kqm_r" where "__kqm_r"."__kqm_k0" = "users"."id")`: NULL keys match nothing. */
export function existsSql(relation: RelationCatalog, derived: Fragment): Fragment {
  const on = relation.ownerKeys.map((key, i) => `${qualified(relatedAlias, keyAlias(i))} = ${columnSql(key)}`).join(' and ');
  return fragment(`exists (select 1 from ${derived.sql} as ${quoteIdentifier(relatedAlias)} where ${on})`, derived.bindings);
}

/** Every relation condition of the groups, in the order they are written. */
export function relatedRowsOf(groups: readonly ConditionGroup[]): RelatedRows[] {
  return groups.flatMap((group) => group.anyOf.flatMap((terms) => terms.flatMap(({ condition }) =>
    (condition.kind === 'exists' ? [condition.related] : []))));
}
