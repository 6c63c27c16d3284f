// Which rows the root's statement reads for a request's paging, and how many of them are shown: a
// cursor page, a page without a total and a cut bare array read one row past what they show, which
// only tells that there are more (docs/query-language.md, "Totals: total=exact, estimated, none");
// a cursor page past a boundary reads the boundary row first too (seek.ts).

import type { ValidatedPaging } from '../validate';

/** `per-page=20&page=3` -> `{limit: 20, offset: 40}`; `per-page=20&total=none` -> `{limit: 21, offset: 0}`. */
export function rootWindow(paging: ValidatedPaging): { limit: number; offset: number } {
  // One row past a cursor page tells whether more lie that way
  // (docs/query-language.md, "Cursors: cursor"); past a boundary, the boundary row read again first
  // tells that a record lies behind the page.
  if (paging.kind === 'cursor') return { limit: paging.pageSize + (paging.cursor?.at === undefined ? 1 : 2), offset: 0 };
  if (paging.kind === 'page') {
    // Without a total, one row past the page tells whether there is a next page
    // (docs/query-language.md, "Totals: total=exact, estimated, none").
    const limit = paging.total.kind === 'none' ? paging.pageSize + 1 : paging.pageSize;
    return { limit, offset: (paging.page - 1) * paging.pageSize };
  }
  // One row past the cap tells whether the response was cut
  // (docs/query-language.md, "limit, offset and the row cap").
  return { limit: paging.truncatable ? paging.limit + 1 : paging.limit, offset: paging.offset };
}

/** How many of the rows read are shown: `per-page=20&total=none` -> 20 of the 21 read. */
export function shownRows(paging: ValidatedPaging): number {
  if (paging.kind === 'page' || paging.kind === 'cursor') return paging.pageSize;
  return paging.limit;
}
