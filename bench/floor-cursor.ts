// The floor's keyset pages (shapes 20 and 21, docs/query-language.md, "Cursors: cursor"), written
// by hand as a careful developer would: the cursor opened (sealed as the plugin seals it, with the
// plugin's own module and the run's CURSOR_SECRET, so the bodies match and sealing costs both sides
// the same), a seek on `(created_at, id)` in the index's order (created_at descending, id
// ascending) from the boundary row on, itself included (read again, it tells that a previous page
// exists), one row read past the page, a probe for a previous page only when the boundary row is
// gone (bounded by `created_at` so the index bounds it), and Laravel's cursor envelope.

import { createCursorSeal } from '../plugin/cursor-seal';

type Run = <R extends object>(sql: string, values: unknown[]) => Promise<R[]>;
type Row = Record<string, unknown>;

const SORT = ['created_at:desc', 'id:asc'];
const TS = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

interface Cursor {
  readonly dir: 'next' | 'prev';
  readonly at: [string, string] | null;
}

const seal = createCursorSeal(process.env.CURSOR_SECRET);

function decode(text: string): Cursor | undefined {
  if (text === '') return undefined;
  const token = seal.open('users', text);
  if (token === undefined) throw new Error('a cursor that does not open');
  if (token.sort.join() !== SORT.join()) throw new Error('a cursor of another sort');
  return { dir: token.direction, at: token.at as [string, string] | null };
}

const encode = (dir: 'next' | 'prev', row: Row): string =>
  seal.seal('users', { sort: SORT, direction: dir, at: [row.__at as string, String(row.id)] });

/**
 * Rows after (`next`) or before (`prev`) the boundary, in the order they are read, led by a bound on `created_at` the index range
 * serves; the disjunction behind it is a filter (`IS TRUE`), as the plugin writes it, so PostgreSQL plans it as one. `inclusive`:
 * the boundary row itself too.
 */
function seek(dir: 'next' | 'prev', from: number, inclusive = false): string {
  const id = `${dir === 'next' ? '>' : '<'}${inclusive ? '=' : ''}`;
  return dir === 'next'
    ? `(users.created_at <= $${from}::timestamptz AND (users.created_at < $${from}::timestamptz OR (users.created_at = $${from}::timestamptz AND users.id ${id} $${from + 1}::int)) IS TRUE)`
    : `(users.created_at >= $${from}::timestamptz AND (users.created_at > $${from}::timestamptz OR (users.created_at = $${from}::timestamptz AND users.id ${id} $${from + 1}::int)) IS TRUE)`;
}

/** Rows up to the boundary, itself included: the seek's complement, within the index range on `created_at`. */
function behind(dir: 'next' | 'prev', from: number): string {
  return `status = $1 AND users.created_at ${dir === 'next' ? '>=' : '<='} $${from}::timestamptz AND NOT ${seek(dir, from)}`;
}

/** `filter[status]=...&sort[created_at]=desc&per-page=N&cursor=...` -> the cursor envelope. */
export async function cursorPage(
  run: Run,
  columns: string,
  path: string,
  rawQuery: string,
  status: string,
  perPage: number,
  text: string,
): Promise<object> {
  const cursor = decode(text);
  const dir = cursor?.dir ?? 'next';
  const at = cursor?.at ?? null;
  // Qualified: the select list's formatted `created_at` would otherwise be what ORDER BY sorts (as text, with no index).
  const order = dir === 'next' ? 'users.created_at DESC, users.id ASC' : 'users.created_at ASC, users.id DESC';
  const where = at === null ? 'status = $1' : `status = $1 AND ${seek(dir, 2, true)}`;
  const values: unknown[] = at === null ? [status] : [status, ...at];
  const rows = await run<Row>(
    `SELECT ${columns}, to_char(users.created_at AT TIME ZONE 'UTC', ${TS}) AS __at FROM users WHERE ${where} ORDER BY ${order} LIMIT $${values.length + 1}`,
    [...values, perPage + (at === null ? 1 : 2)],
  );
  // The boundary row read again: a previous page exists. Gone: ask on its own.
  const boundary = at !== null && rows[0] !== undefined && rows[0].__at === at[0] && String(rows[0].id) === at[1];
  const read = boundary ? rows.slice(1) : rows;
  const found = boundary || (at !== null && (await run<Row>(`SELECT 1 FROM users WHERE ${behind(dir, 2)} LIMIT 1`, values)).length > 0);
  const page = read.slice(0, perPage);
  if (dir === 'prev') page.reverse();
  const [hasNext, hasPrev] = dir === 'next' ? [read.length > perPage, found] : [found, read.length > perPage];
  const first = page[0];
  const last = page[page.length - 1];
  const next = hasNext && last !== undefined ? encode('next', last) : null;
  const prev = hasPrev && first !== undefined ? encode('prev', first) : null;
  for (const row of page) delete row.__at;
  const url = (c: string): string => `${path}?${rawQuery.replace(/(^|&)cursor=[^&]*/, `$1cursor=${c}`)}`;
  return {
    data: page,
    path,
    per_page: perPage,
    next_cursor: next,
    next_page_url: next === null ? null : url(next),
    prev_cursor: prev,
    prev_page_url: prev === null ? null : url(prev),
  };
}
