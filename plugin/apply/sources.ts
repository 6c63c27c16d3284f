// How the root statement reads related records (docs/query-language.md, "Relations in conditions"):
// each relation condition's EXISTS and each joined value (a sort key, a count) over the relation's
// derived table, written as text when nothing needs a builder, or around the relation's own
// Objection query, built and restricted (modify, scopeModel, scope for `<collection>.<relation>`)
// before the root is assembled.

import type { Knex } from 'knex';
import type { Column } from '../schema';
import type { ConditionGroup, RelatedRows, RelationJoin, ValidatedScope } from '../validate';
import type { RelatedSql } from './conditions';
import { existsSql, joinSelect, joinSql, plainRelation, derivedBuilder, relatedRowsOf, derivedText } from './related-rows';
import type { ScopeHook } from './runnable';
import type { Fragment } from './types';

export interface RelatedSources {
  readonly exists: RelatedSql;
  readonly join: (join: RelationJoin) => Fragment;
}

/** What of the root reads related records: its conditions (some may be relation conditions) and its joins. */
export type RootRelations = Pick<ValidatedScope, 'groups' | 'joins'>;

/** Every relation the root reads besides its expansions: its conditions' and its joins'. */
function relatedOf(root: RootRelations): RelatedRows[] {
  return [...relatedRowsOf(root.groups), ...root.joins.map((join) => join.related)];
}

/** No builder needed for any of them (the root's own model is the caller's question). */
export function plainSources(root: RootRelations): boolean {
  return relatedOf(root).every((rows) => plainRelation(rows.relation));
}

export const textSources: RelatedSources = {
  exists: (rows) => existsSql(rows.relation, derivedText(rows)),
  join: (join) => joinSql(join, derivedText(join.related, joinSelect(join))),
};

/** Each related query built as the relation's own builder, hooks awaited, in the order they are written. */
export async function builtSources(root: RootRelations, knex: Knex, hook: ScopeHook | undefined): Promise<RelatedSources> {
  const built = new Map<RelatedRows, Fragment>();
  for (const rows of relatedRowsOf(root.groups)) built.set(rows, await derivedBuilder(rows, knex, hook));
  for (const join of root.joins) built.set(join.related, await derivedBuilder(join.related, knex, hook, joinSelect(join)));
  const derived = (rows: RelatedRows): Fragment => {
    const found = built.get(rows);
    if (found === undefined) throw new Error(`no subquery was built for the relation ${rows.relation.name}`);
    return found;
  };
  return {
    exists: (rows) => existsSql(rows.relation, derived(rows)),
    join: (join) => joinSql(join, derived(join.related)),
  };
}

function columnsOf(groups: readonly ConditionGroup[]): Column[] {
  return groups.flatMap((group) =>
    group.anyOf.flatMap((terms) =>
      terms.flatMap(({ condition }) => {
        switch (condition.kind) {
          case 'compare':
          case 'in':
          case 'between':
            return [condition.column];
          case 'search':
            return condition.columns;
          case 'similar':
            return [condition.column];
          case 'exists':
          case 'match':
            return [];
        }
      }),
    ),
  );
}

/**
 * The joins the conditions read (a count filtered on), which the count statement needs too, and the
 * others (sort keys, counts only shown), which only the rows statement needs.
 */
export function splitJoins(root: RootRelations): { filtered: RelationJoin[]; others: RelationJoin[] } {
  const read = new Set(columnsOf(root.groups).map((column) => column.table));
  return { filtered: root.joins.filter((j) => read.has(j.alias)), others: root.joins.filter((j) => !read.has(j.alias)) };
}
