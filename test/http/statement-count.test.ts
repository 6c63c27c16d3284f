// Statements per request (docs/query-language.md, "Nested expansion"): one for the rows, one per
// expanded relation at each depth, windows included, and the count when the envelope needs it,
// whatever the number of parents: 1, 20 and 100 users; a cursor page's probe inside its rows
// statement, and on its own only for an empty page. A relation without a window or nested
// expansions is read inside the rows statement when nothing needs a builder, and by its own
// statement when a scope hook does. What the host reads in ctx.state.queryModifiers.statements,
// what explain lists and what reaches the database agree.

import { expect } from 'chai';
import Koa from 'koa';
import { queryModifiers } from '../../plugin';
import { asRow, asRows, listen, objectOf, TestApp } from '../support/app';
import { createTestDatabase, TestDatabase } from '../support/db';
import { collections } from '../support/fixture';
import supertest from 'supertest';

/** Users 101-200, two posts each, two comments on each post (by user 1 and 2). */
async function addParents(db: TestDatabase): Promise<void> {
  const ids = Array.from({ length: 100 }, (_, i) => 101 + i);
  await db.knex('users').insert(
    ids.map((id) => ({
      id,
      name: `User ${id}`,
      email: `u${id}@example.com`,
      password_hash: 'x',
      created_at: '2025-06-01T00:00:00Z',
      updated_at: '2025-06-01T00:00:00Z',
    })),
  );
  const posts = ids.flatMap((id) =>
    [1, 2].map((n) => ({ id: id * 10 + n, user_id: id, title: `Post ${n}`, status: 'published', created_at: `2025-06-0${n}T00:00:00Z` })),
  );
  await db.knex('posts').insert(posts);
  await db
    .knex('comments')
    .insert(posts.flatMap((p) => [1, 2].map((n) => ({ id: p.id * 10 + n, post_id: p.id, author_id: n, body: 'c' }))));
}

const SHAPE =
  'fields=id&expand[posts]=p&p_fields=id&p_sort[created_at]=desc&p_limit=1&p_expand[comments]=c&c_fields=id&c_limit=1' +
  '&c_expand[author]=a&a_fields=id&expand[roles]=r&r_limit=1&expand[phone]';

/** Expansions without a window or nested expansions: read inside the rows statement on the text path. */
const FLAT = 'fields=id&expand[posts]=p&p_fields=id&p_sort[created_at]=desc&expand[roles]=r&expand[phone]';

describe('statements per request, whatever the number of parents', function () {
  let db: TestDatabase | undefined;
  let app: TestApp | undefined;
  let hooked: TestApp | undefined;
  let sent = 0;

  before(async function () {
    this.timeout(120000);
    db = await createTestDatabase();
    await addParents(db);
    db.knex.on('query', () => {
      sent += 1;
    });
    const router = await queryModifiers({ knex: db.knex, collections, admin: { explain: true } });
    const koa = new Koa();
    // What a host can read after the plugin answered.
    koa.use(async (ctx, next) => {
      await next();
      const report = (ctx.state as { queryModifiers?: { statements?: number } }).queryModifiers;
      if (report?.statements !== undefined) ctx.set('x-statements', String(report.statements));
    });
    koa.use(router.routes()).use(router.allowedMethods());
    app = await listen(koa);
    // The same with a scope hook that restricts nothing: every statement is an Objection builder.
    const withHook = await queryModifiers({ knex: db.knex, collections, admin: { explain: true }, scope: () => undefined });
    const hookedKoa = new Koa();
    hookedKoa.use(koa.middleware[0] as Koa.Middleware);
    hookedKoa.use(withHook.routes()).use(withHook.allowedMethods());
    hooked = await listen(hookedKoa);
  });

  after(async function () {
    this.timeout(60000);
    await app?.close();
    await hooked?.close();
    await db?.destroy();
  });

  async function measure(query: string, on = app): Promise<{ reported: number; sent: number; explained: number; body: unknown }> {
    if (on === undefined) throw new Error('setup failed');
    // The first request of a query also asks the planner its cost, once (docs/configuration.md, heavy requests).
    expect((await supertest(on.origin).get(`/api/users?${query}`)).status).to.equal(200);
    const before = sent;
    const res = await supertest(on.origin).get(`/api/users?${query}`);
    expect(res.status, res.text.slice(0, 300)).to.equal(200);
    const ran = sent - before;
    const explained = await supertest(on.origin).get(`/api/_explain/users?${query}`);
    expect(explained.status, explained.text.slice(0, 300)).to.equal(200);
    const statements = (objectOf(explained).statements as unknown[]).length;
    return { reported: Number(res.headers['x-statements']), sent: ran, explained: statements, body: res.body };
  }

  for (const parents of [1, 20, 100]) {
    it(`${parents} parent(s), three levels with windows beside a many-to-many and a has-one (read in the rows statement): 1 + 4 statements`, async function () {
      const { reported, sent: ran, explained, body } = await measure(`between[id]=101,${100 + parents}&${SHAPE}`);
      expect([reported, ran, explained]).to.deep.equal([5, 5, 5]);
      const rows = asRows(body);
      expect(rows).to.have.length(parents);
      // Each user's newest post, its first comment, and that comment's author (user 1).
      expect(rows[0]).to.deep.equal({
        id: 101,
        posts: [{ id: 1012, comments: [{ id: 10121, author: { id: 1 } }] }],
        roles: [],
        phone: null,
      });
    });
  }

  it('an envelope adds the count when a full page does not tell the total: 1 + 1 + 4', async function () {
    const { reported, sent: ran, explained, body } = await measure(`between[id]=101,200&per-page=10&page=2&${SHAPE}`);
    expect([reported, ran, explained]).to.deep.equal([6, 6, 6]);
    expect(asRow(body).total).to.equal(100);
    expect(asRows(asRow(body).data)).to.have.length(10);
  });

  it('a cursor page past a boundary reads the boundary row again, which tells that records lie before it: 1, and 1 + 5 expanded', async function () {
    const first = await measure('between[id]=101,200&fields=id&per-page=10&cursor=');
    expect([first.reported, first.sent, first.explained]).to.deep.equal([1, 1, 1]);
    const next = String(asRow(first.body).next_cursor);
    const second = await measure(`between[id]=101,200&fields=id&per-page=10&cursor=${next}`);
    expect([second.reported, second.sent, second.explained]).to.deep.equal([1, 1, 1]);
    const page = asRow(second.body);
    expect(asRows(page.data).map((r) => r.id)).to.deep.equal([111, 112, 113, 114, 115, 116, 117, 118, 119, 120]);
    expect(page.prev_cursor, 'records lie before the page').to.be.a('string');
    // Past a boundary the phone has a statement of its own (on the first page it is read inside the
    // rows statement, aggregated.ts): the first row read may be the boundary row, which is no parent.
    const expanded = await measure(`between[id]=101,200&per-page=10&cursor=${next}&${SHAPE}`);
    expect([expanded.reported, expanded.sent, expanded.explained]).to.deep.equal([6, 6, 6]);
    expect(asRow(expanded.body).prev_cursor).to.be.a('string');
  });

  it('a cursor page whose boundary row is no longer read asks the probe on its own, 1 + 1; an empty page at the boundary does not', async function () {
    const first = await measure('between[id]=101,200&fields=id&per-page=10&cursor=');
    const next = String(asRow(first.body).next_cursor);
    // The boundary row (110) is the only one read: records lie before the page, none in it or after.
    const atEnd = await measure(`between[id]=101,110&fields=id&per-page=10&cursor=${next}`);
    expect([atEnd.reported, atEnd.sent, atEnd.explained]).to.deep.equal([1, 1, 1]);
    expect(asRow(atEnd.body).data).to.deep.equal([]);
    expect(asRow(atEnd.body).prev_cursor, 'records lie before the page').to.be.a('string');
    expect(asRow(atEnd.body).next_cursor).to.equal(null);
    // The same cursor with a filter that leaves out the boundary and everything past it: records still lie before it.
    const empty = await measure(`between[id]=101,105&fields=id&per-page=10&cursor=${next}`);
    expect([empty.reported, empty.sent, empty.explained]).to.deep.equal([2, 2, 2]);
    expect(asRow(empty.body).data).to.deep.equal([]);
    expect(asRow(empty.body).prev_cursor, 'records lie before the page').to.be.a('string');
    const none = await measure(`between[id]=300,400&fields=id&per-page=10&cursor=${next}`);
    expect([none.reported, none.sent, none.explained]).to.deep.equal([2, 2, 2]);
    expect(asRow(none.body).prev_cursor, 'no record anywhere').to.equal(null);
  });

  it('a level with no parent keys runs no statement, and neither do the levels under it', async function () {
    // User 4 has no posts: comments and their authors have no parents.
    const { reported, sent: ran, explained } = await measure(`filter[id]=4&${SHAPE}`);
    expect([reported, ran, explained]).to.deep.equal([3, 3, 3]);
  });

  it('relations without windows or nested expansions are read inside the rows statement: 1, and 1 + 1 with a count', async function () {
    const rows = await measure(`between[id]=101,200&${FLAT}`);
    expect([rows.reported, rows.sent, rows.explained]).to.deep.equal([1, 1, 1]);
    expect(asRows(rows.body)[0]).to.deep.equal({ id: 101, posts: [{ id: 1012 }, { id: 1011 }], roles: [], phone: null });
    const page = await measure(`between[id]=101,200&per-page=10&page=2&${FLAT}`);
    expect([page.reported, page.sent, page.explained]).to.deep.equal([2, 2, 2]);
  });

  it('with a scope hook each relation keeps its own statement: 1 + 3, the same records', async function () {
    const flat = await measure(`between[id]=101,200&${FLAT}`);
    const built = await measure(`between[id]=101,200&${FLAT}`, hooked);
    expect([built.reported, built.sent, built.explained]).to.deep.equal([4, 4, 4]);
    expect(built.body).to.deep.equal(flat.body);
  });
});
