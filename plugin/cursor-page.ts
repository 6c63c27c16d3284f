// How a cursor page's rows become its envelope's parts (docs/query-language.md, "Cursors: cursor"):
// the page in the request's order (a backward page is read in the turned order, then turned back),
// the cursors on either side made from the boundary rows' key columns, which are then dropped from
// the rows, and whether any record lies on either side: the row read past the page on one, on the
// other the cursor's boundary row read again before the page (or, when it is gone, the probe run on
// its own).

import { keyAlias, keyTexts, type CompiledQuery, type CursorSql, type Row, type Runnable } from './apply';
import { isUnavailable, raise } from './errors';
import type { CursorDirection, CursorToken } from './syntax';
import { UNFIT_VALUE } from './validate';

export interface CursorPage {
  /** The records' rows in the request's order, without the key columns. */
  readonly rows: Row[];
  readonly nextCursor: string | null;
  readonly prevCursor: string | null;
}

type CursorPaging = Extract<CompiledQuery['paging'], { kind: 'cursor' }>;

/** What the probe found behind the boundary, and the statements asked for it. */
export interface Behind {
  readonly found: boolean;
  readonly statements: number;
}

/**
 * Whether any record lies on the boundary's other side: `true` when the boundary row was read again
 * (the seek includes it, seek.ts); when that row is gone (deleted, or its keys changed since the
 * cursor was made) the probe runs on its own (1 statement). No probe (the first page, or the last
 * one read backwards from the end): nothing lies there.
 */
export async function lookBehind(probe: Runnable | undefined, readBoundary: boolean): Promise<Behind> {
  if (probe === undefined) return { found: false, statements: 0 };
  if (readBoundary) return { found: true, statements: 0 };
  return { found: (await probe.rows()).length > 0, statements: 1 };
}

/**
 * `rows` (read in the reading order, one past the page) and what lies behind -> the page and its
 * cursors, each sealed by `seal` (the mount's seal for this collection, cursor-seal.ts).
 */
export function cursorPage(
  paging: CursorPaging,
  sql: CursorSql,
  read: readonly Row[],
  behind: boolean,
  seal: (token: CursorToken) => string,
): CursorPage {
  const direction: CursorDirection = paging.cursor?.direction ?? 'next';
  const page = read.slice(0, paging.pageSize);
  if (direction === 'prev') page.reverse();
  const onward = read.length > paging.pageSize;
  const [hasNext, hasPrev] = direction === 'next' ? [onward, behind] : [behind, onward];
  const count = sql.keys.length;
  const first = page[0];
  const last = page[page.length - 1];
  // An empty page past a boundary: every record lies on the other side, so that page starts at the start or the end.
  const make = (towards: CursorDirection, row: Row | undefined): string =>
    seal({ sort: sql.signature, direction: towards, at: row === undefined ? null : keyTexts(row, count) });
  const nextCursor = hasNext ? make('next', last) : null;
  const prevCursor = hasPrev ? make('prev', first) : null;
  for (const row of page) {
    // The hidden columns leave the row pg returned before it is shaped; copying every row would cost more.
    // Last column first: V8 deletes an object's newest property without giving up its fast shape.
    // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- the names are the cursor's own `__kqm_k<n>` columns
    for (let i = count - 1; i >= 0; i--) delete row[keyAlias(i)];
  }
  return { rows: page, nextCursor, prevCursor };
}

/** `unnamed portal parameter $2 = '...'`: PostgreSQL's context of an error met while reading a bound value as its type. */
const readingParameter = /^(unnamed portal|portal ".*") parameter \$\d+/s;

/**
 * Whether the database refused a value it was handed, rather than the statement: a data exception
 * (SQLSTATE class 22), a program limit (class 54: a seventh array dimension, a tsvector word too
 * long), or any error met while reading a bound value as its type (a tsquery's syntax error is 42601).
 */
function refusedValue(error: unknown): boolean {
  const { code, where } = (error ?? {}) as { code?: unknown; where?: unknown };
  if (typeof code !== 'string') return false;
  return code.startsWith('22') || code.startsWith('54') || (typeof where === 'string' && readingParameter.test(where));
}

/**
 * A cursor's values of types checked only by the database (`other`, arrays:
 * docs/query-language.md, "Cursors: cursor") are read as `?::type` (every other value of such a
 * page is checked before SQL, or compared as text), so the database's refusal of a value means the
 * cursor holds what its key cannot: INVALID_CURSOR. A cursor opens only when this server sealed it,
 * so that takes a leaked key or a fault of the plugin's; it is still no 5xx.
 */
export async function guardCursor<T>(compiled: CompiledQuery, running: Promise<T>): Promise<T> {
  const { paging } = compiled;
  if (paging.kind !== 'cursor' || paging.cursor === undefined || paging.cursor.checked) return running;
  try {
    return await running;
  } catch (error) {
    if (isUnavailable(error) || !refusedValue(error)) throw error;
    return raise('INVALID_CURSOR', 'cursor', `\`cursor\` ${UNFIT_VALUE}`);
  }
}
