// Deep OFFSET pages read by a deferred join (docs/query-language.md, "limit, offset and the row
// cap"): an inner statement pages the primary keys alone, in the page's order, and the outer one
// reads the whole records of just those keys, in the same order. PostgreSQL still walks past every
// skipped row, but in the inner statement it can do so in an index holding the sort and key columns
// without visiting the table, instead of reading each skipped record
// (docs/design/deep-offset-formatting.md).

import type { Column, ScopeCatalog } from '../schema';
import type { CompiledQuery } from './compiled';
import { columnSql, quoteIdentifier } from './sql';
import type { Statement } from './types';

/**
 * From how many skipped rows a page is read by a deferred join. Below it, reading the records the
 * offset skips costs about what the outer statement's lookups of the page's keys do.
 */
export const DEFERRED_OFFSET = 500;

/** The derived table of the page's keys, and its key columns. */
const pageAlias = quoteIdentifier('__kqm_page');
const keyName = (index: number): string => quoteIdentifier(`__kqm_page${index}`);

/** The model's idColumn fields: unique, as Objection requires, so each key meets one record. */
function primaryKey(scope: ScopeCatalog): Column[] {
  return scope.idColumns.flatMap((name) => scope.columns.get(name) ?? []);
}

/**
 * Whether the root's page at `offset` is read by a deferred join: a deep OFFSET page whose order and
 * conditions the inner statement can read alone (no sort key, count or rank joined to the records),
 * of a model whose every key field is a column.
 */
export function defersPage(compiled: CompiledQuery, offset: number): boolean {
  const { root, cursor } = compiled;
  if (offset < DEFERRED_OFFSET || cursor !== undefined || root.others.length > 0 || root.ranks !== undefined) return false;
  const keys = primaryKey(root.catalog);
  return keys.length > 0 && keys.length === root.catalog.idColumns.length && keys.every((key) => key.table === root.catalog.table);
}

/** `"users"."id" as "__kqm_page0"`: what the inner statement selects. */
export function pageKeysSelect(scope: ScopeCatalog): string {
  return primaryKey(scope)
    .map((key, i) => `${columnSql(key)} as ${keyName(i)}`)
    .join(', ');
}

/** `"users"."id" = "__kqm_page"."__kqm_page0"`: the records met with their keys. */
function pageKeysOn(scope: ScopeCatalog): string {
  return primaryKey(scope)
    .map((key, i) => `${columnSql(key)} = ${pageAlias}.${keyName(i)}`)
    .join(' and ');
}

/**
 * `select <select> from "users" inner join (?) as "__kqm_page" on … order by <order>` with `?`
 * standing for the inner statement: knex's raw form on the builder path, where the inner statement
 * is a builder written in its place (in parentheses).
 */
export function deferredText(scope: ScopeCatalog, select: string, from: string, order: string, inner: string): string {
  return `select ${select} from ${from} inner join ${inner} as ${pageAlias} on ${pageKeysOn(scope)}${order === '' ? '' : ` order by ${order}`}`;
}

/** The page's records read by the keys `inner` pages (its select list is pageKeysSelect()). */
export function deferredStatement(scope: ScopeCatalog, select: string, from: string, order: string, inner: Statement): Statement {
  return { sql: deferredText(scope, select, from, order, `(${inner.sql})`), bindings: inner.bindings };
}
