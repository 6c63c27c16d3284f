// The related records a relation condition reads (docs/query-language.md, "Relations in conditions"), as a derived table of their
// owner keys: `(select "posts"."user_id" as "__kqm_k0" from "posts" where <conditions>)`, then
// correlated with the parent outside it. The derived query is the relation's own query, so on the
// builder path it goes through the relation's `modify` and the host's hooks (labelled
// `<collection>.<relation>`) exactly as an expansion does; the correlation stays outside, so a hook
// that names the related table by its name means the related rows even when the parent's table is
// the same one (a self-relation). PostgreSQL flattens the derived table, so the relation's index
// on its key serves the lookup.

import type { Knex } from 'knex';
import type { Column, RelationCatalog } from '../schema';
import type { ConditionGroup, RelatedRows, RelationJoin } from '../validate';
import { renderGroup } from './conditions';
import { relationParts } from './related';
import { applyConditions, joinOnBuilder, type ModelQuery, type ScopeHook } from './runnable';
import { columnSql, fragment, keySql, qualified, quoteIdentifier, quoteTable } from './sql';
import type { Fragment } from './types';
import { selectStatement } from './statements';

/** The derived table's name where it is correlated; each use is its own subquery, so one name serves all. */
const relatedAlias = '__kqm_r';

const keyAlias = (index: number): string => `__kqm_k${index}`;

/** The related row's owner key (`posts.user_id`, or the join table's `user_roles.user_id`) under the derived table's names. */
function keySelect(relation: RelationCatalog): string[] {
  return relationParts(relation).ownerColumns.map((column, i) => `${column} as ${quoteIdentifier(keyAlias(i))}`);
}

const orderAlias = (index: number): string => `__kqm_o${index}`;

/** The related record's primary key, which picks the first related record as expand shows it. */
function relatedIds(relation: RelationCatalog): Column[] {
  return relation.scope.idColumns.flatMap((id) => relation.scope.columns.get(id) ?? []);
}

/** What a join reads from the derived table besides the owner keys: the value and the order of `first`. */
export function joinSelect(join: RelationJoin): string[] {
  if (join.kind === 'count') return [];
  return [
    `${columnSql(join.field)} as ${quoteIdentifier(join.column.column)}`,
    ...relatedIds(join.related.relation).map((column, i) => `${columnSql(column)} as ${quoteIdentifier(orderAlias(i))}`),
  ];
}

/**
 * ` left join lateral (select count(*)::integer as "n" from <derived> as "__kqm_r" where <owner>) as
 * "__kqm_c0" on true`, or for a field of the first related record `select "__kqm_r"."v" ... order by
 * its primary key limit 1`: exactly one row per parent, so parents are never repeated or lost.
 */
export function joinSql(join: RelationJoin, derived: Fragment): Fragment {
  const r = quoteIdentifier(relatedAlias);
  if (join.kind === 'count' && join.grouped) return groupedCountSql(join, derived);
  const from = `from ${derived.sql} as ${r} where ${correlation(join.related.relation)}`;
  const inner =
    join.kind === 'count'
      ? `select count(*)::integer as ${quoteIdentifier(join.column.column)} ${from}`
      : `select ${r}.${quoteIdentifier(join.column.column)} ${from} order by ` +
        `${relatedIds(join.related.relation)
          .map((_, i) => `${r}.${quoteIdentifier(orderAlias(i))} asc`)
          .join(', ')} limit 1`;
  return fragment(` left join lateral (${inner}) as ${quoteIdentifier(join.alias)} on true`, derived.bindings);
}

/** No builder needed: the related model uses its objection's own query builder, and no `modify` applies. */
export const plainRelation = (relation: RelationCatalog): boolean => relationParts(relation).plain;

/** Renders a group of the related scope (which names no relation of its own). */
const relatedGroup = (group: ConditionGroup): Fragment => renderGroup(group);

/** The derived table as text, for a plain relation without hooks; `extra` adds to its select list. */
export function derivedText(rows: RelatedRows, extra: readonly string[] = []): Fragment {
  const { relation } = rows;
  const statement = selectStatement({
    select: [...keySelect(relation), ...extra].join(', '),
    from: quoteTable(relation.scope.table),
    join: relationParts(relation).join,
    where: rows.groups.map(relatedGroup),
    order: '',
  });
  return fragment(`(${statement.sql})`, statement.bindings);
}

/**
 * The derived table as the relation's Objection query: joined through its join table, the client's
 * conditions, then the relation's `modify`, then the host's hooks for `<collection>.<relation>`,
 * awaited before it is used. Written as
 * one `?` binding, which knex compiles in parentheses: the same text as derivedText's when nothing
 * was added.
 */
export async function derivedBuilder(
  rows: RelatedRows,
  knex: Knex,
  hook: ScopeHook | undefined,
  extra: readonly string[] = [],
): Promise<Fragment> {
  const { relation } = rows;
  const query: ModelQuery = relation.scope.modelClass.query(knex);
  query.select(knex.raw([...keySelect(relation), ...extra].join(', ')));
  // The join table first, as Objection's own relation queries have it: the select list names it,
  // and the relation's `modify` and the hooks may too.
  joinOnBuilder(query, knex, relation);
  applyConditions(query, rows.groups.map(relatedGroup));
  if (relation.modify !== undefined) query.modify(relation.modify);
  await hook?.(relation.scope.label, query);
  return fragment('?', [query.toKnexQuery()]);
}

/** `exists (select 1 from <derived> as "__kqm_r" where "__kqm_r"."__kqm_k0" = "users"."id")`: NULL keys match nothing. */
export function existsSql(relation: RelationCatalog, derived: Fragment): Fragment {
  return fragment(
    `exists (select 1 from ${derived.sql} as ${quoteIdentifier(relatedAlias)} where ${correlation(relation)})`,
    derived.bindings,
  );
}

/**
 * ` left join (select "__kqm_r"."__kqm_k0", count(*)::integer as "n" from <derived> as "__kqm_r" group by
 * ...) as "__kqm_c0" on "__kqm_c0"."__kqm_k0" = "users"."id"`: every record's count at once, one row
 * per owner key (the count column reads a missing row as zero).
 */
function groupedCountSql(join: RelationJoin, derived: Fragment): Fragment {
  const { relation } = join.related;
  const keys = relation.ownerKeys.map((_, i) => qualified(relatedAlias, keyAlias(i)));
  const on = relation.ownerKeys
    .map((key, i) => `${qualified(join.alias, keyAlias(i))} = ${keySql(key, relation.keysAsText)}`)
    .join(' and ');
  const inner =
    `select ${keys.join(', ')}, count(*)::integer as ${quoteIdentifier(join.column.column)} ` +
    `from ${derived.sql} as ${quoteIdentifier(relatedAlias)} group by ${keys.join(', ')}`;
  return fragment(` left join (${inner}) as ${quoteIdentifier(join.alias)} on ${on}`, derived.bindings);
}

/** `"__kqm_r"."__kqm_k0" = "users"."id"`: the derived rows of this parent. */
function correlation(relation: RelationCatalog): string {
  return relation.ownerKeys.map((key, i) => `${qualified(relatedAlias, keyAlias(i))} = ${keySql(key, relation.keysAsText)}`).join(' and ');
}

/** Every relation condition of the groups, in the order they are written. */
export function relatedRowsOf(groups: readonly ConditionGroup[]): RelatedRows[] {
  return groups.flatMap((group) =>
    group.anyOf.flatMap((terms) => terms.flatMap(({ condition }) => (condition.kind === 'exists' ? [condition.related] : []))),
  );
}
