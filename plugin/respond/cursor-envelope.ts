// Builds Laravel's cursor paginator envelope (docs/query-language.md, "Cursors: cursor"): the records, the page size and the
// cursors of the pages on either side with their URLs; no page numbers, no total.

import type { JsonRecord } from './records';

export interface CursorEnvelope {
  data: JsonRecord[];
  path: string;
  per_page: number;
  next_cursor: string | null;
  next_page_url: string | null;
  prev_cursor: string | null;
  prev_page_url: string | null;
}

export interface CursorPageRequest {
  readonly pageSize: number;
  /** The collection URL without a query, e.g. `http://localhost:3000/api/users`. */
  readonly path: string;
  /** Null when no record lies past the page, likewise before it. */
  readonly nextCursor: string | null;
  readonly prevCursor: string | null;
  /** The URL of the page a cursor points to, keeping every other query parameter. */
  readonly cursorUrl: (cursor: string) => string;
}

/** A page of 15 with more beyond -> `{data, path, per_page: 15, next_cursor: 'eyJ…', next_page_url: '…cursor=eyJ…', ...}`. */
export function buildCursorEnvelope(data: JsonRecord[], request: CursorPageRequest): CursorEnvelope {
  const { nextCursor, prevCursor, cursorUrl } = request;
  return {
    data,
    path: request.path,
    per_page: request.pageSize,
    next_cursor: nextCursor,
    next_page_url: nextCursor === null ? null : cursorUrl(nextCursor),
    prev_cursor: prevCursor,
    prev_page_url: prevCursor === null ? null : cursorUrl(prevCursor),
  };
}
