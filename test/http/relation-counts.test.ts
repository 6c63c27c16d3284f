// Totals of relation conditions (docs/query-language.md, "Relations in conditions"): the total counts
// the records that have a matching related record, whether PostgreSQL enforces the relation's
// foreign key or not (a foreign key added NOT VALID over
// related rows whose owner is gone: those rows must not count).

import { expect } from 'chai';
import Koa from 'koa';
import supertest from 'supertest';
import { queryModifiers } from '../../plugin';
import { expectOk, listen, TEST_CURSOR_SECRET, type TestApp } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { collections, createAdviceTables } from './index-advice-models';

/** Authors 1-300, every fourth banned; book g (1-900) by author 1 + g % 200, a draft when g % 3 = 0 and pages g % 50. */
const books = Array.from({ length: 900 }, (_, i) => ({ author: 1 + ((i + 1) % 200), draft: (i + 1) % 3 === 0, pages: (i + 1) % 50 }));
const authorsWith = (test: (book: (typeof books)[number]) => boolean): number => new Set(books.filter(test).map((b) => b.author)).size;

describe('totals of relation conditions', function () {
  this.timeout(120000);
  let db: TestDatabase;
  let app: TestApp | undefined;

  before(async function () {
    db = await createTestDatabase({ empty: true });
    await createAdviceTables(db.knex);
    await db.knex.raw(`insert into authors (name, email, status, created_at)
      select 'author ' || g, 'a' || g || '@example.com', case when g % 4 = 0 then 'banned' else 'active' end, timestamptz '2025-01-01'
      from generate_series(1, 300) as g`);
    await db.knex.raw(`insert into books (author_id, title, status, pages)
      select 1 + g % 200, 'book ' || g, case when g % 3 = 0 then 'draft' else 'published' end, g % 50
      from generate_series(1, 900) as g`);
  });

  after(async function () {
    await app?.close();
    await db?.destroy();
  });

  /** One app for the file; `fresh` starts another, whose catalog reads the foreign keys again. */
  async function get(path: string, fresh = false): Promise<supertest.Response> {
    if (app === undefined || fresh) {
      await app?.close();
      const router = await queryModifiers({ knex: db.knex, collections, cursorSecret: TEST_CURSOR_SECRET });
      const koa = new Koa();
      koa.use(router.routes());
      app = await listen(koa);
    }
    const res = await supertest(app.origin).get(path);
    expectOk(res, path);
    return res;
  }

  const total = async (query: string, fresh = false): Promise<number> =>
    ((await get(`/api/authors?${query}`, fresh)).body as { total: number }).total;

  it('counts the records with a matching related record under an enforced foreign key', async function () {
    expect(await total('filter[books.status]=draft&fields=id&per-page=5&page=2')).to.equal(authorsWith((b) => b.draft));
    expect(await total('has[books]=b&b_filter[status]=draft&b_filter[and+pages]=>40&fields=id&per-page=5')).to.equal(
      authorsWith((b) => b.draft && b.pages > 40),
    );
  });

  it('with another condition beside it, or negated, counts the records themselves', async function () {
    expect(await total('filter[books.status]=draft&filter[status]=banned&fields=id&per-page=5')).to.equal(
      new Set(books.filter((b) => b.draft && b.author % 4 === 0).map((b) => b.author)).size,
    );
    expect(await total('has![books]=b&b_filter[status]=draft&fields=id&per-page=5')).to.equal(300 - authorsWith((b) => b.draft));
  });

  it('does not count related rows without an owner when the foreign key is not enforced', async function () {
    await db.knex.raw('alter table books drop constraint books_author_id_fkey');
    await db.knex.raw(`insert into books (author_id, title, status, pages) values (100000, 'orphan', 'draft', 1)`);
    await db.knex.raw('alter table books add constraint books_author_id_fkey foreign key (author_id) references authors not valid');
    expect(await total('filter[books.status]=draft&fields=id&per-page=5&page=2', true)).to.equal(authorsWith((b) => b.draft));
  });
});
