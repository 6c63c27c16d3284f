// Cursor pagination (docs/query-language.md, "Cursors: cursor"): every page forward from `cursor=`
// and back from the last page gives the records of the same query unpaginated, in its order, over
// every sort shape (one key, several with mixed directions, NULLs first and last, ties broken by
// the primary key), with filters and expansions; values keep their precision; the envelope's links
// are null exactly where no record lies; and a row inserted or deleted between pages never makes
// another repeat or vanish.

import { expect } from 'chai';
import { useApp, type Harness, type Row } from '../support/app';
import { cursorPage, walkBack, walkForward } from '../support/cursor-walk';

const ids = (records: readonly Row[]): unknown[] => records.map((r) => r.id);

/** Walks `query` by cursor both ways and compares both with the unpaginated answer. */
async function expectWalks(h: Harness, query: string, pageSize: number): Promise<void> {
  const all = await h.rows(`/api/users?${query}&limit=1000`);
  const forward = await walkForward((p) => h.get(p), `/api/users?${query}&per-page=${pageSize}&cursor=`);
  expect(forward.records, `forward: ${query}`).to.deep.equal(all);
  expect(forward.pages.length, 'pages').to.equal(Math.max(Math.ceil(all.length / pageSize), 1));
  const last = forward.pages[forward.pages.length - 1];
  if (last === undefined) return expect.fail('no page');
  const back = await walkBack((p) => h.get(p), last);
  expect(back.records, `back: ${query}`).to.deep.equal(all);
  expect(
    back.pages.map((p) => p.data.length),
    'back pages hold the forward pages',
  ).to.deep.equal(forward.pages.map((p) => p.data.length));
}

describe('cursors', function () {
  const h = useApp();

  describe('every sort shape, forward and back', function () {
    const shapes: readonly [string, string][] = [
      ['no sort (primary key)', 'fields=id,name'],
      ['one key descending', 'fields=id,name&sort[name]=desc'],
      ['ties broken by the primary key', 'fields=id,role&sort[role]'],
      ['ties broken by the primary key, descending key', 'fields=id,role&sort[role]=desc'],
      ['NULLs last ascending', 'fields=id,email_verified_at&sort[email_verified_at]'],
      ['NULLs first descending', 'fields=id,email_verified_at&sort[email_verified_at]=desc'],
      ['mixed directions with NULLs in both keys', 'fields=id,role,score&sort[role]&sort[score]=desc'],
      ['mixed directions, boolean and date with NULLs', 'fields=id,active,birthday&sort[active]=desc&sort[birthday]'],
      ['the primary key descending', 'fields=id&sort[id]=desc'],
      ['three keys', 'fields=id,status,role,birthday&sort[status]=desc&sort[role]&sort[birthday]=desc'],
      ['numeric with ties', 'fields=id,score&sort[score]'],
      ['bigint beyond 2^53', 'fields=id,visits&sort[visits]=desc'],
      ['timestamps with microseconds', 'fields=id,created_at&sort[created_at]'],
    ];
    for (const [name, query] of shapes) {
      it(`${name}: ${query}`, async function () {
        await expectWalks(h, query, 4);
        await expectWalks(h, query, 1);
      });
    }
  });

  it('with filters and a search', async function () {
    await expectWalks(h, 'fields=id,score&filter[status]=active&sort[score]=desc', 3);
    await expectWalks(h, 'fields=id,name&search[name]=*a*&in[role]=admin,viewer,null&sort[role]=desc', 2);
  });

  it('with expansions, nested and windowed', async function () {
    await expectWalks(h, 'fields=id,name&expand[posts]=p&p_sort[id]=desc&p_expand[comments]=c&sort[name]', 4);
    await expectWalks(h, 'fields=id&expand[roles]&expand[phone]&sort[role]=desc', 5);
  });

  it("with sorts through relations: a to-one relation's field (NULL without one) and a count", async function () {
    await expectWalks(h, 'fields=id&count[posts]&sort[posts_count]=desc', 3);
    await expectWalks(h, 'fields=id&count[posts]=p&p_filter[status]=published&sort[posts_count]&sort[id]=desc', 2);
    await expectWalks(h, 'fields=id&filter[posts_count]=>=1&count[posts]&sort[posts_count]=desc', 2);
  });

  it('the first page: no prev; a middle page: both; the last page: no next', async function () {
    const first = await cursorPage((p) => h.get(p), '/api/users?fields=id&per-page=10&cursor=');
    expect(ids(first.data)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(first.per_page).to.equal(10);
    expect(first.path).to.equal(`${h.origin}/api/users`);
    expect(first.prev_cursor).to.equal(null);
    expect(first.next_page_url).to.equal(`${h.origin}/api/users?fields=id&per-page=10&cursor=${first.next_cursor ?? ''}`);
    const middle = await cursorPage((p) => h.get(p), first.next_page_url ?? '');
    expect(ids(middle.data)).to.deep.equal([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(middle.prev_cursor).to.be.a('string');
    const last = await cursorPage((p) => h.get(p), middle.next_page_url ?? '');
    expect(ids(last.data)).to.deep.equal([21, 22, 23]);
    expect(last.next_cursor).to.equal(null);
    const back = await cursorPage((p) => h.get(p), last.prev_page_url ?? '');
    expect(ids(back.data)).to.deep.equal([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    const home = await cursorPage((p) => h.get(p), back.prev_page_url ?? '');
    expect(ids(home.data)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(home.prev_cursor, 'nothing before the first record').to.equal(null);
  });

  it('the page size is the default without per-page, and page-size works as its synonym', async function () {
    expect((await cursorPage((p) => h.get(p), '/api/users?cursor=')).data).to.have.length(15);
    expect((await cursorPage((p) => h.get(p), '/api/users?cursor=&page-size=2')).per_page).to.equal(2);
  });

  it('page URLs keep every other parameter as sent and replace only cursor', async function () {
    const first = await cursorPage((p) => h.get(p), '/api/users?utm_source=x&fields=id&cursor=&filter[id]=%3E3&per-page=2');
    const cursor = first.next_cursor ?? '';
    expect(first.next_page_url).to.equal(`${h.origin}/api/users?utm_source=x&fields=id&cursor=${cursor}&filter[id]=%3E3&per-page=2`);
    const second = await cursorPage((p) => h.get(p), first.next_page_url ?? '');
    expect(ids(second.data)).to.deep.equal([6, 7]);
  });

  it('an empty result: one empty page, no links', async function () {
    const page = await cursorPage((p) => h.get(p), '/api/users?filter[id]=0&cursor=');
    expect(page.data).to.deep.equal([]);
    expect(page.next_cursor).to.equal(null);
    expect(page.prev_cursor).to.equal(null);
  });
});

describe('cursors in _meta and _explain', function () {
  const h = useApp({ admin: { explain: true } });

  it('_meta offers the cursor mode', async function () {
    const meta = (await h.get('/api/_meta/users')).body as { pagination: { modes: string[] } };
    expect(meta.pagination.modes).to.deep.equal(['page', 'cursor']);
  });

  it('_explain lists the page statement, which past a boundary reads the boundary row again; no count, no offset', async function () {
    const first = await cursorPage((p) => h.get(p), '/api/users?fields=id&per-page=2&cursor=');
    const explained = async (query: string): Promise<string[]> => {
      const res = await h.get(`/api/_explain/users?${query}`);
      expect(res.status, res.text.slice(0, 300)).to.equal(200);
      return (res.body as { statements: { sql: string }[] }).statements.map((s) => s.sql);
    };
    const start = await explained('fields=id&per-page=2&cursor=');
    expect(start).to.have.length(1);
    expect(start.join(' ')).to.not.contain('exists');
    const next = await explained(`fields=id&per-page=2&cursor=${first.next_cursor ?? ''}`);
    expect(next).to.have.length(1);
    expect(next.join(' ')).to.not.match(/count\(|offset|exists/);
    expect(next[0]).to.contain('where ("users"."id") >= (');
    // The boundary row (id 2) no longer matches: the probe runs on its own after the page.
    const last = await explained(`fields=id&per-page=2&filter[id]=1&cursor=${first.next_cursor ?? ''}`);
    expect(last).to.have.length(2);
    expect(last[1]).to.match(/^select 1 as "found" from "users" where /);
  });
});

describe('cursors through inserts and deletes between pages', function () {
  const h = useApp();
  const knex = () => h.db.knex;
  const page = (url: string) => cursorPage((p) => h.get(p), url);
  const addUser = (id: number, name: string) =>
    knex()('users').insert({
      id,
      name,
      email: `${id}@example.com`,
      password_hash: 'x',
      created_at: '2025-06-01T00:00:00Z',
      updated_at: '2025-06-01T00:00:00Z',
    });

  before(async function () {
    // Users are deleted below: what refers to them goes first.
    for (const table of ['comments', 'posts', 'phones', 'role_user']) await knex()(table).delete();
  });

  it('no row repeats or vanishes, the boundary row deleted included', async function () {
    const before = (await h.rows('/api/users?fields=id&sort[name]&limit=1000')).map((r) => Number(r.id));
    const first = await page('/api/users?fields=id,name&sort[name]&per-page=5&cursor=');
    const shown = ids(first.data) as number[];
    expect(shown).to.deep.equal(before.slice(0, 5));
    // The boundary row, a row before it and a row ahead are deleted; one row is inserted before the
    // position (never shown) and one after it (shown in its place).
    const [, earlier, , , boundary, , , ahead] = before;
    await knex()('users')
      .whereIn('id', [boundary, earlier, ahead] as number[])
      .delete();
    await addUser(100, 'Aaron Early');
    await addUser(101, 'Zz Later');
    const seen = [...shown];
    let next = first.next_page_url;
    while (next !== null) {
      const current = await page(next);
      seen.push(...(ids(current.data) as number[]));
      next = current.next_page_url;
    }
    const after = (await h.rows('/api/users?fields=id&sort[name]&limit=1000')).map((r) => Number(r.id));
    expect(new Set(seen).size, 'no repeats').to.equal(seen.length);
    expect(seen).to.deep.equal([...shown, ...after.filter((id) => !shown.includes(id) && id !== 100)]);
    expect(seen).to.include(101).and.not.include(100).and.not.include(ahead);
  });

  it('prev is null once every record before the page is deleted; an emptied page still leads back', async function () {
    const first = await page('/api/users?fields=id&per-page=3&cursor=');
    const second = await page(first.next_page_url ?? '');
    expect(second.prev_cursor).to.be.a('string');
    await knex()('users')
      .whereIn('id', ids(first.data) as number[])
      .delete();
    const again = await page(first.next_page_url ?? '');
    expect(ids(again.data)).to.deep.equal(ids(second.data));
    expect(again.prev_cursor, 'nothing before the page any more').to.equal(null);
    // Delete everything past the last page's boundary: the page is empty, and its prev link leads to the last records.
    const upTo = (await h.rows('/api/users?fields=id&limit=1000')).map((r) => Number(r.id));
    const keep = upTo.slice(0, 4);
    const boundary = await page('/api/users?fields=id&per-page=4&cursor=');
    await knex()('users').whereNotIn('id', keep).delete();
    const empty = await page(boundary.next_page_url ?? '');
    expect(empty.data).to.deep.equal([]);
    expect(empty.next_cursor).to.equal(null);
    const back = await page(empty.prev_page_url ?? expect.fail('an empty page after records has a prev link'));
    expect(ids(back.data)).to.deep.equal(keep.slice(-4));
    expect(back.next_cursor).to.equal(null);
  });
});
