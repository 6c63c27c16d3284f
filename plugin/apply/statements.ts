// The text of each statement the plugin runs, assembled from the fragments in sql.ts. Sent as it is
// when nothing needs an Objection builder (no scope hook, plain models, no relation modifiers); fed
// piece by piece to a builder otherwise, which then compiles the same text (test/unit/apply.test.ts
// holds the two side by side).

import type { Column, JoinTableCatalog, RelationCatalog } from '../schema';
import type { OrderKey, ValidatedScope } from '../validate';
import { renderGroup, type RelatedSql } from './conditions';
import { formatAfterPaging } from './formatted';
import type { Fragment, HiddenColumn, ScopeSql, Statement } from './types';
import { columnSql, formatsValue, fragment, keySql, quoteTable, selectColumn, selectColumnAs } from './sql';

/** Where join-table keys of many-to-many rows are selected; never shown (only output columns are). */
export const ownerAlias = (index: number): string => `__kqm_owner${index}`;

/**
 * What is read for a scope's records: the output fields, or for a model that builds its own JSON
 * every column of its table (its `$formatJson` and virtual attributes may need any of them; only
 * the output fields are shown, docs/configuration.md, "Your models as they are").
 */
function readColumns(scope: ValidatedScope): Column[] {
  const { table, columns, viaModel } = scope.catalog;
  const stored = (column: Column) => column.type !== 'virtual';
  if (!viaModel) return scope.output.filter(stored);
  const own = [...columns.values()].filter((column) => stored(column) && column.table === table);
  return [...own, ...scope.output.filter((column) => stored(column) && column.table !== table)];
}

/** The counts a scope shows (`posts_count`), read from their joins. */
export function countedColumns(scope: ValidatedScope): Column[] {
  return scope.joins.flatMap((join) => (join.kind === 'count' ? [join.column] : []));
}

/**
 * How a statement that skips or sorts rows formats its values after it: `page`, the root's page
 * (formatted after paging when a value needs it, the outer statement ordering the page again);
 * `window`, a per-parent window (whose rows keep the order they come in); `joined`, the root's page
 * that expansions are aggregated into (aggregated.ts), always an inner and an outer statement, the
 * outer one ordered by `order` (a cursor page's reading order) and naming `keys` for the joins.
 */
export type Paged = 'page' | 'window' | { readonly kind: 'joined'; readonly order: readonly OrderKey[]; readonly keys: readonly Column[] };

/**
 * The columns read plus the join keys the expansions need (fetched, not shown:
 * docs/query-language.md, "Keys are not leaked"), and `extra` select-list entries (a join table's
 * owner keys). `paged`: the statement skips or sorts rows, so values that need formatting are
 * formatted after it. `related` writes the root's relation conditions.
 */
export function scopeSql(
  scope: ValidatedScope,
  keys: readonly Column[],
  extra: readonly HiddenColumn[] = [],
  paged?: Paged,
  related?: RelatedSql,
): ScopeSql {
  // Counts come after the fields, as they are shown (docs/query-language.md, "Counting related records").
  const selected = [...readColumns(scope), ...countedColumns(scope)];
  for (const key of keys) {
    if (!selected.some((c) => c.name === key.name)) selected.push(key);
  }
  const parts = {
    from: quoteTable(scope.catalog.table),
    where: scope.groups.map((group) => renderGroup(group, related)),
    order: scope.order.map((key) => `${columnSql(key.column)} ${key.direction}`).join(', '),
  };
  const joined = typeof paged === 'object';
  if (paged === undefined || (!joined && !selected.some(formatsValue))) {
    return { ...parts, select: [...selected.map((column) => selectColumn(column)), ...extra.map((column) => column.sql)].join(', ') };
  }
  const { table } = scope.catalog;
  if (joined) return { ...parts, ...formatAfterPaging(table, selected, paged.order, extra, paged.keys) };
  return { ...parts, ...formatAfterPaging(table, selected, paged === 'page' ? scope.order : [], extra) };
}

/**
 * `"posts"."user_id" = any(?)` with the keys as one array value (the same text for any number of
 * parents), or `("a", "b") in ((?, ?), (?, ?))` for a composite key. `values` empty: the text alone.
 */
export function keyIn(columns: readonly string[], values: readonly unknown[]): Statement {
  if (columns.length === 1) return { sql: `${columns[0] as string} = any(?)`, bindings: values.length === 0 ? [] : [values] };
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  return {
    sql: `(${columns.join(', ')}) in (${values.map(() => tuple).join(', ')})`,
    bindings: (values as unknown[][]).flat(),
  };
}

/** ` inner join "user_roles" on "roles"."id" = "user_roles"."role_id"` for a join-table relation. */
export function joinThrough(relation: RelationCatalog): string {
  const through = relation.through;
  if (through === undefined) return '';
  return ` inner join ${quoteTable(through.table)} on ${throughOn(relation, through)}`;
}

/** `"roles"."id" = "user_roles"."role_id"`: the related rows met with the join table's (as text when their types need it). */
export function throughOn(relation: RelationCatalog, through: JoinTableCatalog): string {
  return relation.relatedKeys
    .map((key, i) => `${keySql(key, through.keysAsText)} = ${keySql(through.relatedKeys[i] as Column, through.keysAsText)}`)
    .join(' and ');
}

/**
 * `"user_roles"."user_id" AS "__kqm_owner0"`: the owner key of each joined row, read in the form the
 * parents' key fields are read in (`to_char(...)` for a date or timestamp), so the two meet in memory.
 */
export function ownerSelect(relation: RelationCatalog): HiddenColumn[] {
  const through = relation.through;
  if (through === undefined) return [];
  return through.ownerKeys.map((key, i) => ({ sql: selectColumnAs(key, ownerAlias(i)), alias: ownerAlias(i) }));
}

/**
 * Every fragment's bindings in order, in one new array. Spread into array literals, not flatMap or
 * a push loop: statements are assembled on every request, and over a 500-item list flatMap takes
 * about twenty times as long, a push loop about one and a half.
 */
function bindingsOf(where: readonly Statement[]): unknown[] {
  let bindings: unknown[] = [];
  for (const fragment of where) bindings = [...bindings, ...fragment.bindings];
  return bindings;
}

/** ` left join lateral (...) as "__kqm_c0" on true ...`: the root's joins to related records, in order. */
function joinsSql(joins: readonly Fragment[]): string {
  return joins.map((j) => j.sql).join('');
}

function whereClause(where: readonly Statement[]): string {
  return where.length === 0 ? '' : ` where ${where.map((w) => w.sql).join(' and ')}`;
}

export interface SelectParts {
  /** The select list; a fragment when an entry has bindings (a cursor page's probe, probe.ts). */
  readonly select: string | Fragment;
  readonly from: string;
  readonly join?: string;
  /** Joins with bindings after `join`: the root's values from related records (related.ts). */
  readonly joins?: readonly Fragment[];
  /** Conditions joined with `and`; a scope's fragments, then e.g. the owner keys of an expansion. */
  readonly where: readonly Statement[];
  readonly order: string;
  readonly limit?: number;
  readonly offset?: number;
}

/** `select … from … [join] [where …] [order by …] [limit ?] [offset ?]`, as knex would write it. */
export function selectStatement(parts: SelectParts): Statement {
  const joins = parts.joins ?? [];
  const select = typeof parts.select === 'string' ? fragment(parts.select) : parts.select;
  const bindings = [...select.bindings, ...bindingsOf(joins), ...bindingsOf(parts.where)];
  let sql = `select ${select.sql} from ${parts.from}${parts.join ?? ''}${joinsSql(joins)}${whereClause(parts.where)}`;
  if (parts.order !== '') sql += ` order by ${parts.order}`;
  if (parts.limit !== undefined) {
    sql += ' limit ?';
    bindings.push(parts.limit);
  }
  if (parts.offset !== undefined && parts.offset > 0) {
    sql += ' offset ?';
    bindings.push(parts.offset);
  }
  return { sql, bindings };
}

/**
 * The number of rows matching `where` (with the joins its conditions read), written as the builder
 * path writes it (a counted subquery).
 */
export function countStatement(from: string, where: readonly Fragment[], joins: readonly Fragment[] = []): Statement {
  return {
    sql: `select count(*) as "count" from (select ${from}.* from ${from}${joinsSql(joins)}${whereClause(where)}) as "counted"`,
    bindings: [...bindingsOf(joins), ...bindingsOf(where)],
  };
}

/**
 * The rows matching `where`, counted up to `cap` (`limit ?`): exact below the cap, `cap` at or past it.
 * The limited subquery selects `1`: PostgreSQL cannot flatten it, so it would project every column
 * of `"users".*` for each row counted (a quarter of the statement's time at 10,001 rows).
 */
export function cappedCountStatement(from: string, where: readonly Fragment[], cap: number, joins: readonly Fragment[] = []): Statement {
  return {
    sql: `select count(*) as "count" from (select 1 from ${from}${joinsSql(joins)}${whereClause(where)} limit ?) as "capped"`,
    bindings: [...bindingsOf(joins), ...bindingsOf(where), cap],
  };
}

/** PostgreSQL's plan of the rows matching `where`; its top node's `Plan Rows` is the planner's estimate. */
export function estimateStatement(from: string, where: readonly Fragment[], joins: readonly Fragment[] = []): Statement {
  return {
    sql: `explain (format json) select ${from}.* from ${from}${joinsSql(joins)}${whereClause(where)}`,
    bindings: [...bindingsOf(joins), ...bindingsOf(where)],
  };
}
