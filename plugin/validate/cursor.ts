// Validates `cursor` (decisions.md 43): the parameters it cannot be combined with, the page size,
// and the decoded cursor against the request's sort: the same keys and directions, and each boundary
// value checked against its key's type with the coercion a filter value gets, so a cursor the
// client edited can neither reach the database as a value of the wrong type nor cause a 5xx.

import { problem, QueryError, type Problem } from '../errors';
import type { Column } from '../schema';
import { decodeCursor, type CursorToken, type QueryDescription } from '../syntax';
import type { BoundValue, OrderKey, ValidatedCursor, ValidatedPaging } from './types';
import { coerceValue, typeWords } from './values';

export interface CursorLimits {
  readonly defaultPageSize: number;
  readonly maxPageSize: number;
}

/** `sort[name]=desc` on users -> `['name:desc', 'id:asc']`: what a cursor records of the sort it was made for. */
export function sortSignature(order: readonly OrderKey[]): string[] {
  return order.map((key) => `${key.column.name}:${key.direction}`);
}

const invalid = (detail: string): Problem => problem('INVALID_CURSOR', 'cursor', `\`cursor\` ${detail}`);

/** Keys whose values no check here can vouch for: the database reads them (`?::type`) and may refuse them. */
const unchecked = (column: Column): boolean => column.type === 'other' || column.type === 'array';

const specialNumbers = new Set(['NaN', 'Infinity', '-Infinity']);

/** One boundary value typed as a filter value of its key would be; a string when it does not fit. */
function boundValue(column: Column, text: string | null): { value: BoundValue | null } | string {
  if (text === null) return column.nullable ? { value: null } : `has null for ${column.name}, which is never null`;
  if (text.includes('\u0000')) return `has a value for ${column.name} with a NUL character`;
  if (unchecked(column)) return { value: text };
  if ((column.type === 'float' || column.type === 'numeric') && specialNumbers.has(text)) return { value: text };
  const coerced = coerceValue(column, { kind: 'text', text, quoted: false });
  // A date-only value on a timestamp key is a whole day, which no row's value is.
  if (!coerced.ok || coerced.operand.kind !== 'value')
    return `has a value for ${column.name} that does not fit its type (${typeWords(column)})`;
  return { value: coerced.operand.value };
}

function checkToken(token: CursorToken, order: readonly OrderKey[]): ValidatedCursor | Problem {
  const expected = sortSignature(order);
  if (token.sort.length !== expected.length || token.sort.some((key, i) => key !== expected[i])) {
    return invalid(
      `was made for another sort (${token.sort.join(', ')}); this request sorts by ${expected.join(', ')}: start again with \`cursor=\``,
    );
  }
  if (token.at === null) return Object.freeze({ direction: token.direction, at: undefined, texts: undefined, checked: true });
  if (token.at.length !== order.length) return invalid('does not hold one value per sort key');
  const at: (BoundValue | null)[] = [];
  for (const [i, key] of order.entries()) {
    const bound = boundValue(key.column, token.at[i] ?? null);
    if (typeof bound === 'string') return invalid(bound);
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
 * A later request's cursor on a kept query (prepared.ts): everything else in its query string is the
 * kept query's, already valid, so the cursor's problem is the only one there can be.
 */
export function checkCursor(token: CursorToken, order: readonly OrderKey[]): ValidatedCursor {
  const checked = checkToken(token, order);
  if ('code' in checked) throw new QueryError([checked]);
  return checked;
}

/** Page, limit, offset and total cannot be combined with a cursor (decisions.md 43, 44). */
function checkConflicts(description: QueryDescription, problems: Problem[]): void {
  for (const key of ['page', 'limit', 'offset', 'total']) {
    if (!description.keys.includes(key)) continue;
    const why = key === 'total' ? 'a cursor page has no total' : 'a cursor page starts where the cursor points';
    problems.push(problem('CONFLICTING_PARAMETERS', key, `\`${key}\` cannot be combined with \`cursor\`: ${why}`));
  }
}

/** `cursor=&per-page=10` -> `{kind: 'cursor', pageSize: 10, cursor: undefined}` (the first page). */
export function validateCursorPaging(
  description: QueryDescription,
  order: readonly OrderKey[],
  limits: CursorLimits,
  problems: Problem[],
): ValidatedPaging {
  checkConflicts(description, problems);
  const { paging } = description;
  const pageSize = (paging.kind === 'page' ? paging.pageSize : undefined) ?? limits.defaultPageSize;
  if (pageSize > limits.maxPageSize) {
    const parameter = (paging.kind === 'page' ? paging.pageSizeParameter : undefined) ?? 'per-page';
    problems.push(
      problem(
        'PAGE_SIZE_TOO_LARGE',
        parameter,
        `\`${parameter}\` is ${pageSize}; the largest page size is ${limits.maxPageSize}`,
        limits.maxPageSize,
      ),
    );
  }
  const text = description.cursor ?? '';
  if (text === '') return Object.freeze({ kind: 'cursor', pageSize, cursor: undefined });
  const token = decodeCursor(text);
  const checked =
    token === undefined ? invalid('cannot be decoded: use a `next_cursor` or `prev_cursor` as given') : checkToken(token, order);
  if ('code' in checked) {
    problems.push(checked);
    return Object.freeze({ kind: 'cursor', pageSize, cursor: undefined });
  }
  return Object.freeze({ kind: 'cursor', pageSize, cursor: checked });
}
