// The heavy-request lane and the cost limits (docs/configuration.md, heavy requests): which requests
// are heavy, SERVER_BUSY for a heavy request that waited `heavyQueueMs` without a turn, `maxCost`
// naming the costliest clause, and the planner asked once per compiled query.

import { expect } from 'chai';
import Koa from 'koa';
import type { Context } from 'koa';
import supertest from 'supertest';
import { queryModifiers } from '../../plugin';
import { listen, objectOf, TEST_CURSOR_SECRET, type AppOptions, type TestApp } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { expectProblem } from '../support/problems';
import { addRelationRows, relationCollections as collections } from './relation-models';

const SORT_BY_COUNT = '/api/users?fields=id&count[posts]&sort[posts_count]=desc&per-page=5';
const SORT_BY_RELATION = '/api/posts?fields=id&sort[author.name]&per-page=5';
const CHEAP = '/api/users?filter[id]=1';

/** An app whose host copies the lane the plugin reports into `x-lane`, as a host's access log reads it. */
async function laneApp(db: TestDatabase, options: AppOptions): Promise<TestApp> {
  const router = await queryModifiers({ knex: db.knex, collections, cursorSecret: TEST_CURSOR_SECRET, ...options });
  const koa = new Koa();
  koa.use(async (ctx, next) => {
    await next();
    const lane = (ctx.state as { queryModifiers?: { lane?: string } }).queryModifiers?.lane;
    if (lane !== undefined) ctx.set('x-lane', lane);
  });
  koa.use(router.routes()).use(router.allowedMethods());
  return listen(koa);
}

describe('the heavy-request lane', function () {
  let db: TestDatabase | undefined;
  const apps: TestApp[] = [];
  let explains = 0;

  before(async function () {
    this.timeout(120000);
    db = await createTestDatabase({ prepare: addRelationRows });
    db.knex.on('query', (query: { sql: string }) => {
      if (query.sql.startsWith('explain (format json)')) explains += 1;
    });
  });

  after(async function () {
    this.timeout(60000);
    for (const app of apps) await app.close();
    await db?.destroy();
  });

  async function start(options: AppOptions): Promise<TestApp> {
    if (db === undefined) throw new Error('no database');
    const app = await laneApp(db, options);
    apps.push(app);
    return app;
  }

  describe('which requests are heavy', function () {
    it('a sort by a count or by a relation field is heavy whatever the planner says', async function () {
      const app = await start({ limits: { heavyCost: 1e12 } });
      for (const path of [SORT_BY_COUNT, SORT_BY_RELATION]) {
        const res = await supertest(app.origin).get(path);
        expect(res.status, res.text.slice(0, 300)).to.equal(200);
        expect(res.headers['x-lane'], path).to.equal('heavy');
      }
      const cheap = await supertest(app.origin).get(CHEAP);
      expect(cheap.status).to.equal(200);
      expect(cheap.headers['x-lane']).to.equal('cheap');
    });

    it('a request the planner costs above heavyCost is heavy', async function () {
      const app = await start({ limits: { heavyCost: 0.001 } });
      const res = await supertest(app.origin).get(CHEAP);
      expect(res.status, res.text.slice(0, 300)).to.equal(200);
      expect(res.headers['x-lane']).to.equal('heavy');
    });
  });

  describe('the planner is asked once per compiled query', function () {
    it('repeating a query asks for its cost once; another query asks again', async function () {
      const app = await start({});
      const before = explains;
      for (let i = 0; i < 3; i += 1) expect((await supertest(app.origin).get('/api/users?filter[id]=2')).status).to.equal(200);
      expect(explains - before).to.equal(1);
      expect((await supertest(app.origin).get('/api/users?filter[id]=3')).status).to.equal(200);
      expect(explains - before).to.equal(2);
    });

    it('a request heavy by its sort is not explained when no maxCost needs its cost', async function () {
      const app = await start({});
      const before = explains;
      expect((await supertest(app.origin).get(SORT_BY_COUNT)).status).to.equal(200);
      expect(explains - before).to.equal(0);
    });

    it('with a scope hook the first request’s scoped statement is explained, and its cost kept', async function () {
      const app = await start({ scope: () => undefined });
      const before = explains;
      for (let i = 0; i < 3; i += 1) expect((await supertest(app.origin).get('/api/users?filter[id]=4')).status).to.equal(200);
      expect(explains - before).to.equal(1);
    });
  });

  describe('facets and stats weigh too', function () {
    const PAGE = '/api/users?filter[id]=1&per-page=5';
    const FACETED = `${PAGE}&facet[status]&stats[id]`;

    /** The planner's total cost of each EXPLAIN the plugin sends while `work` runs, in order. */
    async function explainedCosts(work: () => Promise<void>): Promise<number[]> {
      const costs: number[] = [];
      const listener = (response: { rows?: Record<string, unknown>[] }, query: { sql?: string }): void => {
        if (query.sql?.startsWith('explain (format json)') !== true) return;
        const cell = Object.values(response.rows?.[0] ?? {})[0];
        const plan = (typeof cell === 'string' ? JSON.parse(cell) : cell) as { Plan: { 'Total Cost': number } }[];
        costs.push(plan[0]?.Plan['Total Cost'] ?? Number.NaN);
      };
      db?.knex.on('query-response', listener);
      try {
        await work();
      } finally {
        db?.knex.off('query-response', listener);
      }
      return costs;
    }

    it('a cheap page whose facets and stats cost past heavyCost is heavy; the page alone is not', async function () {
      // The planner's own figures for the rows and the facets' statements, read as the plugin asks them.
      const probe = await start({});
      const [rows, facets] = await explainedCosts(async () => {
        expect((await supertest(probe.origin).get(FACETED)).status).to.equal(200);
      });
      expect(rows, 'the rows statement is explained').to.be.a('number');
      expect(facets, 'the facets statement is explained').to.be.a('number');
      const app = await start({ limits: { heavyCost: (rows as number) + (facets as number) / 2 } });
      const faceted = await supertest(app.origin).get(FACETED);
      expect(faceted.status, faceted.text.slice(0, 300)).to.equal(200);
      expect(objectOf(faceted)).to.have.property('facets');
      expect(faceted.headers['x-lane']).to.equal('heavy');
      const page = await supertest(app.origin).get(PAGE);
      expect(page.status).to.equal(200);
      expect(page.headers['x-lane']).to.equal('cheap');
    });

    it('the facets statement is explained once per compiled query, with a scope hook too', async function () {
      for (const options of [{}, { scope: () => undefined }]) {
        const app = await start(options);
        const before = explains;
        for (let i = 0; i < 3; i += 1) expect((await supertest(app.origin).get(`${FACETED}&facet_limit=${i + 3}`)).status).to.equal(200);
        // Three compiled queries (facet_limit differs), each explained twice: its rows and its facets.
        expect(explains - before).to.equal(6);
        for (let i = 0; i < 3; i += 1) expect((await supertest(app.origin).get(`${FACETED}&facet_limit=3`)).status).to.equal(200);
        expect(explains - before).to.equal(6);
      }
    });

    it('maxCost counts the facets: a page under it is refused with them, naming one of them', async function () {
      const probe = await start({});
      const [rows, facets] = await explainedCosts(async () => {
        expect((await supertest(probe.origin).get(`${FACETED}&fields=id`)).status).to.equal(200);
      });
      const app = await start({ limits: { maxCost: (rows as number) + (facets as number) / 2 } });
      expect((await supertest(app.origin).get(`${PAGE}&fields=id`)).status).to.equal(200);
      const refused = await supertest(app.origin).get(`${FACETED}&fields=id`);
      expect(refused.status, refused.text.slice(0, 300)).to.equal(400);
      expect(objectOf(refused)).to.include({ code: 'LIMIT_EXCEEDED' });
      expect(['facet[status]', 'stats[id]']).to.include(objectOf(refused).parameter);
    });
  });

  describe('limits.maxCost', function () {
    it('is LIMIT_EXCEEDED naming the costliest clause, with the limit', async function () {
      const app = await start({ limits: { maxCost: 1 } });
      const sorted = '/api/posts?fields=id&filter[title]=like:%25a%25&sort[author.name]&per-page=5';
      expectProblem(await supertest(app.origin).get(sorted), { code: 'LIMIT_EXCEEDED', parameter: 'sort[author.name]', allowed: 1 });
      // Asked again, the same answer (kept with the compiled query).
      expectProblem(await supertest(app.origin).get(sorted), { code: 'LIMIT_EXCEEDED', parameter: 'sort[author.name]', allowed: 1 });
      const related = '/api/users?fields=id&sort[name]&filter[posts.status]=published&per-page=5';
      expectProblem(await supertest(app.origin).get(related), { code: 'LIMIT_EXCEEDED', parameter: 'filter[posts.status]', allowed: 1 });
    });

    it('lets a request under it through', async function () {
      const app = await start({ limits: { maxCost: 1e9 } });
      expect((await supertest(app.origin).get(SORT_BY_COUNT)).status).to.equal(200);
    });
  });

  describe('limits.heavyQueueMs', function () {
    it('a heavy request that waited without a turn is 503 SERVER_BUSY with Retry-After; the one holding the turn answers', async function () {
      this.timeout(20000);
      // The host's hook holds the marked request while it reads its expansion, so its turn is held
      // until the test lets it go: no timing decides the outcome.
      let holding: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (holding = resolve));
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const scope = async (ctx: Context, label: string): Promise<void> => {
        if (ctx.get('x-hold') === '' || label !== 'users.roles') return;
        holding();
        await gate;
      };
      const app = await start({ scope, limits: { heavyConcurrency: 1, heavyQueueMs: 100 } });
      const slow = supertest(app.origin)
        .get(`${SORT_BY_COUNT}&expand[roles]`)
        .set('x-hold', '1')
        .then((res) => res);
      await held;
      const waited = await supertest(app.origin).get(SORT_BY_COUNT);
      expect(waited.status, waited.text.slice(0, 300)).to.equal(503);
      expect(objectOf(waited)).to.include({ code: 'SERVER_BUSY', status: 503, title: 'Server busy' });
      expect(waited.headers['retry-after']).to.equal('1');
      expect(waited.headers['x-lane']).to.equal('heavy');
      release();
      const first = await slow;
      expect(first.status, first.text.slice(0, 300)).to.equal(200);
      // The turn was given back: the next heavy request answers.
      expect((await supertest(app.origin).get(SORT_BY_COUNT)).status).to.equal(200);
    });
  });
});
