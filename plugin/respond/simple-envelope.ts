// Builds Laravel's simple paginator envelope for `total=none` (docs/query-language.md, "Totals: total=exact, estimated, none"): no total, no last
// page and no links; whether there is a next page comes from one row read past the page.

import { pageParts } from './envelope';
import type { JsonRecord } from './records';

export interface SimpleEnvelope {
  current_page: number;
  data: JsonRecord[];
  first_page_url: string;
  from: number | null;
  next_page_url: string | null;
  path: string;
  per_page: number;
  prev_page_url: string | null;
  to: number | null;
}

export interface SimplePageRequest {
  readonly page: number;
  readonly pageSize: number;
  /** Whether a record lies past this page. */
  readonly hasMore: boolean;
  /** The collection URL without a query, e.g. `http://localhost:3000/api/users`. */
  readonly path: string;
  /** The URL of page `n`, keeping every other query parameter. */
  readonly pageUrl: (page: number) => string;
}

/** Page 2 of 5 per page with more beyond -> `{current_page: 2, from: 6, to: 10, next_page_url: '…page=3', ...}`. */
export function buildSimpleEnvelope(data: JsonRecord[], request: SimplePageRequest): SimpleEnvelope {
  const { head, tail } = pageParts(data, request);
  return { ...head, next_page_url: request.hasMore ? request.pageUrl(request.page + 1) : null, ...tail };
}
