// Builds the pagination envelope in Laravel's key order with its page URLs and `links` navigation
// (docs/query-language.md, "The envelope"): previous, numbered pages with `...` gaps, next.

import type { JsonRecord } from './records';

export interface PageLink {
  url: string | null;
  label: string;
  active: boolean;
}

export interface Envelope {
  current_page: number;
  data: JsonRecord[];
  first_page_url: string;
  from: number | null;
  last_page: number;
  last_page_url: string;
  links: PageLink[];
  next_page_url: string | null;
  path: string;
  per_page: number;
  prev_page_url: string | null;
  to: number | null;
  total: number;
  /** Only with `total=estimated` (docs/query-language.md, "Totals: total=exact, estimated, none"): whether `total` is the planner's estimate. */
  total_is_estimate?: boolean;
}

export interface PageRequest {
  readonly page: number;
  readonly pageSize: number;
  readonly total: number;
  /** Set with `total=estimated`: the envelope then ends with `total_is_estimate`. */
  readonly isEstimate?: boolean;
  /** The collection URL without a query, e.g. `http://localhost:3000/api/users`. */
  readonly path: string;
  /** The URL of page `n`, keeping every other query parameter. */
  readonly pageUrl: (page: number) => string;
}

const eachSide = 3;

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** The numbered entries: all pages when few, otherwise windows joined by `...` (null here). */
export function pageWindow(current: number, last: number): (number | null)[] {
  if (last < eachSide * 2 + 8) return range(1, last);
  const window = eachSide + 4;
  if (current <= window) return [...range(1, window + eachSide), null, last - 1, last];
  if (current > last - window) return [1, 2, null, ...range(last - (window + eachSide - 1), last)];
  return [1, 2, null, ...range(current - eachSide, current + eachSide), null, last - 1, last];
}

function links(request: PageRequest, last: number): PageLink[] {
  const { page, pageUrl } = request;
  const numbered = pageWindow(page, last).map((n): PageLink =>
    n === null ? { url: null, label: '...', active: false } : { url: pageUrl(n), label: String(n), active: n === page },
  );
  return [
    { url: page > 1 ? pageUrl(page - 1) : null, label: '&laquo; Previous', active: false },
    ...numbered,
    { url: page < last ? pageUrl(page + 1) : null, label: 'Next &raquo;', active: false },
  ];
}

/** The keys every page-number envelope shares, in Laravel's order: the head before the page links, the tail after. */
export function pageParts(data: JsonRecord[], request: Pick<PageRequest, 'page' | 'pageSize' | 'path' | 'pageUrl'>) {
  const { page, pageSize, pageUrl } = request;
  const from = data.length > 0 ? (page - 1) * pageSize + 1 : null;
  const head = { current_page: page, data, first_page_url: pageUrl(1), from };
  const tail = {
    path: request.path,
    per_page: pageSize,
    prev_page_url: page > 1 ? pageUrl(page - 1) : null,
    to: from === null ? null : from + data.length - 1,
  };
  return { head, tail };
}

/** Page 3 of 20 per page over 100 matches -> `{current_page: 3, from: 41, to: 60, last_page: 5, ...}`. */
export function buildEnvelope(data: JsonRecord[], request: PageRequest): Envelope {
  const { page, pageSize, total, pageUrl } = request;
  const last = Math.max(Math.ceil(total / pageSize), 1);
  const { head, tail } = pageParts(data, request);
  return {
    ...head,
    last_page: last,
    last_page_url: pageUrl(last),
    links: links(request, last),
    next_page_url: page < last ? pageUrl(page + 1) : null,
    ...tail,
    total,
    ...(request.isEstimate === undefined ? {} : { total_is_estimate: request.isEstimate }),
  };
}
