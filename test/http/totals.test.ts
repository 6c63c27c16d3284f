// A choice of totals (docs/query-language.md, "Totals: total=exact, estimated, none"):
// `total=exact` (the default), `total=estimated` (a count capped at `estimateAbove` + 1 rows, past
// it the planner's estimate, with `total_is_estimate`) and `total=none` (Laravel's simple envelope,
// no count at all), below and above the threshold, with filters, a scope hook, expansions, pages
// past the end, a per-collection default and the totals cache.

import { expect } from 'chai';
import type { Knex } from 'knex';
import type { Context } from 'koa';
import { Model } from 'objection';
import supertest from 'supertest';
import type { ModelQuery } from '../../plugin';
import { asRows, expectOk, idsOf, objectOf, range, startApp, useApp, type Harness, type Row, type TestApp } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { ENVELOPE_KEYS, ESTIMATED_ENVELOPE_KEYS, SIMPLE_ENVELOPE_KEYS } from '../support/envelope-keys';
import { expectProblem } from '../support/problems';
import { withoutBudget } from '../support/budget';

/** A table whose column names knex would read as placeholders if it parsed them. */
class OddName extends Model {
  static override tableName = 'odd_names';
}

/** The lane's EXPLAIN of a query seen first (docs/configuration.md, heavy requests) is off: these tests count a total's statements. */
const COUNTED = { limits: { heavyCost: Number.POSITIVE_INFINITY } };
// `\\?` keeps knex from reading the `?` of these statements as placeholders.
const oddSchema = [
  'create table odd_names (id serial primary key, "a\\?b" text not null, "$1" text null)',
  `insert into odd_names ("a\\?b", "$1") select case when i % 2 = 0 then 'x' else 'y' end, 'v' || i from generate_series(1, 40) i`,
];

/** The statements the app sends while `during` runs, as knex reports them. */
async function statementsOf(knex: Knex, during: () => Promise<unknown>): Promise<{ sql: string; bindings: unknown[] }[]> {
  const seen: { sql: string; bindings: unknown[] }[] = [];
  const listener = (event: { sql: string; bindings?: unknown[] }) => seen.push({ sql: event.sql, bindings: event.bindings ?? [] });
  knex.on('query', listener);
  try {
    await during();
  } finally {
    knex.off('query', listener);
  }
  return seen;
}

const isCount = (sql: string): boolean => sql.startsWith('select count(*)');
const isFullCount = (sql: string): boolean => isCount(sql) && sql.includes('as "counted"');
const isCappedCount = (sql: string): boolean => isCount(sql) && sql.includes('as "capped"');
const isExplain = (sql: string): boolean => /^explain \(format json\)/.test(sql);

/** The planner's row estimate for `select users.* from users where <where>`, asked directly. */
async function plannerRows(knex: Knex, where: string): Promise<number> {
  const result = await knex.raw<{ rows: Row[] }>(`explain (format json) select "users".* from "users" where ${where}`);
  const plan = result.rows[0]?.['QUERY PLAN'] as { Plan: { 'Plan Rows': number } }[];
  return Math.round(plan[0]?.Plan['Plan Rows'] ?? Number.NaN);
}

async function envelope(h: Harness, query: string, keys: readonly string[], collection = 'users'): Promise<Row> {
  const res = await h.get(`/api/${collection}?${query}`);
  expectOk(res, query);
  const body = objectOf(res);
  expect(Object.keys(body), `keys of ${query}`).to.deep.equal(keys);
  return body;
}

describe('totals', function () {
  describe('below the threshold (estimateAbove 10000, the default)', function () {
    const h = useApp(COUNTED);
    const url = (query: string): string => `${h.origin}/api/users?${query}`;

    it('exact is the default and the same as total=exact', async function () {
      const plain = await envelope(h, 'per-page=5&page=2', ENVELOPE_KEYS);
      const exact = await envelope(h, 'per-page=5&page=2&total=exact', ENVELOPE_KEYS);
      expect(plain.total).to.equal(23);
      expect(exact.total).to.equal(23);
      expect(exact.last_page).to.equal(5);
    });

    it('estimated is the exact total, counted only up to the cap, with total_is_estimate false', async function () {
      let body: Row = {};
      const statements = await statementsOf(h.db.knex, async () => {
        body = await envelope(h, 'per-page=5&page=2&total=estimated', ESTIMATED_ENVELOPE_KEYS);
      });
      expect(body.total).to.equal(23);
      expect(body.total_is_estimate).to.equal(false);
      expect(body.last_page).to.equal(5);
      expect(body.next_page_url).to.equal(url('per-page=5&page=3&total=estimated'));
      const sqls = statements.map((s) => s.sql);
      expect(sqls.filter(isCappedCount)).to.have.length(1);
      expect(statements.find((s) => isCappedCount(s.sql))?.bindings.at(-1)).to.equal(10001);
      expect(sqls.some(isFullCount), 'no full count').to.equal(false);
      expect(sqls.some(isExplain), 'no estimate below the threshold').to.equal(false);
    });

    it('estimated with a filter counts the filtered records', async function () {
      const body = await envelope(h, 'filter[id]=>=4&per-page=5&total=estimated', ESTIMATED_ENVELOPE_KEYS);
      expect(body.total).to.equal(20);
      expect(body.total_is_estimate).to.equal(false);
    });

    it('estimated on a partial page needs no statement beyond the page', async function () {
      let body: Row = {};
      const statements = await statementsOf(h.db.knex, async () => {
        body = await envelope(h, 'per-page=5&page=5&total=estimated', ESTIMATED_ENVELOPE_KEYS);
      });
      expect(body.total).to.equal(23);
      expect(body.total_is_estimate).to.equal(false);
      expect(statements).to.have.length(1);
    });

    it('estimated past the end: no records, the exact total', async function () {
      const body = await envelope(h, 'per-page=5&page=9&total=estimated', ESTIMATED_ENVELOPE_KEYS);
      expect(body.data).to.deep.equal([]);
      expect([body.from, body.to, body.total, body.total_is_estimate, body.last_page]).to.deep.equal([null, null, 23, false, 5]);
    });

    it('none: the simple envelope, no count statement, one row read past the page', async function () {
      let body: Row = {};
      const statements = await statementsOf(h.db.knex, async () => {
        body = await envelope(h, 'per-page=5&page=2&total=none', SIMPLE_ENVELOPE_KEYS);
      });
      expect(idsOf(asRows(body.data))).to.deep.equal([6, 7, 8, 9, 10]);
      expect({ ...body, data: null }).to.deep.equal({
        current_page: 2,
        data: null,
        first_page_url: url('per-page=5&page=1&total=none'),
        from: 6,
        next_page_url: url('per-page=5&page=3&total=none'),
        path: `${h.origin}/api/users`,
        per_page: 5,
        prev_page_url: url('per-page=5&page=1&total=none'),
        to: 10,
      });
      expect(statements.map((s) => s.sql).some(isCount), 'no count').to.equal(false);
      expect(statements).to.have.length(1);
      // Without the byte budget's wrapper it runs in (limits.maxResponseBytes): `limit ? offset ?` last.
      expect(statements[0] === undefined ? undefined : withoutBudget(statements[0]).bindings.at(-2)).to.equal(6);
    });

    it('none: the last page has no next page, even when it is full', async function () {
      const full = await envelope(h, 'per-page=23&total=none', SIMPLE_ENVELOPE_KEYS);
      expect(asRows(full.data)).to.have.length(23);
      expect([full.next_page_url, full.prev_page_url, full.from, full.to]).to.deep.equal([null, null, 1, 23]);
      const last = await envelope(h, 'per-page=5&page=5&total=none', SIMPLE_ENVELOPE_KEYS);
      expect(idsOf(asRows(last.data))).to.deep.equal([21, 22, 23]);
      expect(last.next_page_url).to.equal(null);
    });

    it('none past the end: no records, a previous page', async function () {
      const body = await envelope(h, 'per-page=5&page=9&total=none', SIMPLE_ENVELOPE_KEYS);
      expect([body.data, body.from, body.to, body.next_page_url]).to.deep.equal([[], null, null, null]);
      expect(body.prev_page_url).to.equal(url('per-page=5&page=8&total=none'));
    });

    it('none with a filter and a sort', async function () {
      const body = await envelope(h, 'filter[id]=<=7&sort[id]=desc&per-page=5&total=none', SIMPLE_ENVELOPE_KEYS);
      expect(idsOf(asRows(body.data))).to.deep.equal([7, 6, 5, 4, 3]);
      // The query string as sent (the client encoded `<`), with `page` added.
      expect(body.next_page_url).to.equal(url('filter[id]=%3C=7&sort[id]=desc&per-page=5&total=none&page=2'));
    });

    it('none: expansions load only for the records shown', async function () {
      let body: Row = {};
      const statements = await statementsOf(h.db.knex, async () => {
        body = await envelope(h, 'fields=id&expand[posts]&per-page=2&total=none', SIMPLE_ENVELOPE_KEYS);
      });
      expect(idsOf(asRows(body.data))).to.deep.equal([1, 2]);
      // The posts are read inside the rows statement (3 rows read), for the keys of the first 2 only.
      expect(statements).to.have.length(1);
      const [rows] = statements;
      expect(rows?.sql, 'the parents of the expansion').to.match(
        /= any\(array\(select "__kqm_rows"\."id" from "__kqm_rows" order by .* limit (\?|\$2)\)\)/,
      );
      expect(rows?.bindings.slice(0, 2)).to.deep.equal([3, 2]);
    });

    it('total without page parameters is ignored', async function () {
      for (const total of ['exact', 'estimated', 'none']) {
        const res = await h.get(`/api/users?fields=id&total=${total}`);
        expectOk(res);
        expect(res.body).to.deep.equal(range(1, 23).map((id) => ({ id })));
      }
      const limited = await h.get('/api/users?fields=id&limit=2&total=none');
      expect(limited.body).to.deep.equal([{ id: 1 }, { id: 2 }]);
    });

    it('any other value is MALFORMED_PARAMETER, with or without pages', async function () {
      for (const query of ['per-page=5&total=Estimated', 'per-page=5&total=', 'total=approximate']) {
        expectProblem(await h.get(`/api/users?${query}`), {
          code: 'MALFORMED_PARAMETER',
          parameter: 'total',
          allowed: ['exact', 'estimated', 'none'],
        });
      }
    });

    it('total twice is DUPLICATE_PARAMETER', async function () {
      expectProblem(await h.get('/api/users?per-page=5&total=none&total=none'), { code: 'DUPLICATE_PARAMETER', parameter: 'total' });
    });

    it('an alias form (p_total) is refused like p_page', async function () {
      expectProblem(await h.get('/api/users?expand[posts]=p&per-page=5&p_total=none'), {
        code: 'MALFORMED_PARAMETER',
        parameter: 'p_total',
      });
    });
  });

  describe('above the threshold (estimateAbove 5)', function () {
    const h = useApp({ ...COUNTED, pagination: { estimateAbove: 5 }, admin: { explain: true } });
    before(async function () {
      // Fresh statistics, so the planner's estimate is what the test asks it for too.
      await h.db.knex.raw('analyze users');
    });

    it("estimated is the planner's estimate: a capped count, then EXPLAIN, never a full count", async function () {
      let body: Row = {};
      const statements = await statementsOf(h.db.knex, async () => {
        body = await envelope(h, 'filter[id]=>=3&per-page=5&total=estimated', ESTIMATED_ENVELOPE_KEYS);
      });
      const planned = await plannerRows(h.db.knex, '"users"."id" >= 3');
      expect(body.total).to.equal(Math.max(planned, 6));
      expect(body.total_is_estimate).to.equal(true);
      const sqls = statements.map((s) => s.sql);
      expect(sqls.filter(isCappedCount)).to.have.length(1);
      expect(statements.find((s) => isCappedCount(s.sql))?.bindings).to.deep.equal([3, 6]);
      expect(sqls.filter(isExplain)).to.have.length(1);
      expect(sqls.some(isFullCount), 'no full count').to.equal(false);
    });

    it('last_page and the links follow the estimate', async function () {
      const body = await envelope(h, 'per-page=5&total=estimated', ESTIMATED_ENVELOPE_KEYS);
      const total = body.total as number;
      expect(total).to.equal(Math.max(await plannerRows(h.db.knex, 'true'), 6));
      expect(body.last_page).to.equal(Math.ceil(total / 5));
      const numbered = (body.links as { label: string }[]).slice(1, -1).map((l) => l.label);
      expect(numbered.at(-1)).to.equal(String(body.last_page));
    });

    it('a small result is still counted exactly', async function () {
      const body = await envelope(h, 'filter[id]=<=5&per-page=2&total=estimated', ESTIMATED_ENVELOPE_KEYS);
      expect([body.total, body.total_is_estimate]).to.deep.equal([5, false]);
    });

    it('past the end: no records, the estimate', async function () {
      const body = await envelope(h, 'per-page=5&page=50&total=estimated', ESTIMATED_ENVELOPE_KEYS);
      expect([body.data, body.from, body.to, body.total_is_estimate]).to.deep.equal([[], null, null, true]);
    });

    it('the explain view lists the capped count and the estimate, and plans all but the estimate (itself a plan)', async function () {
      const res = await h.get('/api/_explain/users?per-page=5&total=estimated&explain=plan');
      expectOk(res);
      const explained = objectOf(res) as { statements: { sql: string }[]; plan: unknown[] };
      expect(explained.statements.map((s) => isCappedCount(s.sql) || isExplain(s.sql))).to.deep.equal([false, true, true]);
      expect(explained.plan[0]).to.be.an('array');
      expect(explained.plan[1]).to.be.an('array');
      expect(explained.plan[2]).to.equal(null);
    });

    it('exact still counts every record', async function () {
      expect((await envelope(h, 'per-page=5', ENVELOPE_KEYS)).total).to.equal(23);
    });
  });

  describe('with a scope hook (the builder path)', function () {
    const scope = (ctx: Context, collection: string, query: ModelQuery): void => {
      if (collection === 'users') query.where('users.id', '<=', Number(ctx.get('x-max-id') || 12));
    };
    // Opted in to the planner's estimate under a scope, so it can be checked against the scope's own
    // plan; without the opt-in the total past estimateAbove is estimateAbove + 1 (hooked-answers.test.ts).
    const h = useApp({ ...COUNTED, scope, pagination: { estimateAbove: 5, plannerEstimatesUnderScope: true } });
    before(async function () {
      await h.db.knex.raw('analyze users');
    });

    it('the scope restricts the capped count', async function () {
      const res = await h.get('/api/users?per-page=2&total=estimated').set('x-max-id', '4');
      expectOk(res);
      expect([res.body.total, res.body.total_is_estimate]).to.deep.equal([4, false]);
    });

    it('the scope restricts the estimate', async function () {
      let scoped: Row = {};
      const statements = await statementsOf(h.db.knex, async () => {
        scoped = await envelope(h, 'per-page=2&total=estimated', ESTIMATED_ENVELOPE_KEYS);
      });
      const explain = statements.find((s) => isExplain(s.sql));
      expect(explain?.sql).to.include('"users"."id" <=');
      expect(explain?.bindings).to.deep.equal([12]);
      const planned = await plannerRows(h.db.knex, '"users"."id" <= 12');
      expect(scoped.total_is_estimate).to.equal(true);
      expect(scoped.total).to.equal(Math.max(planned, 6));
      const all = await h.get('/api/users?per-page=2&total=estimated').set('x-max-id', '1000');
      expect(all.body.total).to.equal(Math.max(await plannerRows(h.db.knex, '"users"."id" <= 1000'), 6));
      expect(all.body.total, 'a scope that hides rows changes the estimate').to.be.above(scoped.total as number);
    });

    it('none: the scope restricts the rows and the next page', async function () {
      const res = await h.get('/api/users?fields=id&per-page=2&page=2&total=none').set('x-max-id', '4');
      expectOk(res);
      expect(res.body.data).to.deep.equal([{ id: 3 }, { id: 4 }]);
      expect(res.body.next_page_url).to.equal(null);
    });
  });

  describe('a default mode per collection (pagination.total)', function () {
    const h = useApp({ ...COUNTED, pagination: { total: { users: 'none' }, estimateAbove: 500 }, admin: {} });

    it("_meta shows each collection's default mode, the modes and estimateAbove", async function () {
      const users = objectOf(await h.get('/api/_meta/users'));
      const posts = objectOf(await h.get('/api/_meta/posts'));
      expect(users.pagination).to.deep.equal({
        defaultPageSize: 15,
        maxPageSize: 100,
        total: 'none',
        totalModes: ['exact', 'estimated', 'none'],
        estimateAbove: 500,
        modes: ['page', 'cursor'],
      });
      expect(posts.pagination).to.deep.include({ total: 'exact' });
    });

    it('users get the simple envelope, posts the exact one, and a request may choose', async function () {
      await envelope(h, 'per-page=5', SIMPLE_ENVELOPE_KEYS);
      await envelope(h, 'per-page=5', ENVELOPE_KEYS, 'posts');
      await envelope(h, 'per-page=5&total=exact', ENVELOPE_KEYS);
      await envelope(h, 'per-page=5&total=estimated', ESTIMATED_ENVELOPE_KEYS, 'posts');
    });
  });

  describe("the planner's estimates kept for pagination.estimateTtlSeconds", function () {
    const h = useApp({ ...COUNTED, pagination: { estimateAbove: 5, estimateTtlSeconds: 1 } });
    before(async function () {
      await h.db.knex('users').update({ visits: 1000 });
      await h.db.knex.raw('analyze users');
    });
    const explains = (statements: { sql: string }[]): number => statements.filter((s) => isExplain(s.sql)).length;
    const cappedCounts = (statements: { sql: string }[]): number => statements.filter((s) => isCappedCount(s.sql)).length;

    it('a query planned within the time to live runs the capped count and takes the estimate kept; its other values are planned', async function () {
      const query = 'filter[id]=>=3&per-page=5&total=estimated';
      let first: Row = {};
      const planned = await statementsOf(h.db.knex, async () => {
        first = await envelope(h, query, ESTIMATED_ENVELOPE_KEYS);
      });
      expect([cappedCounts(planned), explains(planned)]).to.deep.equal([1, 1]);
      let again: Row = {};
      const kept = await statementsOf(h.db.knex, async () => {
        again = await envelope(h, query, ESTIMATED_ENVELOPE_KEYS);
      });
      expect([cappedCounts(kept), explains(kept)]).to.deep.equal([1, 0]);
      expect([again.total, again.total_is_estimate]).to.deep.equal([first.total, true]);
      const other = await statementsOf(h.db.knex, () => envelope(h, 'filter[id]=>=4&per-page=5&total=estimated', ESTIMATED_ENVELOPE_KEYS));
      expect(explains(other), 'another value is another query').to.equal(1);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const expired = await statementsOf(h.db.knex, () => envelope(h, query, ESTIMATED_ENVELOPE_KEYS));
      expect([cappedCounts(expired), explains(expired)], 'planned again once the time to live is over').to.deep.equal([1, 1]);
    });

    it('a result that falls to estimateAbove records is counted exactly at once, whatever estimate is kept', async function () {
      const query = 'filter[visits]=1000&per-page=2&total=estimated';
      const before = await envelope(h, query, ESTIMATED_ENVELOPE_KEYS);
      expect(before.total_is_estimate).to.equal(true);
      await h.db.knex('users').where('id', '>', 4).update({ visits: 0 });
      let body: Row = {};
      const statements = await statementsOf(h.db.knex, async () => {
        body = await envelope(h, query, ESTIMATED_ENVELOPE_KEYS);
      });
      expect([body.total, body.total_is_estimate]).to.deep.equal([4, false]);
      expect([cappedCounts(statements), explains(statements)]).to.deep.equal([1, 0]);
    });
  });

  describe('estimates planned on every request (pagination.estimateTtlSeconds 0)', function () {
    const h = useApp({ ...COUNTED, pagination: { estimateAbove: 5, estimateTtlSeconds: 0 } });

    it('the same query runs the capped count and EXPLAIN each time', async function () {
      for (let i = 0; i < 2; i++) {
        const statements = await statementsOf(h.db.knex, () => envelope(h, 'per-page=5&total=estimated', ESTIMATED_ENVELOPE_KEYS));
        expect(statements.map((s) => (isCappedCount(s.sql) ? 'capped' : isExplain(s.sql) ? 'explain' : 'page'))).to.deep.equal([
          'page',
          'capped',
          'explain',
        ]);
      }
    });
  });

  describe('with the totals cache', function () {
    const h = useApp({ ...COUNTED, totalsCache: { ttlSeconds: 60 }, pagination: { estimateAbove: 5 } });

    it('an estimated total is kept: the second request runs only the page query', async function () {
      const first = await statementsOf(h.db.knex, () => envelope(h, 'per-page=5&total=estimated', ESTIMATED_ENVELOPE_KEYS));
      expect(first.map((s) => s.sql).filter((sql) => isCappedCount(sql) || isExplain(sql))).to.have.length(2);
      let body: Row = {};
      const second = await statementsOf(h.db.knex, async () => {
        body = await envelope(h, 'per-page=5&total=estimated', ESTIMATED_ENVELOPE_KEYS);
      });
      expect(second).to.have.length(1);
      expect(body.total_is_estimate).to.equal(true);
    });

    it('a kept exact total below the threshold stays exact, apart from the full count', async function () {
      const query = 'filter[id]=<=5&per-page=2&total=estimated';
      await envelope(h, query, ESTIMATED_ENVELOPE_KEYS);
      const again = await statementsOf(h.db.knex, () => envelope(h, query, ESTIMATED_ENVELOPE_KEYS));
      expect(again).to.have.length(1);
      const exact = await statementsOf(h.db.knex, () => envelope(h, 'filter[id]=<=5&per-page=2', ENVELOPE_KEYS));
      expect(exact.map((s) => s.sql).filter(isFullCount), 'an exact total is not taken from an estimated one').to.have.length(1);
    });

    it('none has nothing to keep', async function () {
      const statements = await statementsOf(h.db.knex, () => envelope(h, 'per-page=5&total=none', SIMPLE_ENVELOPE_KEYS));
      expect(statements).to.have.length(1);
    });
  });

  describe('column names holding ? and $1, on both ways of running statements', function () {
    let db: TestDatabase | undefined;
    const apps: TestApp[] = [];
    const get = (app: TestApp | undefined, path: string) => supertest(app?.origin ?? '').get(path);

    before(async function () {
      this.timeout(120000);
      db = await createTestDatabase({ empty: true });
      for (const statement of oddSchema) await db.knex.raw(statement);
      await db.knex.raw('analyze odd_names');
      const options = { ...COUNTED, collections: { odd: OddName }, pagination: { estimateAbove: 3 } };
      apps.push(await startApp(db.knex, options));
      apps.push(
        await startApp(db.knex, {
          ...options,
          scope: (_ctx: Context, _label: string, query: ModelQuery) => {
            query.where('id', '>', 0);
          },
        }),
      );
    });

    after(async function () {
      this.timeout(60000);
      for (const app of apps) await app.close();
      await db?.destroy();
    });

    for (const [index, path] of ['text', 'builder'].entries()) {
      it(`estimated and none on the ${path} path`, async function () {
        const query = 'filter[a%3Fb]=x&sort[%241]=desc&fields=id,%241&per-page=2';
        const estimated = await get(apps[index], `/api/odd?${query}&total=estimated`);
        expectOk(estimated);
        expect(estimated.body.total_is_estimate).to.equal(true);
        expect(estimated.body.total).to.be.at.least(4);
        const small = await get(apps[index], `/api/odd?${query}&filter[id]=<=4&total=estimated`);
        expectOk(small);
        expect([small.body.total, small.body.total_is_estimate]).to.deep.equal([2, false]);
        const none = await get(apps[index], `/api/odd?${query}&total=none`);
        expectOk(none);
        expect(none.body.data).to.deep.equal([
          { id: 8, $1: 'v8' },
          { id: 6, $1: 'v6' },
        ]);
      });
    }
  });
});
