// A cursor's content (docs/query-language.md, "Cursors: cursor"): a small JSON array naming the
// direction it pages in, the sort it was made for and the boundary row's sort values in their text
// forms. What a client holds is this content sealed (cursor-seal.ts); this file knows neither keys
// nor models: whether the sort and the values fit the request is the validate stage's question.

/** Which side of the boundary a cursor's page lies on, in the request's sort order. */
export type CursorDirection = 'next' | 'prev';

export interface CursorToken {
  /** The sort it was made for, tie-breaker included: `['name:desc', 'id:asc']`. */
  readonly sort: readonly string[];
  readonly direction: CursorDirection;
  /**
   * The boundary row's sort values as text (`null` for NULL), one per sort key. `null` as a whole:
   * no boundary, i.e. from the start (`next`) or from the end (`prev`) of the results.
   */
  readonly at: readonly (string | null)[] | null;
}

/** `{sort: ['id:asc'], direction: 'next', at: ['15']}` -> `["next",["id:asc"],["15"]]`. */
export function writeCursorContent(token: CursorToken): string {
  return JSON.stringify([token.direction, token.sort, token.at]);
}

const isText = (value: unknown): value is string => typeof value === 'string';

/**
 * `["next",["id:asc"],["15"]]` -> the token, or undefined when the text is not the content
 * writeCursorContent writes: not JSON, or not a direction, a sort and the values (or null).
 */
export function readCursorContent(text: string): CursorToken | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) return undefined;
  const [direction, sort, at] = parsed as unknown[];
  if (direction !== 'next' && direction !== 'prev') return undefined;
  if (!Array.isArray(sort) || sort.length === 0 || !sort.every(isText)) return undefined;
  if (at !== null && (!Array.isArray(at) || !at.every((v) => v === null || isText(v)))) return undefined;
  return Object.freeze({ sort: Object.freeze(sort), direction, at: at === null ? null : Object.freeze(at) });
}
