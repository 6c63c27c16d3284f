// Validates `cursor` (docs/query-language.md, "Cursors: cursor"): the parameters it cannot be
// combined with, the page size, and the cursor itself: opened with the mount's seal for this
// collection (a cursor that does not open is refused before any of its values is read), then checked
// against the request's sort (the same keys and directions) and each boundary value against its
// key's type with the coercion a filter value gets. A refusal names no field, type or value: a
// cursor's content is the server's, not the client's.

import { problem, QueryError, type Problem } from '../errors';
import type { Column } from '../schema';
import type { CursorToken, QueryDescription } from '../syntax';
import { isArrayLiteral } from './array-literal';
import { validatePageSize, type PageSizeLimits } from './page-size';
import type { BoundValue, CursorOpener, OrderKey, ValidatedCursor, ValidatedPaging } from './types';
import { coerceValue } from './values';

export interface CursorLimits extends PageSizeLimits {
  readonly cursorSeal: CursorOpener;
}

/** `sort[name]=desc` on users -> `['name:desc', 'id:asc']`: what a cursor records of the sort it was made for. */
export function sortSignature(order: readonly OrderKey[]): string[] {
  return order.map((key) => `${key.column.name}:${key.direction}`);
}

const invalid = (detail: string): Problem => problem('INVALID_CURSOR', 'cursor', `\`cursor\` ${detail}`);

/** The detail of a cursor that did not open: not sealed by this server, for this collection, with a key it still has. */
const UNOPENED = 'cannot be opened: use a `next_cursor` or `prev_cursor` as given, or start again with `cursor=`';
const OTHER_SORT = 'was made for another sort: start again with `cursor=`';
/** Also the detail of cursor-page.ts, when the database refuses a value only it could check. */
export const UNFIT_VALUE = 'holds a value its sort key cannot hold: start again with `cursor=`';

/** Keys whose values no check here can vouch for: the database reads them (`?::type`) and may refuse them. */
const unchecked = (column: Column): boolean => column.type === 'other' || column.type === 'array';

const specialNumbers = new Set(['NaN', 'Infinity', '-Infinity']);

/** Whether `text` can be a boundary value of `column` as far as anything before SQL can tell. */
function fitsUnchecked(column: Column, text: string): boolean {
  // A seventh dimension is a program limit to PostgreSQL, not a data exception: refused here.
  return column.type !== 'array' || isArrayLiteral(text);
}

/** One boundary value typed as a filter value of its key would be; undefined when it does not fit. */
function boundValue(column: Column, text: string | null): { value: BoundValue | null } | undefined {
  if (text === null) return column.nullable ? { value: null } : undefined;
  if (text.includes('\u0000')) return undefined;
  if (unchecked(column)) return fitsUnchecked(column, text) ? { value: text } : undefined;
  if ((column.type === 'float' || column.type === 'numeric') && specialNumbers.has(text)) return { value: text };
  const coerced = coerceValue(column, { kind: 'text', text, quoted: false });
  // A date-only value on a timestamp key is a whole day, which no row's value is.
  return coerced.ok && coerced.operand.kind === 'value' ? { value: coerced.operand.value } : undefined;
}

function checkToken(token: CursorToken, order: readonly OrderKey[]): ValidatedCursor | Problem {
  const expected = sortSignature(order);
  if (token.sort.length !== expected.length || token.sort.some((key, i) => key !== expected[i])) return invalid(OTHER_SORT);
  if (token.at === null) return Object.freeze({ direction: token.direction, at: undefined, texts: undefined, checked: true });
  if (token.at.length !== order.length) return invalid(UNFIT_VALUE);
  const at: (BoundValue | null)[] = [];
  for (const [i, key] of order.entries()) {
    const bound = boundValue(key.column, token.at[i] ?? null);
    if (bound === undefined) return invalid(UNFIT_VALUE);
    at.push(bound.value);
  }
  return Object.freeze({
    direction: token.direction,
    at: Object.freeze(at),
    texts: token.at,
    checked: !order.some((key) => unchecked(key.column)),
  });
}

/**
 * A later request's cursor on a kept query (prepared.ts), opened there: everything else in its query
 * string is the kept query's, already valid, so the cursor's problem is the only one there can be.
 */
export function checkCursor(token: CursorToken, order: readonly OrderKey[]): ValidatedCursor {
  const checked = checkToken(token, order);
  if ('code' in checked) throw new QueryError([checked]);
  return checked;
}

/** Page, limit, offset and total cannot be combined with a cursor (docs/query-language.md, "Cursors: cursor"). */
function checkConflicts(description: QueryDescription, problems: Problem[]): void {
  for (const key of ['page', 'limit', 'offset', 'total']) {
    if (!description.keys.includes(key)) continue;
    const why = key === 'total' ? 'a cursor page has no total' : 'a cursor page starts where the cursor points';
    problems.push(problem('CONFLICTING_PARAMETERS', key, `\`${key}\` cannot be combined with \`cursor\`: ${why}`));
  }
}

/** `cursor=&per-page=10` on users -> `{kind: 'cursor', pageSize: 10, cursor: undefined}` (the first page). */
export function validateCursorPaging(
  description: QueryDescription,
  collection: string,
  order: readonly OrderKey[],
  limits: CursorLimits,
  problems: Problem[],
): ValidatedPaging {
  checkConflicts(description, problems);
  const pageSize = validatePageSize(description.paging, limits, problems);
  const text = description.cursor ?? '';
  if (text === '') return Object.freeze({ kind: 'cursor', pageSize, cursor: undefined });
  const token = limits.cursorSeal.open(collection, text);
  const checked = token === undefined ? invalid(UNOPENED) : checkToken(token, order);
  if ('code' in checked) {
    problems.push(checked);
    return Object.freeze({ kind: 'cursor', pageSize, cursor: undefined });
  }
  return Object.freeze({ kind: 'cursor', pageSize, cursor: checked });
}
