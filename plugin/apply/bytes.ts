// The response byte budget on the database's side (docs/configuration.md, limits.maxResponseBytes):
// a rows statement is wrapped so that PostgreSQL sums each row's JSON text in the order the rows
// come and sends only the rows within the budget plus the first one past it, each with the running
// sum. The plugin learns that the budget was passed without receiving the rest, in the same
// statement: no extra statement, no extra round-trip, on PGlite and pg alike.
//
// A row's size is written from its columns when their names and kinds are known (the keys as
// constants, each value's text length, which PostgreSQL knows of a text without reading it);
// otherwise the whole row goes through `row_to_json`, which costs several times more per row.

import type { Column } from '../schema';
import { quoteIdentifier } from './sql';
import type { Row } from './types';

/** The running sum of the rows' JSON text, in bytes, up to and including each row. */
export const BYTES_COLUMN = '__kqm_bytes';

/** How a value is written in JSON: a string is quoted, a number, boolean or JSON value is not. */
export type MeasuredKind = 'string' | 'bare';

/** One column of a statement's rows, by the name it has there. */
export interface MeasuredColumn {
  readonly name: string;
  readonly kind: MeasuredKind;
}

/**
 * The JSON text of one row of `"__kqm_t"` in bytes, as PostgreSQL's `row_to_json` writes it, but
 * for the escapes inside strings: `{"id":1,"name":"Ann"}` is `22 + length(id) + length(name)`.
 */
export function rowSize(columns: readonly MeasuredColumn[]): string {
  // Braces, the commas between values, and each `"key":`.
  let constant = 2 + Math.max(0, columns.length - 1);
  const values: string[] = [];
  for (const { name, kind } of columns) {
    constant += Buffer.byteLength(JSON.stringify(name)) + 1;
    // A NULL is `null`; a string's quotes are counted with it.
    values.push(`coalesce(octet_length("__kqm_t".${quoteIdentifier(name)}::text)${kind === 'string' ? ' + 2' : ''}, 4)`);
  }
  return `(${[String(constant), ...values].join(' + ')})`;
}

/**
 * `select ... from (...) where <bytes before the row> <= ?` around `inner` (statement text, or `?`
 * for a builder bound in its place); the budget is the last binding. With `columns` (inner's every
 * column, names unique), the row's size is written from them and the rows come back as they are;
 * without, the whole row is carried as one value through the window, so the statement's own columns
 * come back as they were, whatever a builder or a host's hook selected.
 */
export function byteCapped(inner: string, columns?: readonly MeasuredColumn[]): string {
  if (columns !== undefined) return byteCappedBy(inner, rowSize(columns));
  return (
    'select ("__kqm_b"."__kqm_t").*, "__kqm_b"."__kqm_bytes" from (' +
    'select "__kqm_t", (sum("__kqm_s") over (rows unbounded preceding))::float8 as "__kqm_bytes", "__kqm_s" from (' +
    `select "__kqm_t", octet_length(row_to_json("__kqm_t")::text) as "__kqm_s" from (${inner}) as "__kqm_t"` +
    ') as "__kqm_a") as "__kqm_b" where "__kqm_b"."__kqm_bytes" - "__kqm_b"."__kqm_s" <= ?'
  );
}

/**
 * How a column's value is written in JSON, as the select list reads it (`selected`: sql.ts
 * selectColumn, which writes bigints, numerics, dates and timestamps as text and arrays as JSON) or
 * as stored.
 */
export function columnKind(column: Column, selected: boolean): MeasuredKind {
  switch (column.type) {
    case 'smallint':
    case 'integer':
    case 'float':
    case 'boolean':
    case 'json':
    case 'array':
      return 'bare';
    case 'bigint':
    case 'numeric':
      return selected ? 'string' : 'bare';
    case 'text':
    case 'uuid':
    case 'enum':
    case 'timestamptz':
    case 'timestamp':
    case 'date':
    case 'other':
    case 'virtual':
      return 'string';
  }
}

/** byteCapped() with the size of a row of `"__kqm_t"` written as `size` (rowSize). */
export function byteCappedBy(inner: string, size: string): string {
  return (
    `select * from (select "__kqm_t".*, (sum(${size}) over (rows unbounded preceding))::float8 as "__kqm_bytes" ` +
    // `offset 0` keeps a statement that could be pulled up (a page formatted after paging) below the
    // window, so the values it computes are computed once, not again inside the sum.
    `from (select * from (${inner}) as "__kqm_i" offset 0) as "__kqm_t") as "__kqm_t" where "__kqm_t"."__kqm_bytes" - ${size} <= ?`
  );
}

/** Types PostgreSQL's JSON writes bare (numbers, booleans, JSON), by their built-in OIDs. */
const BARE_TYPES = new Set([16, 20, 21, 23, 26, 114, 700, 701, 1700, 3802]);

/**
 * The columns of a statement as the driver described its result (`fields`: name and type OID), the
 * wrapper's own column left out; undefined when they cannot be named one by one (a name twice).
 */
export function measuredColumns(fields: readonly { readonly name: string; readonly dataTypeID: number }[]): MeasuredColumn[] | undefined {
  const columns: MeasuredColumn[] = [];
  const seen = new Set<string>();
  for (const { name, dataTypeID } of fields) {
    if (name === BYTES_COLUMN) continue;
    if (seen.has(name)) return undefined;
    seen.add(name);
    columns.push({ name, kind: BARE_TYPES.has(dataTypeID) ? 'bare' : 'string' });
  }
  return columns;
}

/**
 * The columns of each kept statement, learnt from its first byte-capped run and kept as long as the
 * compiled query that writes it (the plan cache's entry): its later runs measure rows from them.
 */
const learnt = new WeakMap<object, string | null>();

/** The row size (rowSize) of the statement `owner` writes, written once; undefined until its first run. */
export function knownSize(owner: object): string | undefined {
  return learnt.get(owner) ?? undefined;
}

/** Keeps what the first run of `owner`'s statement told of its columns (once; null: measure whole rows). */
export function learnColumns(owner: object, fields: unknown): void {
  if (learnt.has(owner)) return;
  const columns = Array.isArray(fields) ? measuredColumns(fields as { name: string; dataTypeID: number }[]) : undefined;
  learnt.set(owner, columns === undefined ? null : rowSize(columns));
}

/**
 * The bytes the rows of a byte-capped statement hold (the last row's running sum), with the column
 * taken out of every row; `over` when the statement stopped past `cap`.
 */
export function takeBytes(rows: readonly Row[], cap: number): { readonly bytes: number; readonly over: boolean } {
  if (rows.length === 0) return { bytes: 0, over: false };
  const bytes = Number((rows[rows.length - 1] as Row)[BYTES_COLUMN] ?? 0);
  // The column is each row's last: deleting it keeps the row's shape as the driver built it.
  for (const row of rows) delete (row as { __kqm_bytes?: unknown }).__kqm_bytes;
  return { bytes, over: bytes > cap };
}
