// What a mount with hooks tells caches and clients (docs/configuration.md, "Caching under hooks"): with
// `authorize`, `scope` or `scopeModel` every answer depends on who asks, so it is `private` unless
// `cacheControl` decides sharing itself, and a shared one needs `vary`; `Server-Timing` only when
// asked for; `total=estimated` under a scope hook reveals nothing of the rows the hook hides.

import { expect } from 'chai';
import type { Knex } from 'knex';
import type { Context } from 'koa';
import { queryModifiers, type ModelQuery } from '../../plugin';
import { expectOk, objectOf, useApp } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { collections } from '../support/fixture';

/** A tenant restriction the planner cannot estimate (an expression): a third of the table, to it. */
const scope = (ctx: Context, label: string, query: ModelQuery): void => {
  if (label === 'users') query.whereRaw('("users"."id" + 0) <= ?', [Number(ctx.get('x-max-id') || 12)]);
};

describe('Cache-Control and Vary on a mount with hooks', function () {
  describe('an authorize hook, the default cacheControl', function () {
    const h = useApp({ authorize: () => true });

    it('answers 200 and 304 with private, no-cache', async function () {
      const first = await h.get('/api/users?fields=id&limit=2');
      expectOk(first);
      expect(first.headers['cache-control']).to.equal('private, no-cache');
      // The answer depends on Accept (JSON or CSV) and on nothing the hook reads.
      expect(first.headers.vary).to.equal('Accept');
      const again = await h.get('/api/users?fields=id&limit=2').set('If-None-Match', String(first.headers.etag));
      expect(again.status).to.equal(304);
      expect(again.headers['cache-control']).to.equal('private, no-cache');
      expect((await h.get('/api/openapi.json')).headers['cache-control']).to.equal('private, no-cache');
      expect((await h.get('/api/users?filter[nope]=1')).headers['cache-control']).to.equal('no-store');
    });
  });

  describe('a scope hook, cacheControl per collection', function () {
    const h = useApp({ scope, cacheControl: { posts: 'max-age=60', roles: 'private, max-age=30', users: 'no-store' } });

    it('puts private in front of a value that does not say who may keep it, and keeps one that does', async function () {
      expect((await h.get('/api/posts?limit=1')).headers['cache-control']).to.equal('private, max-age=60');
      expect((await h.get('/api/roles?limit=1')).headers['cache-control']).to.equal('private, max-age=30');
      expect((await h.get('/api/users?limit=1')).headers['cache-control']).to.equal('no-store');
    });
  });

  describe('a scopeModel hook, a public cacheControl and vary', function () {
    const h = useApp({
      scopeModel: () => undefined,
      cacheControl: 'public, max-age=60',
      vary: ['Authorization', 'X-Tenant'],
      cors: { origin: 'https://site.example' },
    });

    it('keeps public and adds the headers the hooks read to Vary, beside Origin', async function () {
      const res = await h.get('/api/users?limit=1').set('Origin', 'https://site.example');
      expectOk(res);
      expect(res.headers['cache-control']).to.equal('public, max-age=60');
      expect(res.headers.vary).to.equal('Origin, Authorization, X-Tenant, Accept');
      const again = await h.get('/api/users?limit=1').set('Origin', 'https://site.example').set('If-None-Match', String(res.headers.etag));
      expect(again.status).to.equal(304);
      expect(again.headers.vary).to.equal('Origin, Authorization, X-Tenant, Accept');
    });
  });

  describe('start-up', function () {
    let db: TestDatabase | undefined;

    before(async function () {
      this.timeout(120000);
      db = await createTestDatabase();
    });

    after(async function () {
      await db?.destroy();
    });

    it('fails with a hook and a public or s-maxage cacheControl but no vary, saying why and what to do', async function () {
      if (db === undefined) throw new Error('no database');
      const knex = db.knex;
      for (const options of [
        { scope, cacheControl: 'public, max-age=60' },
        { authorize: () => true, cacheControl: { posts: 'max-age=10, s-maxage=60' } },
        { scopeModel: () => undefined, cacheControl: 'Public', vary: [] },
      ]) {
        const started = queryModifiers({ knex, collections, ...options });
        await started.then(
          () => expect.fail(`started with ${JSON.stringify(options)}`),
          (error: unknown) => {
            expect(String(error)).to.match(/cacheControl(\.posts)? ".*" lets shared caches keep answers/);
            expect(String(error)).to.include("set vary to the request headers those hooks read (e.g. vary: ['Authorization', 'X-Tenant'])");
          },
        );
      }
      // Without hooks, or with vary, it starts.
      await queryModifiers({ knex, collections, cacheControl: 'public, max-age=60' });
      await queryModifiers({ knex, collections, scope, cacheControl: 'public, max-age=60', vary: ['X-Tenant'] });
    });
  });
});

describe('Server-Timing', function () {
  describe('by default', function () {
    const h = useApp();

    it('is not sent', async function () {
      const res = await h.get('/api/users?per-page=2&expand[posts]=p');
      expectOk(res);
      expect(res.headers['server-timing']).to.equal(undefined);
    });
  });

  describe('with serverTiming: true', function () {
    const h = useApp({ serverTiming: true });

    it('reports parse, query and serialize times on answers, not on problems', async function () {
      const res = await h.get('/api/users?per-page=2&expand[posts]=p');
      expect(res.headers['server-timing']).to.match(/^parse;dur=\d+\.\d\d, query;dur=\d+\.\d\d, serialize;dur=\d+\.\d\d$/);
      expect((await h.get('/api/users?filter[nope]=1')).headers['server-timing']).to.equal(undefined);
    });
  });
});

/** Rows no client of this test may see (ids 1001 and up), which only the planner would count. */
async function addHiddenUsers(knex: Knex, count: number): Promise<void> {
  await knex.raw(
    `insert into users (id, name, email, password_hash, created_at, updated_at, status)
     select 1000 + n, 'hidden ' || n, 'hidden' || n || '@example.com', 'x', now(), now(), 'active' from generate_series(1, ?) as n`,
    [count],
  );
  await knex.raw('analyze users');
}

describe('total=estimated under a scope hook', function () {
  const pagination = { estimateAbove: 5, estimateTtlSeconds: 0 };
  const page = '/api/users?fields=id&per-page=2&total=estimated';

  const estimated = async (h: ReturnType<typeof useApp>, maxId = 12) => {
    const res = await h.get(page).set('x-max-id', String(maxId));
    expectOk(res);
    const body = objectOf(res);
    return { total: body.total, isEstimate: body.total_is_estimate, lastPage: body.last_page };
  };

  describe('by default', function () {
    const h = useApp({ scope, pagination });

    it('past estimateAbove answers estimateAbove + 1, whatever the rows the hook hides', async function () {
      await h.db.knex.raw('analyze users');
      expect(await estimated(h)).to.deep.equal({ total: 6, isEstimate: true, lastPage: 3 });
      await addHiddenUsers(h.db.knex, 3000);
      expect(await estimated(h)).to.deep.equal({ total: 6, isEstimate: true, lastPage: 3 });
      // Up to estimateAbove the total is exact, as everywhere.
      expect(await estimated(h, 5)).to.deep.equal({ total: 5, isEstimate: false, lastPage: 3 });
      // A full page far out proves its own records.
      const far = objectOf(await h.get(`${page}&page=5`).set('x-max-id', '12'));
      expect([far.total, far.total_is_estimate]).to.deep.equal([10, true]);
    });
  });

  describe('with plannerEstimatesUnderScope for the collection', function () {
    const h = useApp({ scope, pagination: { ...pagination, plannerEstimatesUnderScope: { users: true } } });

    it("answers the planner's estimate, which moves with the rows the hook hides", async function () {
      await h.db.knex.raw('analyze users');
      const before = await estimated(h);
      expect(before.isEstimate).to.equal(true);
      await addHiddenUsers(h.db.knex, 3000);
      const after = await estimated(h);
      expect(after.isEstimate).to.equal(true);
      expect(Number(after.total), `${String(before.total)} -> ${String(after.total)}`).to.be.above(Number(before.total) + 500);
    });

    it('only for that collection: another one keeps the lower bound', async function () {
      const res = await h.get('/api/posts?fields=id&per-page=2&total=estimated');
      expectOk(res);
      expect([objectOf(res).total, objectOf(res).total_is_estimate]).to.deep.equal([6, true]);
    });
  });
});
