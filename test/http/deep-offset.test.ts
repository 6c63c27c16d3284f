// Deep OFFSET pages (docs/query-language.md, "limit, offset and the row cap"): a page that skips
// hundreds of records answers exactly the records at that place of the whole ordered list, with its
// total, under a scope hook and with an expansion, as a shallow page does.

import { expect } from 'chai';
import Koa from 'koa';
import supertest from 'supertest';
import { queryModifiers, type QueryModifiersOptions } from '../../plugin';
import { expectOk, listen, rowsOf, TEST_CURSOR_SECRET, type TestApp } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { collections, createAdviceTables } from './index-advice-models';

const AUTHORS = 1500;

/** Author g: every 40th banned, created at one of 97 minutes (so many share a time and the id decides). */
const authors = Array.from({ length: AUTHORS }, (_, i) => {
  const g = i + 1;
  return { id: g, status: g % 40 === 0 ? 'banned' : 'active', minute: (g * 31) % 97 };
});
/** Newest first, then by id: the plugin's order for `sort[created_at]=desc`. */
const newestFirst = [...authors].sort((a, b) => b.minute - a.minute || a.id - b.id);

describe('deep OFFSET pages', function () {
  this.timeout(120000);
  let db: TestDatabase;
  let app: TestApp | undefined;

  before(async function () {
    db = await createTestDatabase({ empty: true });
    await createAdviceTables(db.knex);
    await db.knex.raw(`insert into authors (name, email, status, created_at)
      select 'author ' || g, 'a' || g || '@example.com', case when g % 40 = 0 then 'banned' else 'active' end,
        timestamptz '2025-01-01' + ((g * 31) % 97) * interval '1 minute'
      from generate_series(1, ${AUTHORS}) as g`);
    await db.knex.raw(`insert into books (author_id, title, status, pages)
      select 1 + g % ${AUTHORS}, 'book ' || g, 'draft', g from generate_series(1, ${AUTHORS * 2}) as g`);
  });

  afterEach(async function () {
    await app?.close();
    app = undefined;
  });

  after(async function () {
    await db?.destroy();
  });

  async function get(path: string, options: Partial<QueryModifiersOptions> = {}): Promise<supertest.Response> {
    const router = await queryModifiers({ knex: db.knex, collections, cursorSecret: TEST_CURSOR_SECRET, ...options });
    const koa = new Koa();
    koa.use(router.routes());
    app = await listen(koa);
    const res = await supertest(app.origin).get(path);
    expectOk(res, path);
    return res;
  }

  it('a bare array 900 records deep holds the records at that place, times as stored', async function () {
    const res = await get('/api/authors?sort[created_at]=desc&fields=id,created_at&limit=20&offset=900');
    const expected = newestFirst.slice(900, 920).map((a) => ({
      id: a.id,
      created_at: new Date(Date.UTC(2025, 0, 1, 0, a.minute)).toISOString().replace('.000Z', '.000000Z'),
    }));
    expect(rowsOf(res)).to.deep.equal(expected);
  });

  it('a page 700 records deep, filtered, with its total', async function () {
    const active = newestFirst.filter((a) => a.status === 'active');
    const res = await get('/api/authors?filter[status]=active&sort[created_at]=desc&fields=id&per-page=20&page=36');
    const body = res.body as { data: { id: number }[]; total: number; from: number };
    expect(body.data.map((r) => r.id)).to.deep.equal(active.slice(700, 720).map((a) => a.id));
    expect(body.total).to.equal(active.length);
    expect(body.from).to.equal(701);
  });

  it('under a scope hook, the page is taken from the records the hook keeps', async function () {
    const scope: QueryModifiersOptions['scope'] = (_ctx, collection, query) => {
      if (collection === 'authors') query.where('authors.id', '>', 300);
      return Promise.resolve();
    };
    const res = await get('/api/authors?sort[created_at]=desc&fields=id&limit=15&offset=600', { scope });
    expect(rowsOf(res).map((r) => r.id)).to.deep.equal(
      newestFirst
        .filter((a) => a.id > 300)
        .slice(600, 615)
        .map((a) => a.id),
    );
  });

  it('expands the related records of a deep page', async function () {
    const res = await get('/api/authors?fields=id&limit=3&offset=1000&expand[books]=b&b_fields=id');
    // Author g writes books g - 1 and g - 1 + AUTHORS (book ids are 1-based: author 1 + g % AUTHORS).
    expect(rowsOf(res)).to.deep.equal([1001, 1002, 1003].map((id) => ({ id, books: [{ id: id - 1 }, { id: id - 1 + AUTHORS }] })));
  });
});
