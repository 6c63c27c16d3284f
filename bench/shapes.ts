// The request shapes (1-6 from issue 5, 7 from issue 13, 8-13: shapes 1, 3 and 6 with `total=estimated`
// and `total=none`, issue 14, run only when named with --shapes; 14-16 from issue 12: relations in
// conditions; 17 and 18 from issue 16: a deep offset, and a search with total on a table without a
// trigram index; 19-22 from issue 14: shape 1's rows at page 500 by OFFSET and by cursor, and a walk
// by cursor from there, run only
// when named with --shapes; 23 from issue 30: facets and stats), as raw query strings on GET /api/users (18 on /api/posts), sent exactly
// like this by both servers' clients (a space in a key is `+`, `>` is percent-encoded).

export interface Shape {
  readonly id: number;
  readonly label: string;
  /** Raw query string, without `?`. */
  readonly query: string;
  /** For shapes 8-13 and 19-22: the shape whose statements (and floor endpoint) this one reuses. */
  readonly base?: number;
  /** The collection, when not `users`. */
  readonly collection?: string;
  /**
   * Cursor shapes (docs/query-language.md, "Cursors: cursor"): `first` is `cursor=`; `deep` starts
   * at the same record as page DEEP_PAGE, its cursor found by following the plugin's cursors before
   * the run (cursor-shapes.ts); `walk` goes on from there, a page further on each request.
   */
  readonly cursor?: 'first' | 'deep' | 'walk';
  /**
   * The walk's query strings: WALK_PAGES consecutive pages from page DEEP_PAGE (the first is
   * `query`), requested in turn as a client walking the results sends them, each with its own
   * cursor. Set by cursor-shapes.ts before a run.
   */
  readonly walk?: readonly string[];
}

const BASE_SHAPES: readonly Shape[] = [
  { id: 1, label: 'filter + sort, page 3', query: 'filter[status]=active&sort[created_at]=desc&per-page=20&page=3' },
  { id: 2, label: 'search name,email (total)', query: 'search[name,email]=*an*&per-page=20' },
  { id: 3, label: 'expand posts (fields, sort)', query: 'expand[posts]=p&p_fields=id,title&p_sort[created_at]=desc&per-page=20' },
  {
    id: 4,
    label: 'in + between, 3 fields',
    query: 'in[role]=admin,editor&between[created_at]=2025-01-01,2025-06-30&fields=id,name,email&per-page=50',
  },
  { id: 5, label: 'filter and!, limit (bare array)', query: 'filter[id]=%3E%3D1000&filter[and!+status]=banned&limit=100&fields=id,name' },
  { id: 6, label: 'expand roles + phone, filter', query: 'expand[roles]=r&expand[phone]=ph&filter[role]=editor&per-page=20' },
  {
    id: 7,
    label: 'nested: 3 newest posts per user, 2 comments each',
    query: 'per-page=20&expand[posts]=p&p_limit=3&p_sort[created_at]=desc&p_expand[comments]=c&c_limit=2',
  },
];

/**
 * Shapes 1, 3 and 6 with another total mode
 * (docs/query-language.md, "Totals: total=exact, estimated, none"): 8/9 from 1, 10/11 from 3, 12/13
 * from 6.
 */
export const TOTAL_SHAPES: readonly Shape[] = [1, 3, 6].flatMap((base, i) => {
  const shape = BASE_SHAPES.find((s) => s.id === base) as Shape;
  return (['estimated', 'none'] as const).map((total, j): Shape => ({
    id: 8 + i * 2 + j,
    label: `${shape.label}, total=${total}`,
    query: `${shape.query}&total=${total}`,
    base,
  }));
});

/** Relations in conditions (docs/query-language.md, "Relations in conditions"). */
const RELATION_SHAPES: readonly Shape[] = [
  { id: 14, label: 'dot-path filter on posts (EXISTS)', query: 'filter[posts.status]=draft&fields=id,name&per-page=20&page=2' },
  {
    id: 15,
    label: 'has posts, two conditions',
    query: 'has[posts]=p&p_filter[status]=published&p_filter[and+views]=%3E4000&fields=id,name&per-page=20',
  },
  { id: 16, label: 'count posts, sort by it, page 2', query: 'count[posts]&sort[posts_count]=desc&fields=id,name&per-page=20&page=2' },
];
/**
 * How many consecutive pages the walk (shape 22) goes through, each its own query string: more
 * than the default plan cache (8 MiB) keeps of them, so that, as in a real walk, no page is requested
 * again while it could still be kept.
 */
export const WALK_PAGES = 5000;
/** Where the deep page lies: OFFSET skips (DEEP_PAGE - 1) pages of CURSOR_PAGE_SIZE records; the cursor seeks past them. */
export const DEEP_PAGE = 500;
export const CURSOR_PAGE_SIZE = 20;
const CURSOR_QUERY = `filter[status]=active&sort[created_at]=desc&per-page=${CURSOR_PAGE_SIZE}`;

/**
 * 19: page 500 by OFFSET (no count, so only the skipping differs); 20: by cursor, first page; 21: by
 * cursor at page 500, the same request over and over as 19 and 20 are; 22: by cursor from page 500
 * on, a different page (and cursor) on each request, as a walk sends them.
 */
export const CURSOR_SHAPES: readonly Shape[] = [
  {
    id: 19,
    label: `filter + sort, page ${DEEP_PAGE} by OFFSET, total=none`,
    query: `${CURSOR_QUERY}&page=${DEEP_PAGE}&total=none`,
    base: 1,
  },
  { id: 20, label: 'filter + sort by cursor, first page', query: `${CURSOR_QUERY}&cursor=`, cursor: 'first' },
  { id: 21, label: `filter + sort by cursor at page ${DEEP_PAGE}`, query: `${CURSOR_QUERY}&cursor=`, base: 20, cursor: 'deep' },
  {
    id: 22,
    label: `filter + sort by cursor, pages ${DEEP_PAGE}-${DEEP_PAGE + WALK_PAGES - 1} in turn`,
    query: `${CURSOR_QUERY}&cursor=`,
    base: 20,
    cursor: 'walk',
  },
];

/**
 * Issue 16's shapes: 17 pages 10,000 rows deep (PostgreSQL reads and skips them), 18 counts the
 * matches of a two-letter search over the 500,000 posts, whose title has no trigram index.
 */
const LATER_SHAPES: readonly Shape[] = [
  { id: 17, label: 'deep offset (bare array)', query: 'sort[created_at]=desc&limit=20&offset=9980' },
  { id: 18, label: 'search posts, no trigram index (total)', query: 'search[title]=ar&per-page=20', collection: 'posts' },
];

/** Issue 30's shape: a listing screen's facets and stats beside a filtered first page (docs/query-language.md, Facets and stats). */
const FACET_SHAPES: readonly Shape[] = [
  {
    id: 23,
    label: 'filter + 3 facets + stats, page 1',
    query: 'filter[status]=active&facet[status]&facet[role]&facet[created_at]=month&stats[score]&per-page=20&page=1',
  },
  // The same page without facets and stats, for what they cost; run only when named with --shapes.
  { id: 24, label: 'filter, page 1 (shape 23 without facets)', query: 'filter[status]=active&per-page=20&page=1' },
];

/**
 * Issue 32's shapes, run only when named with --shapes: 25 a ranked full-text search of the posts
 * (two words ANDed, best first, with its total) served by the GIN index on their document, and 26
 * the wildcard `search` of one of those words on the same posts, to set its latency against.
 */
const RANKED_SHAPES: readonly Shape[] = [
  { id: 25, label: 'match posts, GIN index (total)', query: 'match=trigram+vacuum&per-page=20', collection: 'posts' },
  { id: 26, label: 'search posts for a word (total)', query: 'search[title]=vacuum&per-page=20', collection: 'posts', base: 18 },
];

export const SHAPES: readonly Shape[] = [
  ...BASE_SHAPES,
  ...TOTAL_SHAPES,
  ...RELATION_SHAPES,
  ...LATER_SHAPES,
  ...CURSOR_SHAPES,
  ...FACET_SHAPES,
  ...RANKED_SHAPES,
];

/** The shapes a run takes when --shapes does not say: 1-7, 14-18 and 23. */
export const DEFAULT_SHAPE_IDS: readonly number[] = [...BASE_SHAPES, ...RELATION_SHAPES, ...LATER_SHAPES, ...FACET_SHAPES]
  .map((s) => s.id)
  .filter((id) => id !== 24);

/** The shapes --compare-scales takes when --shapes does not say: every one, so issue 14's totals and cursors are among them. */
export const SCALES_SHAPE_IDS: readonly number[] = SHAPES.map((s) => s.id).sort((a, b) => a - b);

export const COLLECTION_PATH = '/api/users';

/** `/api/users`, or the shape's own collection. */
export function collectionPath(shape: Shape): string {
  return shape.collection === undefined ? COLLECTION_PATH : `/api/${shape.collection}`;
}

/** Both servers build page URLs from the Host header: every request sends this one so the bodies can match. */
export const HOST_HEADER = 'bench.local:3000';

export function shapePath(shape: Shape): string {
  return `${collectionPath(shape)}?${shape.query}`;
}

/** Every path a run of the shape requests, in turn: its walk's pages, or its one path. */
export function shapePaths(shape: Shape): string[] {
  return (shape.walk ?? [shape.query]).map((query) => `${collectionPath(shape)}?${query}`);
}
