// How a relation's two sides of a key meet in SQL. Objection matches keys in memory, so a host can
// map `tags.id` (uuid) to `notes.tag_id` (text) and expand it; PostgreSQL has no `=` between those
// types. Such a pair is compared in its text form (what Objection's in-memory match compares), and
// a key that holds an array is refused at start-up: it never equals a single key, in memory or SQL.

import type { Column } from './types';

/** Types PostgreSQL compares with each other directly (cross-type `=` operators or implicit casts). */
const FAMILIES: readonly (readonly string[])[] = [
  ['int2', 'int4', 'int8', 'numeric', 'float4', 'float8'],
  ['text', 'varchar', 'bpchar', 'name'],
  ['date', 'timestamp', 'timestamptz'],
];

function comparable(a: Column, b: Column): boolean {
  if (a.udt === b.udt && (a.udtSchema ?? '') === (b.udtSchema ?? '')) return true;
  return FAMILIES.some((family) => family.includes(a.udt) && family.includes(b.udt));
}

/** True when some pair of `left[i]`, `right[i]` has no `=` in PostgreSQL: compare the pairs as text. */
export function keysAsText(left: readonly Column[], right: readonly Column[]): boolean {
  return left.some((column, i) => right[i] !== undefined && !comparable(column, right[i]));
}

/** A problem for each key column that holds arrays (`boards.label_ids` is `_int4`). */
export function arrayKeyProblems(where: string, columns: readonly Column[]): string[] {
  return columns
    .filter((column) => column.type === 'array')
    .map(
      (column) =>
        `${where}: key column ${column.table}.${column.column} holds arrays (${column.element ?? column.udt}[]), and a relation's keys ` +
        'must be single values; map the relation through a join table with one row per element instead',
    );
}
