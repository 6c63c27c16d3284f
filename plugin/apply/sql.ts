// Renders identifiers, type names and output columns as SQL in knex's raw form. Identifiers and type
// names come only from the catalog and are quoted here; every client value is a `?` binding (house
// SQL-safety rule). Conditions are rendered in conditions.ts.

import type { Column } from '../schema';
import type { Fragment } from './types';

/** `fragment('"t"."id" = ?', [1])`: SQL text with its bindings, in order. */
export const fragment = (sql: string, bindings: readonly unknown[] = []): Fragment => ({ sql, bindings });

/**
 * `join([a, b], ' AND ')` -> `a AND b`, with a's bindings before b's. A loop, not map and flatMap:
 * a cursor page's seek is joined on every request, and flatMap over a few short lists costs
 * microseconds.
 */
export function join(parts: readonly Fragment[], separator: string): Fragment {
  let sql = '';
  const bindings: unknown[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as Fragment;
    sql = i === 0 ? part.sql : `${sql}${separator}${part.sql}`;
    for (const binding of part.bindings) bindings.push(binding);
  }
  return fragment(sql, bindings);
}

/**
 * `user"s` -> `"user""s"`. A `?` is escaped as `\?`, which knex turns back into `?` instead of
 * reading it as a placeholder.
 */
export function quoteIdentifier(name: string): string {
  const kept = quotedNames.get(name);
  if (kept !== undefined) return kept;
  const quoted = `"${name.replace(/"/g, '""').replace(/\?/g, '\\?')}"`;
  // Names come from the catalog and the plugin's own aliases, a few hundred at most; the bound only
  // keeps a catalog of unusual size from growing the map without end.
  if (quotedNames.size < QUOTED_KEPT) quotedNames.set(name, quoted);
  return quoted;
}

/** Quoted names kept: writing a new query string's statements quotes the same few names over and over. */
const quotedNames = new Map<string, string>();
const QUOTED_KEPT = 4096;

/**
 * `it's` -> `'it''s'`: a name from the catalog as a string literal (a JSON object's key), `?` escaped
 * as in quoteIdentifier. Client values are never written this way: they are bindings.
 */
export function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''").replace(/\?/g, '\\?')}'`;
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
  const kept = columnRefs.get(column);
  if (kept !== undefined) return kept;
  const ref = qualified(column.table, column.column);
  const sql = column.zeroWhenMissing === true ? `coalesce(${ref}, 0)` : ref;
  columnRefs.set(column, sql);
  return sql;
}

/**
 * A relation key as it is compared with the other side: `"notes"."tag_id"`, or `"tags"."id"::text`
 * when the two sides' types have no `=` between them (schema/key-types.ts).
 */
export function keySql(column: Column, asText: boolean): string {
  return asText ? `${columnSql(column)}::text` : columnSql(column);
}

/** Each catalog column's reference, written once (a column made for one request goes with it). */
const columnRefs = new WeakMap<Column, string>();

/**
 * `"public"."mood"` for a field of an enum type: the type named with its schema, so a cast finds it
 * whatever the search path is (docs/query-language.md, "Enums").
 */
export function typeSql(column: Column): string {
  const schema = column.udtSchema ?? '';
  return schema === '' ? quoteIdentifier(column.udt) : `${quoteIdentifier(schema)}.${quoteIdentifier(column.udt)}`;
}

const timestampFormat = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/**
 * An array as JSON (docs/query-language.md, "Enums, arrays and JSON"): `to_json` gives each element
 * its JSON form on every driver; bigint and numeric elements go through their text form, which
 * keeps every digit (respond/ turns safe bigints back into numbers).
 */
function arrayJson(column: Column, ref: string): string {
  const viaText = column.elementType === 'bigint' || column.elementType === 'numeric';
  return viaText ? `to_json(${ref}::text[])` : `to_json(${ref})`;
}

/**
 * A value's text form, as the select list writes it where it keeps precision
 * (docs/query-language.md, "How values come back"): timestamps in UTC with microseconds and `Z`,
 * dates as `YYYY-MM-DD`, anything else its `::text`. `ref` is the value's SQL, a column by default.
 */
export function textOf(column: Column, ref = columnSql(column)): string {
  if (column.type === 'timestamptz') return `to_char(${ref} AT TIME ZONE 'UTC', ${timestampFormat})`;
  if (column.type === 'timestamp') return `to_char(${ref}, ${timestampFormat})`;
  if (column.type === 'date') return `to_char(${ref}, 'YYYY-MM-DD')`;
  return `${ref}::text`;
}

/**
 * Whether a field's select-list entry computes its value (to_char, a cast, to_json) instead of
 * reading the column: PostgreSQL computes it for every row a scan or sort passes, including those
 * an OFFSET skips, so such lists are applied to the page's rows only (statements.ts).
 */
export const formatsValue = (column: Column): boolean => computedTypes[column.type];

const computedTypes: Readonly<Record<Column['type'], boolean>> = {
  timestamptz: true,
  timestamp: true,
  date: true,
  bigint: true,
  numeric: true,
  other: true,
  array: true,
  smallint: false,
  integer: false,
  float: false,
  text: false,
  boolean: false,
  uuid: false,
  json: false,
  enum: false,
  virtual: false,
};

/**
 * A select-list entry: the plain column, or an expression that keeps full precision and reads the
 * same on every driver (docs/query-language.md, "How values come back"), named after the field (its
 * property name) unless `name` says otherwise. `ref` is where the value is read, under the name
 * `readAs`: the table's column, or an inner statement's.
 */
export function selectColumn(
  column: Column,
  ref: string = columnSql(column),
  readAs: string = column.column,
  name: string = column.name,
): string {
  const as = quoteIdentifier(name);
  const bare = readAs === name;
  switch (column.type) {
    case 'timestamptz':
    case 'timestamp':
    case 'date':
      return `${textOf(column, ref)} AS ${as}`;
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
      return bare ? ref : `${ref} AS ${as}`;
    case 'virtual':
      // Computed by the model from the other fields
      // (docs/configuration.md, "Your models as they are"); never read from the table.
      return `null AS ${as}`;
  }
}

/** `selectColumn` under another name: `to_char("day_shifts"."day", 'YYYY-MM-DD') AS "__kqm_owner0"`. */
export function selectColumnAs(column: Column, name: string): string {
  return selectColumn(column, columnSql(column), column.column, name);
}

/** `"users"."first_name" as "firstName"`: the column as stored, under the field's name (an inner statement's rows). */
export function rawColumn(column: Column): string {
  const ref = columnSql(column);
  return column.column === column.name ? ref : `${ref} as ${quoteIdentifier(column.name)}`;
}
