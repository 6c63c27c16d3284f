// The response byte budget on the database's side (docs/configuration.md, limits.maxResponseBytes):
// a rows statement is wrapped so that PostgreSQL sums each row's JSON text in the order the rows
// come and sends only the rows within the budget plus the first one past it, each with the running
// sum. The plugin learns that the budget was passed without receiving the rest, in the same
// statement: no extra statement, no extra round-trip, on PGlite and pg alike.

import type { Row } from './types';

/** The running sum of the rows' JSON text, in bytes, up to and including each row. */
export const BYTES_COLUMN = '__kqm_bytes';

/**
 * `select ("__kqm_b"."__kqm_t").*, "__kqm_b"."__kqm_bytes" from (...) where <bytes before the row> <= ?`
 * around `inner` (statement text, or `?` for a builder bound in its place); the budget is the last
 * binding. The whole row is carried as one value through the window, so the statement's own columns
 * come back as they were, whatever a builder or a host's hook selected.
 */
export function byteCapped(inner: string): string {
  return (
    'select ("__kqm_b"."__kqm_t").*, "__kqm_b"."__kqm_bytes" from (' +
    'select "__kqm_t", (sum("__kqm_s") over (rows unbounded preceding))::float8 as "__kqm_bytes", "__kqm_s" from (' +
    `select "__kqm_t", octet_length(row_to_json("__kqm_t")::text) as "__kqm_s" from (${inner}) as "__kqm_t"` +
    ') as "__kqm_a") as "__kqm_b" where "__kqm_b"."__kqm_bytes" - "__kqm_b"."__kqm_s" <= ?'
  );
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
