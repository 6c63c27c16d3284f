// The floor of the benchmark: what a careful developer writes by hand for the shapes of
// bench/shapes.ts with plain Koa and pg (shapes 8-13: 1, 3 and 6 with total=estimated or none, through
// floor-totals.ts; 14-16 read related records in their conditions and sort (14 and 15 count the distinct
// foreign keys of the matching posts, which the enforced foreign key makes the users' count); 19: shape 1 at page 500;
// 20-21: keyset pages through floor-cursor.ts). One parameterized page query, a count query where the envelope needs the total, and
// one `= ANY($1)` query per expanded relation (one LATERAL window query per level for shape 7); rows go
// to JSON as pg returns them; shape 3's posts are aggregated in the page statement (LEFT JOIN LATERAL
// json_agg), which measured faster there. Deep pages format only the rows they return and page their keys
// first (shapes 17 and 19, a deferred join), and
// a search on a column without a trigram index compares lower() with lower() (shape 18).
// The bodies are byte-identical to the plugin's (same key order, timestamp format, numeric as text,
// same envelope and page URLs), which bench/run.ts checks before loading.
// Env: DATABASE_URL (the bench database), PORT (0 = any); prints `listening <port>` when ready.

import Koa from 'koa';
import { Pool } from 'pg';
import { newCounters, serveBench } from './bench-server';
import { cursorPage } from './floor-cursor';
import { estimatedTotal, simpleEnvelope, totalMode } from './floor-totals';
import { SHAPES, shapePath } from './shapes';
import { facetsOf } from './floor-facets';

const TS = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;
// Output columns keep their names; ORDER BY must name the table column (users.created_at), not the text alias.
const USER_COLUMNS = `id, name, email,
  to_char(email_verified_at AT TIME ZONE 'UTC', ${TS}) AS email_verified_at,
  to_char(created_at AT TIME ZONE 'UTC', ${TS}) AS created_at,
  to_char(updated_at AT TIME ZONE 'UTC', ${TS}) AS updated_at,
  status, role, score::text AS score, is_admin, to_char(birthday, 'YYYY-MM-DD') AS birthday`;

/** Shape 18's posts, every field in the plugin's output order. */
const POST_COLUMNS = `id, user_id, title, body, status, views, to_char(created_at AT TIME ZONE 'UTC', ${TS}) AS created_at`;

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const counters = newCounters();

async function query<R extends object>(sql: string, values: unknown[]): Promise<R[]> {
  counters.statements++;
  const result = await pool.query<R>(sql, values);
  return result.rows;
}

async function count(sql: string, values: unknown[]): Promise<number> {
  const rows = await query<{ n: string }>(sql, values);
  return Number(rows[0]?.n);
}

type Row = Record<string, unknown>;
type Query = Record<string, string | string[] | undefined>;

function text(q: Query, key: string): string {
  const value = q[key];
  if (typeof value !== 'string') throw new Error(`missing ${key}`);
  return value;
}

// --- the envelope (Laravel's paginator layout, as the API documents it) ---

interface PageLink {
  url: string | null;
  label: string;
  active: boolean;
}

function pageUrlBuilder(path: string, rawQuery: string): (page: number) => string {
  const segments = rawQuery.split('&').filter((s) => s !== '');
  const at = segments.findIndex((s) => s === 'page' || s.startsWith('page='));
  return (page) => {
    const parts = [...segments];
    if (at === -1) parts.push(`page=${page}`);
    else parts[at] = `page=${page}`;
    return `${path}?${parts.join('&')}`;
  };
}

function pageNumbers(current: number, last: number): (number | null)[] {
  const span = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  if (last < 14) return span(1, last);
  if (current <= 7) return [...span(1, 10), null, last - 1, last];
  if (current > last - 7) return [1, 2, null, ...span(last - 9, last)];
  return [1, 2, null, ...span(current - 3, current + 3), null, last - 1, last];
}

function envelope(ctx: Koa.Context, data: Row[], page: number, perPage: number, total: number, estimate?: boolean): object {
  const path = `${ctx.protocol}://${ctx.host}${ctx.path}`;
  const url = pageUrlBuilder(path, ctx.querystring);
  const last = Math.max(Math.ceil(total / perPage), 1);
  const from = data.length > 0 ? (page - 1) * perPage + 1 : null;
  const links: PageLink[] = [{ url: page > 1 ? url(page - 1) : null, label: '&laquo; Previous', active: false }];
  for (const n of pageNumbers(page, last)) {
    links.push(n === null ? { url: null, label: '...', active: false } : { url: url(n), label: String(n), active: n === page });
  }
  links.push({ url: page < last ? url(page + 1) : null, label: 'Next &raquo;', active: false });
  return {
    current_page: page,
    data,
    first_page_url: url(1),
    from,
    last_page: last,
    last_page_url: url(last),
    links,
    next_page_url: page < last ? url(page + 1) : null,
    path,
    per_page: perPage,
    prev_page_url: page > 1 ? url(page - 1) : null,
    to: from === null ? null : from + data.length - 1,
    total,
    ...(estimate === undefined ? {} : { total_is_estimate: estimate }),
  };
}

/** The envelope the request's `total=` asks for; `rows` holds one row past the page with total=none. */
async function pageOf(
  ctx: Koa.Context,
  q: Query,
  rows: Row[],
  page: number,
  perPage: number,
  where: string,
  values: unknown[],
): Promise<object> {
  const mode = totalMode(q.total);
  if (mode === 'none') {
    const path = `${ctx.protocol}://${ctx.host}${ctx.path}`;
    return simpleEnvelope(path, pageUrlBuilder(path, ctx.querystring), rows, page, perPage);
  }
  if (mode === 'estimated') {
    const found = await estimatedTotal(query, rows.length, page, perPage, where, values);
    return envelope(ctx, rows, page, perPage, found.total, found.estimate);
  }
  return envelope(ctx, rows, page, perPage, await total(rows, page, perPage, `SELECT count(*) AS n FROM users ${where}`, values));
}

/** One row past the page when no total is counted: it tells whether a next page exists. */
const readSize = (q: Query, perPage: number): number => (totalMode(q.total) === 'none' ? perPage + 1 : perPage);

/** A short page tells the total by itself; otherwise count. */
async function total(rows: readonly Row[], page: number, perPage: number, countSql: string, values: unknown[]): Promise<number> {
  if ((rows.length > 0 || page === 1) && rows.length < perPage) return (page - 1) * perPage + rows.length;
  return count(countSql, values);
}

/** The posts' search document, exactly as the GIN index `posts_document` is written. */
/** The posts' search document: as the demo's GIN index is written, or (bench --stored-document) its stored column. */
const POST_DOCUMENT =
  process.env.BENCH_STORED_DOCUMENT === '1'
    ? 'document'
    : "(setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(body, '')), 'B'))";

const likeContains = (term: string): string => `%${term.replace(/[\\%_]/g, (ch) => '\\' + ch)}%`;

function groupBy(rows: readonly Row[], key: string, strip: (row: Row) => Row): Map<unknown, Row[]> {
  const map = new Map<unknown, Row[]>();
  for (const row of rows) {
    const list = map.get(row[key]);
    if (list === undefined) map.set(row[key], [strip(row)]);
    else list.push(strip(row));
  }
  return map;
}

// Shape 7's levels: each parent key unnested and joined LATERAL to its own first rows, as the index serves them.
const POST_WINDOW = `SELECT w.* FROM unnest($1::int[]) AS k(user_id) CROSS JOIN LATERAL (
  SELECT id, user_id, title, body, status, views, to_char(created_at AT TIME ZONE 'UTC', ${TS}) AS created_at
    FROM posts WHERE posts.user_id = k.user_id ORDER BY posts.created_at DESC, posts.id ASC LIMIT $2) AS w`;
const COMMENT_WINDOW = `SELECT w.* FROM unnest($1::int[]) AS k(post_id) CROSS JOIN LATERAL (
  SELECT id, post_id, author_id, body, to_char(created_at AT TIME ZONE 'UTC', ${TS}) AS created_at
    FROM comments WHERE comments.post_id = k.post_id ORDER BY comments.id ASC LIMIT $2) AS w`;

// Expansions built in the page statement itself: each user joined LATERAL to its related rows
// aggregated with json_agg, in the order the two-statement form gives. Against one `= ANY($1)`
// statement per relation it is faster for shape 3 and the same within noise for 6 and 7
// (docs/design/floor-expansions.md), so the floor uses it for shape 3 (and its total variants 10, 11).
// FLOOR_EXPANSIONS=lateral or =statements makes every expansion shape use one form, to measure again.
const USERS_PAGE = (where: string, limit: string): string => `(SELECT * FROM users ${where} ORDER BY id LIMIT ${limit}) AS users`;
const POSTS_ID_TITLE = `LEFT JOIN LATERAL (SELECT json_agg(json_build_object('id', p.id, 'title', p.title)
  ORDER BY p.created_at DESC, p.id) AS posts FROM posts p WHERE p.user_id = users.id) AS p ON true`;
const ROLES_AND_PHONE = `LEFT JOIN LATERAL (SELECT json_agg(json_build_object('id', r.id, 'name', r.name, 'description', r.description)
  ORDER BY r.id) AS roles FROM roles r JOIN user_roles ur ON ur.role_id = r.id WHERE ur.user_id = users.id) AS r ON true
  LEFT JOIN LATERAL (SELECT json_build_object('id', ph.id, 'user_id', ph.user_id, 'number', ph.number, 'kind', ph.kind) AS phone
  FROM phones ph WHERE ph.user_id = users.id LIMIT 1) AS ph ON true`;
const POST_AND_COMMENT_WINDOWS = `LEFT JOIN LATERAL (SELECT json_agg(json_build_object('id', w.id, 'user_id', w.user_id, 'title', w.title,
    'body', w.body, 'status', w.status, 'views', w.views, 'created_at', to_char(w.created_at AT TIME ZONE 'UTC', ${TS}),
    'comments', coalesce(c.comments, '[]'::json)) ORDER BY w.created_at DESC, w.id) AS posts
  FROM (SELECT * FROM posts WHERE posts.user_id = users.id ORDER BY posts.created_at DESC, posts.id LIMIT $2) AS w
  LEFT JOIN LATERAL (SELECT json_agg(json_build_object('id', cw.id, 'post_id', cw.post_id, 'author_id', cw.author_id, 'body', cw.body,
      'created_at', to_char(cw.created_at AT TIME ZONE 'UTC', ${TS})) ORDER BY cw.id) AS comments
    FROM (SELECT * FROM comments WHERE comments.post_id = w.id ORDER BY comments.id LIMIT $3) AS cw) AS c ON true) AS p ON true`;

/** Whether the floor builds a shape's expansions in the page statement instead of one statement per relation. */
const lateralExpansions = (shape: number): boolean =>
  process.env.FLOOR_EXPANSIONS === 'lateral' || (process.env.FLOOR_EXPANSIONS !== 'statements' && shape === 3);

/** Rows by `key`, each list in the order the rows came (the window's order). */
function groupInOrder(rows: readonly Row[], key: string): Map<unknown, Row[]> {
  return groupBy(rows, key, (row) => row);
}

// --- the endpoints ---

type Handler = (ctx: Koa.Context, q: Query) => Promise<unknown>;

/**
 * Users newest first, LIMIT `limit` OFFSET `offset` (placeholders). A deep page (shapes 17 and 19) by a
 * deferred join, as a DBA writes it: the keys paged in the (created_at DESC, id) indexes alone, then
 * the records of those keys.
 */
function newestUsers(where: string, limit: string, offset: string, skipped: number): string {
  const order = 'ORDER BY created_at DESC, id ASC';
  if (skipped < 500) return `SELECT * FROM users ${where} ${order} LIMIT ${limit} OFFSET ${offset}`;
  return `SELECT users.* FROM users JOIN (SELECT id FROM users ${where} ${order} LIMIT ${limit} OFFSET ${offset}) AS page
    ON users.id = page.id ORDER BY users.created_at DESC, users.id ASC`;
}

const handlers: Record<number, Handler> = {
  // filter[status]=active&sort[created_at]=desc&per-page=20&page=3
  1: async (ctx, q) => {
    const status = text(q, 'filter[status]');
    const perPage = Number(text(q, 'per-page'));
    const page = Number(text(q, 'page'));
    const offset = (page - 1) * perPage;
    const rows = await query<Row>(
      // The page found on the columns as stored and only its rows formatted (a deep page skips the rest unformatted).
      `SELECT ${USER_COLUMNS} FROM (${newestUsers('WHERE status = $1', '$2', '$3', offset)}) AS users
      ORDER BY users.created_at DESC, users.id ASC`,
      [status, readSize(q, perPage), offset],
    );
    return pageOf(ctx, q, rows, page, perPage, 'WHERE status = $1', [status]);
  },
  // search[name,email]=*an*&per-page=20
  2: async (ctx, q) => {
    const pattern = likeContains(text(q, 'search[name,email]').replace(/^\*|\*$/g, ''));
    const perPage = Number(text(q, 'per-page'));
    const rows = await query<Row>(`SELECT ${USER_COLUMNS} FROM users WHERE name ILIKE $1 OR email ILIKE $1 ORDER BY id LIMIT $2`, [
      pattern,
      perPage,
    ]);
    const n = await total(rows, 1, perPage, 'SELECT count(*) AS n FROM users WHERE name ILIKE $1 OR email ILIKE $1', [pattern]);
    return envelope(ctx, rows, 1, perPage, n);
  },
  // expand[posts]=p&p_fields=id,title&p_sort[created_at]=desc&per-page=20
  3: async (ctx, q) => {
    const perPage = Number(text(q, 'per-page'));
    if (lateralExpansions(3)) {
      const rows = await query<Row>(
        `SELECT ${USER_COLUMNS}, coalesce(p.posts, '[]'::json) AS posts FROM ${USERS_PAGE('', '$1')}
        ${POSTS_ID_TITLE} ORDER BY users.id`,
        [readSize(q, perPage)],
      );
      return pageOf(ctx, q, rows, 1, perPage, '', []);
    }
    const rows = await query<Row>(`SELECT ${USER_COLUMNS} FROM users ORDER BY id LIMIT $1`, [readSize(q, perPage)]);
    const shown = rows.slice(0, perPage);
    const ids = shown.map((r) => r.id);
    const posts =
      ids.length === 0
        ? []
        : await query<Row>('SELECT user_id, id, title FROM posts WHERE user_id = ANY($1) ORDER BY created_at DESC, id ASC', [ids]);
    const byUser = groupBy(posts, 'user_id', (p) => ({ id: p.id, title: p.title }));
    for (const row of shown) row.posts = byUser.get(row.id) ?? [];
    return pageOf(ctx, q, rows, 1, perPage, '', []);
  },
  // in[role]=admin,editor&between[created_at]=2025-01-01,2025-06-30&fields=id,name,email&per-page=50
  4: async (ctx, q) => {
    const roles = text(q, 'in[role]').split(',');
    const [from = '', to = ''] = text(q, 'between[created_at]').split(',');
    const start = new Date(`${from}T00:00:00Z`).toISOString();
    const end = new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString();
    const perPage = Number(text(q, 'per-page'));
    const where = 'role = ANY($1) AND created_at >= $2 AND created_at < $3';
    const rows = await query<Row>(`SELECT id, name, email FROM users WHERE ${where} ORDER BY id LIMIT $4`, [roles, start, end, perPage]);
    const n = await total(rows, 1, perPage, `SELECT count(*) AS n FROM users WHERE ${where}`, [roles, start, end]);
    return envelope(ctx, rows, 1, perPage, n);
  },
  // filter[id]=>=1000&filter[and! status]=banned&limit=100&fields=id,name  (a bare array)
  5: async (_ctx, q) => {
    const min = Number(text(q, 'filter[id]').slice(2));
    return query<Row>('SELECT id, name FROM users WHERE id >= $1 AND status <> $2 ORDER BY id LIMIT $3', [
      min,
      text(q, 'filter[and! status]'),
      Number(text(q, 'limit')),
    ]);
  },
  // expand[roles]=r&expand[phone]=ph&filter[role]=editor&per-page=20
  6: async (ctx, q) => {
    const role = text(q, 'filter[role]');
    const perPage = Number(text(q, 'per-page'));
    if (lateralExpansions(6)) {
      const rows = await query<Row>(
        `SELECT ${USER_COLUMNS}, coalesce(r.roles, '[]'::json) AS roles, ph.phone
        FROM ${USERS_PAGE('WHERE role = $1', '$2')} ${ROLES_AND_PHONE} ORDER BY users.id`,
        [role, readSize(q, perPage)],
      );
      return pageOf(ctx, q, rows, 1, perPage, 'WHERE role = $1', [role]);
    }
    const rows = await query<Row>(`SELECT ${USER_COLUMNS} FROM users WHERE role = $1 ORDER BY id LIMIT $2`, [role, readSize(q, perPage)]);
    const shown = rows.slice(0, perPage);
    const ids = shown.map((r) => r.id);
    if (ids.length > 0) {
      const roles = await query<Row>(
        `SELECT ur.user_id, r.id, r.name, r.description FROM roles r JOIN user_roles ur ON ur.role_id = r.id
          WHERE ur.user_id = ANY($1) ORDER BY r.id`,
        [ids],
      );
      const phones = await query<Row>('SELECT id, user_id, number, kind FROM phones WHERE user_id = ANY($1)', [ids]);
      const rolesByUser = groupBy(roles, 'user_id', (r) => ({ id: r.id, name: r.name, description: r.description }));
      const phoneByUser = new Map(phones.map((p) => [p.user_id, p]));
      for (const row of shown) {
        row.roles = rolesByUser.get(row.id) ?? [];
        row.phone = phoneByUser.get(row.id) ?? null;
      }
    }
    return pageOf(ctx, q, rows, 1, perPage, 'WHERE role = $1', [role]);
  },
  // sort[created_at]=desc&limit=20&offset=9980  (a bare array): the page found on the columns as stored,
  // and only its 20 rows formatted (formatted in the same statement, to_char would run for the 10,000
  // rows the offset skips).
  17: async (_ctx, q) =>
    query<Row>(
      `SELECT ${USER_COLUMNS} FROM (${newestUsers('', '$1', '$2', Number(text(q, 'offset')))}) AS users
      ORDER BY users.created_at DESC, users.id ASC`,
      [Number(text(q, 'limit')), Number(text(q, 'offset'))],
    ),
  // /api/posts?search[title]=ar&per-page=20: no trigram index on posts.title, so lower() LIKE lower(), which
  // costs less than ILIKE when the table is scanned.
  18: async (ctx, q) => {
    const pattern = likeContains(text(q, 'search[title]'));
    const perPage = Number(text(q, 'per-page'));
    const rows = await query<Row>(`SELECT ${POST_COLUMNS} FROM posts WHERE lower(title) LIKE lower($1) ORDER BY id LIMIT $2`, [
      pattern,
      perPage,
    ]);
    const n = await total(rows, 1, perPage, 'SELECT count(*) AS n FROM posts WHERE lower(title) LIKE lower($1)', [pattern]);
    return envelope(ctx, rows, 1, perPage, n);
  },
  // /api/posts?match=trigram+vacuum&per-page=20: the document as the GIN index is written (the demo
  // schema's posts_document), best first, then by id.
  25: async (ctx, q) => {
    const words = text(q, 'match');
    const perPage = Number(text(q, 'per-page'));
    const rows = await query<Row>(
      `SELECT ${POST_COLUMNS} FROM posts WHERE ${POST_DOCUMENT} @@ websearch_to_tsquery('english', $1)
       ORDER BY ts_rank(${POST_DOCUMENT}, websearch_to_tsquery('english', $1)) DESC, id LIMIT $2`,
      [words, perPage],
    );
    const n = await total(
      rows,
      1,
      perPage,
      `SELECT count(*) AS n FROM posts WHERE ${POST_DOCUMENT} @@ websearch_to_tsquery('english', $1)`,
      [words],
    );
    return envelope(ctx, rows, 1, perPage, n);
  },
  // per-page=20&expand[posts]=p&p_limit=3&p_sort[created_at]=desc&p_expand[comments]=c&c_limit=2
  7: async (ctx, q) => {
    const perPage = Number(text(q, 'per-page'));
    if (lateralExpansions(7)) {
      const rows = await query<Row>(
        `SELECT ${USER_COLUMNS}, coalesce(p.posts, '[]'::json) AS posts FROM ${USERS_PAGE('', '$1')}
        ${POST_AND_COMMENT_WINDOWS} ORDER BY users.id`,
        [perPage, Number(text(q, 'p_limit')), Number(text(q, 'c_limit'))],
      );
      const n = await total(rows, 1, perPage, 'SELECT count(*) AS n FROM users', []);
      return envelope(ctx, rows, 1, perPage, n);
    }
    const rows = await query<Row>(`SELECT ${USER_COLUMNS} FROM users ORDER BY id LIMIT $1`, [perPage]);
    const posts = rows.length === 0 ? [] : await query<Row>(POST_WINDOW, [rows.map((r) => r.id), Number(text(q, 'p_limit'))]);
    const comments = posts.length === 0 ? [] : await query<Row>(COMMENT_WINDOW, [posts.map((p) => p.id), Number(text(q, 'c_limit'))]);
    const byPost = groupInOrder(comments, 'post_id');
    for (const post of posts) post.comments = byPost.get(post.id) ?? [];
    const byUser = groupInOrder(posts, 'user_id');
    for (const row of rows) row.posts = byUser.get(row.id) ?? [];
    const n = await total(rows, 1, perPage, 'SELECT count(*) AS n FROM users', []);
    return envelope(ctx, rows, 1, perPage, n);
  },
  // filter[posts.status]=draft&fields=id,name&per-page=20&page=2
  14: async (ctx, q) => {
    const status = text(q, 'filter[posts.status]');
    const perPage = Number(text(q, 'per-page'));
    const page = Number(text(q, 'page'));
    const where = 'EXISTS (SELECT 1 FROM posts WHERE posts.user_id = users.id AND posts.status = $1)';
    const rows = await query<Row>(`SELECT id, name FROM users WHERE ${where} ORDER BY id LIMIT $2 OFFSET $3`, [
      status,
      perPage,
      (page - 1) * perPage,
    ]);
    // posts.user_id is an enforced foreign key onto users.id: the users with a draft post are the distinct user_ids of draft posts.
    const n = await total(rows, page, perPage, 'SELECT count(DISTINCT user_id) AS n FROM posts WHERE status = $1', [status]);
    return envelope(ctx, rows, page, perPage, n);
  },
  // has[posts]=p&p_filter[status]=published&p_filter[and views]=>4000&fields=id,name&per-page=20
  15: async (ctx, q) => {
    const status = text(q, 'p_filter[status]');
    const views = Number(text(q, 'p_filter[and views]').slice(1));
    const perPage = Number(text(q, 'per-page'));
    const where = 'EXISTS (SELECT 1 FROM posts WHERE posts.user_id = users.id AND posts.status = $1 AND posts.views > $2)';
    const rows = await query<Row>(`SELECT id, name FROM users WHERE ${where} ORDER BY id LIMIT $3`, [status, views, perPage]);
    const n = await total(rows, 1, perPage, 'SELECT count(DISTINCT user_id) AS n FROM posts WHERE status = $1 AND views > $2', [
      status,
      views,
    ]);
    return envelope(ctx, rows, 1, perPage, n);
  },
  // count[posts]&sort[posts_count]=desc&fields=id,name&per-page=20&page=2
  16: async (ctx, q) => {
    const perPage = Number(text(q, 'per-page'));
    const page = Number(text(q, 'page'));
    const rows = await query<Row>(
      `SELECT u.id, u.name, coalesce(c.n, 0)::integer AS posts_count
         FROM users u LEFT JOIN (SELECT user_id, count(*) AS n FROM posts GROUP BY user_id) c ON c.user_id = u.id
        ORDER BY 3 DESC, u.id LIMIT $1 OFFSET $2`,
      [perPage, (page - 1) * perPage],
    );
    const n = await total(rows, page, perPage, 'SELECT count(*) AS n FROM users', []);
    return envelope(ctx, rows, page, perPage, n);
  },
  // filter[status]=active&facet[status]&facet[role]&facet[created_at]=month&stats[score]&per-page=20&page=1
  23: async (ctx, q) => {
    const status = text(q, 'filter[status]');
    const perPage = Number(text(q, 'per-page'));
    const rows = await query<Row>(`SELECT ${USER_COLUMNS} FROM users WHERE status = $1 ORDER BY id LIMIT $2`, [status, perPage]);
    const page = await pageOf(ctx, q, rows, 1, perPage, 'WHERE status = $1', [status]);
    return { ...page, ...(await facetsOf(query, status)) };
  },
  // filter[status]=active&per-page=20&page=1: shape 23 without facets and stats
  24: async (ctx, q) => {
    const status = text(q, 'filter[status]');
    const perPage = Number(text(q, 'per-page'));
    const rows = await query<Row>(`SELECT ${USER_COLUMNS} FROM users WHERE status = $1 ORDER BY id LIMIT $2`, [status, perPage]);
    return pageOf(ctx, q, rows, 1, perPage, 'WHERE status = $1', [status]);
  },
  // filter[status]=active&sort[created_at]=desc&per-page=20&cursor=<first or page 500's>
  20: async (ctx, q) =>
    cursorPage(
      query,
      USER_COLUMNS,
      `${ctx.protocol}://${ctx.host}/api/users`,
      ctx.querystring,
      text(q, 'filter[status]'),
      Number(text(q, 'per-page')),
      typeof q.cursor === 'string' ? q.cursor : '',
    ),
};

// Each endpoint answers its own path and query string (the floor does not parse modifiers).
const routes = new Map<string, Handler>(SHAPES.map((s) => [shapePath(s), handlers[s.base ?? s.id] as Handler]));

const app = new Koa();
app.use(async (ctx) => {
  // A cursor shape's cursor differs from run to run: its endpoint answers the query with any cursor.
  const handler =
    routes.get(`${ctx.path}?${ctx.querystring}`) ?? routes.get(`${ctx.path}?${ctx.querystring.replace(/(^|&)cursor=[^&]*/, '$1cursor=')}`);
  if (handler === undefined) {
    ctx.status = 404;
    return;
  }
  ctx.body = JSON.stringify(await handler(ctx, ctx.query));
  ctx.type = 'application/json; charset=utf-8';
});

const callback = app.callback();
serveBench(
  (req, res) => void callback(req, res),
  counters,
  () => pool.end(),
);
