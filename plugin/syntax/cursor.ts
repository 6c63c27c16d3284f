// The cursor's wire form (decisions.md 43): base64url of a small JSON object naming the sort it was
// made for, the direction it pages in and the boundary row's sort values in their text forms. It
// knows no model: whether the sort and the values fit the request is the validate stage's question.

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

const base64url = /^[A-Za-z0-9_-]+$/;

/** `{sort: ['id:asc'], direction: 'next', at: ['15']}` -> `eyJzb3J0IjpbImlkOmFzYyJdLC…`. */
export function encodeCursor(token: CursorToken): string {
  const json = JSON.stringify({ sort: token.sort, dir: token.direction, at: token.at });
  return Buffer.from(json, 'utf8').toString('base64url');
}

const isText = (value: unknown): value is string => typeof value === 'string';

function tokenOf(parsed: unknown): CursorToken | undefined {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const { sort, dir, at, ...rest } = parsed as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return undefined;
  if (!Array.isArray(sort) || sort.length === 0 || !sort.every(isText)) return undefined;
  if (dir !== 'next' && dir !== 'prev') return undefined;
  if (at !== null && (!Array.isArray(at) || !at.every((v) => v === null || isText(v)))) return undefined;
  return Object.freeze({ sort: Object.freeze(sort), direction: dir, at: at === null ? null : Object.freeze(at) });
}

/**
 * `eyJzb3J0Ijpb…` -> the token, or undefined when the text is not one this plugin wrote: not
 * base64url in its one canonical spelling, not UTF-8 JSON, or not the token's shape.
 */
export function decodeCursor(text: string): CursorToken | undefined {
  if (!base64url.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  // Node ignores trailing bits; only the spelling encodeCursor writes is accepted.
  if (bytes.toString('base64url') !== text) return undefined;
  try {
    // Bytes that are not UTF-8 throw; a byte-order mark is kept, and JSON.parse refuses it.
    return tokenOf(JSON.parse(utf8.decode(bytes)));
  } catch {
    return undefined;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
