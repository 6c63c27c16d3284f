// Renders identifiers, type names and output columns as SQL in knex's raw form. Identifiers and type
// names come only from the catalog and are quoted here; every client value is a `?` binding (house
// SQL-safety rule). Conditions are rendered in conditions.ts.

import type { Column } from '../schema';
import type { BoundValue } from '../validate';

export interface Fragment {
  readonly sql: string;
  readonly bindings: readonly (string | number | boolean)[];
}

/** `fragment('"t"."id" = ?', [1])`: SQL text with its bindings, in order. */
export const fragment = (sql: string, bindings: readonly BoundValue[] = []): Fragment => ({ sql, bindings });

/** `join([a, b], ' AND ')` -> `a AND b`, with a's bindings before b's. */
export function join(parts: readonly Fragment[], separator: string): Fragment {
  return fragment(parts.map((p) => p.sql).join(separator), parts.flatMap((p) => p.bindings));
}

/**
 * `user"s` -> `"user""s"`. A `?` is escaped as `\?`, which knex turns back into `?` instead of
 * reading it as a placeholder.
 */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""').replace(/\?/g, '\\?')}"`;
}

/** `public.users` -> `"public"."users"` (a dotted table name is schema-qualified, as knex reads it). */
export function quoteTable(table: string): string {
  return table.split('.').map(quoteIdentifier).join('.');
}

/** `"users"."name"`: qualified by its table, so ORDER BY never picks an output alias. */
export function qualified(table: string, column: string): string {
  return `${quoteTable(table)}.${quoteIdentifier(column)}`;
}

/** `"users"."first_name"`: a field's column, qualified by the table that holds it. */
export function columnSql(column: Column): string {
  return qualified(column.table, column.column);
}

/**
 * `"public"."mood"` for a field of an enum type: the type named with its schema, so a cast finds it
 * whatever the search path is (decisions.md 35).
 */
export function typeSql(column: Column): string {
  const schema = column.udtSchema ?? '';
  return schema === '' ? quoteIdentifier(column.udt) : `${quoteIdentifier(schema)}.${quoteIdentifier(column.udt)}`;
}

const timestampFormat = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/**
 * An array as JSON (decisions.md 35): `to_json` gives each element its JSON form on every driver;
 * bigint and numeric elements go through their text form, which keeps every digit (respond/ turns
 * safe bigints back into numbers).
 */
function arrayJson(column: Column, ref: string): string {
  const viaText = column.elementType === 'bigint' || column.elementType === 'numeric';
  return viaText ? `to_json(${ref}::text[])` : `to_json(${ref})`;
}

/**
 * A select-list entry: the plain column, or an expression that keeps full precision and reads the
 * same on every driver (decisions.md 13, 35), named after the field (its property name).
 */
export function selectColumn(column: Column): string {
  return selectColumnAs(column, column.name);
}

/** `selectColumn` under another name: `to_char("day_shifts"."day", 'YYYY-MM-DD') AS "__kqm_owner0"`. */
export function selectColumnAs(column: Column, name: string): string {
  const ref = columnSql(column);
  const as = quoteIdentifier(name);
  switch (column.type) {
    case 'timestamptz':
      return `to_char(${ref} AT TIME ZONE 'UTC', ${timestampFormat}) AS ${as}`;
    case 'timestamp':
      return `to_char(${ref}, ${timestampFormat}) AS ${as}`;
    case 'date':
      return `to_char(${ref}, 'YYYY-MM-DD') AS ${as}`;
    case 'bigint':
    case 'numeric':
    case 'other':
      return `${ref}::text AS ${as}`;
    case 'array':
      return `${arrayJson(column, ref)} AS ${as}`;
    case 'smallint':
    case 'integer':
    case 'float':
    case 'text':
    case 'boolean':
    case 'uuid':
    case 'json':
    case 'enum':
      // Both drivers read json and jsonb as parsed JSON, and an enum (a type they do not know) as text.
      return column.column === name ? ref : `${ref} AS ${as}`;
    case 'virtual':
      // Computed by the model from the other fields (decisions.md 34); never read from the table.
      return `null AS ${as}`;
  }
}
