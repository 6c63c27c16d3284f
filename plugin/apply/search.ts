// One field of a `search` (docs/query-language.md, "search"): case-insensitive LIKE in the form the
// catalog chose for the column from its indexes (schema/search-indexes.ts). Non-text fields (enums,
// arrays, numbers, ...) match on their text form (docs/query-language.md, "search").

import type { Column } from '../schema';
import { columnSql, fragment } from './sql';
import type { Fragment } from './types';

/**
 * `"users"."name" ILIKE ?` where a trigram index on the column serves it, else
 * `lower("users"."name") LIKE lower(?)`: the same rows, and cheaper where the table is scanned.
 * The pattern is lower-cased by the database, never here: JavaScript's case mapping is not the
 * database's.
 */
export function searchField(column: Column, pattern: string): Fragment {
  const ref = columnSql(column);
  const text = column.type === 'text' ? ref : `${ref}::text`;
  return column.search?.kind === 'lower' ? fragment(`lower(${text}) LIKE lower(?)`, [pattern]) : fragment(`${text} ILIKE ?`, [pattern]);
}
