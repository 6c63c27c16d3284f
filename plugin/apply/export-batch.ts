// One batch of a whole-list CSV export (docs/query-language.md, "Export as CSV"): a cursor page of the
// request, read with the seek the cursors use (seek.ts), so the batches follow the request's order
// with the primary key as the last key and nothing repeats or is skipped. A batch reads at most
// `limits.maxResponseBytes` of JSON text (bytes.ts): the rows past it are read by the next batch, which
// starts after the last row kept. Each batch is its own statement, on a connection taken from the pool
// for it and given back after.

import type { Knex } from 'knex';
import { raise } from '../errors';
import { checkCursor } from '../validate';
import { takeBytes } from './bytes';
import type { CompiledQuery } from './compiled';
import { rootWindow } from './paging';
import { planQueries, type PlannedQueries, type Row, type ScopeHook } from './query';
import { refuseTermless } from './ranked';
import { cursorSqlAt, isBoundary, keyAlias, keyTexts } from './seek';

export interface ExportBatch {
  /** The batch's rows in the request's order, without the cursor's key columns. */
  readonly rows: Row[];
  /** Where the next batch starts (the last row's sort values as text); undefined after the last batch. */
  readonly next: readonly (string | null)[] | undefined;
  /** The JSON text the rows hold, in bytes, as the database measured it. */
  readonly bytes: number;
}

/** The compiled first batch moved to start after the row whose sort values are `at`. */
export function batchAfter(first: CompiledQuery, at: readonly (string | null)[]): CompiledQuery {
  const { paging, cursor: sql } = first;
  if (paging.kind !== 'cursor' || sql === undefined) throw new Error('koa-query-modifiers: an export batch without its cursor');
  const cursor = checkCursor({ sort: [...sql.signature], direction: 'next', at: [...at] }, sql.sort);
  return Object.freeze({ ...first, paging: Object.freeze({ ...paging, cursor }), cursor: cursorSqlAt(sql, cursor) });
}

/**
 * Reads one batch of `compiled` (a whole-list export's cursor page, `batchAfter` for every batch but
 * the first, which the pipeline has `planned` already) within `maxBytes`; a single record larger than
 * that is LIMIT_EXCEEDED.
 */
export async function readExportBatch(
  compiled: CompiledQuery,
  knex: Knex,
  hook: ScopeHook | undefined,
  maxBytes: number,
  planned?: PlannedQueries,
): Promise<ExportBatch> {
  const sql = compiled.cursor;
  if (sql === undefined) throw new Error('koa-query-modifiers: an export batch without its cursor');
  const { rows: statement } = planned ?? (await planQueries(compiled, knex, hook));
  const { limit } = rootWindow(compiled.paging);
  const read = statement.rowsWithin === undefined ? await statement.rows() : await statement.rowsWithin(maxBytes);
  const { bytes, over } = statement.rowsWithin === undefined ? { bytes: 0, over: false } : takeBytes(read, maxBytes);
  const complete = !over && read.length < limit;
  // The row that passed the budget is read again by the next batch.
  if (over) read.pop();
  if (isBoundary(sql, read[0])) read.shift();
  if (over && read.length === 0) {
    raise(
      'LIMIT_EXCEEDED',
      'fields',
      `A record is larger than ${maxBytes} bytes, more than one response may hold; ask for fewer or smaller fields`,
      maxBytes,
    );
  }
  if (read.length === 0 && compiled.paging.kind === 'cursor' && compiled.paging.cursor === undefined && compiled.terms !== undefined) {
    await refuseTermless(knex, compiled.terms);
  }
  const last = read[read.length - 1];
  const count = sql.keys.length;
  const next = complete || last === undefined ? undefined : keyTexts(last, count);
  for (const row of read) {
    // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- the names are the cursor's own `__kqm_k<n>` columns
    for (let i = count - 1; i >= 0; i--) delete row[keyAlias(i)];
  }
  return { rows: read, next, bytes };
}
