// Decision 46 on the plugin alone (a bare Koa app, no error middleware of the host): a host hook that
// throws (authorize, scopeModel, scope, also while a 404 asks whether it may list the collections)
// is a 500 INTERNAL_ERROR problem+json whose detail is generic; the error goes to the `logger` option
// and to `ctx.state.queryModifiers.error`, never into the response. A statement written wrongly is such a
// fault too, while a table or column dropped under the running app is 503 SERVICE_UNAVAILABLE.

import { expect } from 'chai';
import Koa, { type Context } from 'koa';
import supertest from 'supertest';
import { queryModifiers, type ModelQuery, type RequestReport } from '../../plugin';
import { listen, objectOf, useApp, type TestApp } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { collections } from '../support/fixture';
import { expectProblem } from '../support/problems';

/** A hook failure whose message must never reach a client. */
const SECRET = 'tenant lookup failed on db-internal-7.corp:5432 for user 42';

function failing(when: string, request: Context): void {
  if (request.get('x-fail') === when) throw new Error(SECRET);
}

describe("500 INTERNAL_ERROR for faults of the host's hooks", function () {
  const logged: { message: string; error: unknown }[] = [];
  const h = useApp({
    authorize: (ctx: Context, collection: string) => {
      failing(collection === '_meta' ? 'meta' : 'authorize', ctx);
      return true;
    },
    scopeModel: (ctx: Context) => failing('scopeModel', ctx),
    scope: (ctx: Context) => failing('scope', ctx),
    logger: { error: (message: string, error?: unknown) => void logged.push({ message, error }) },
  });

  beforeEach(function () {
    logged.length = 0;
  });

  for (const [hook, path] of [
    ['authorize', '/api/users?filter[id]=1'],
    ['scopeModel', '/api/users?per-page=2'],
    ['scope', '/api/users?expand[posts]=p&filter[id]=1'],
    ['meta', '/api/nope'],
  ] as const) {
    it(`a throwing ${hook} hook: 500 INTERNAL_ERROR, a generic detail, the error logged`, async function () {
      const res = await h.get(path).set('x-fail', hook);
      const body = expectProblem(res, { code: 'INTERNAL_ERROR' });
      expect(body.detail).to.equal('The server failed to answer this request; the error has been logged');
      expect(res.text).to.not.include('db-internal');
      expect(res.headers['cache-control']).to.equal('no-store');
      expect(logged).to.have.length(1);
      expect(logged[0]?.error).to.be.an('error').with.property('message', SECRET);
    });
  }

  it('the same requests answer 200 / 404 when the hooks do not throw', async function () {
    expect((await h.get('/api/users?filter[id]=1')).status).to.equal(200);
    expect((await h.get('/api/users?per-page=2')).status).to.equal(200);
    expectProblem(await h.get('/api/nope'), { code: 'UNKNOWN_COLLECTION' });
    expect(logged).to.deep.equal([]);
  });

  describe('what a host middleware sees', function () {
    let db: TestDatabase | undefined;
    let app: TestApp | undefined;
    const reports: RequestReport[] = [];

    before(async function () {
      this.timeout(120000);
      db = await createTestDatabase();
      const router = await queryModifiers({
        knex: db.knex,
        collections,
        scope: () => {
          throw new TypeError(SECRET);
        },
        logger: { error: () => undefined },
      });
      const koa = new Koa();
      koa.use(async (ctx, next) => {
        ctx.set('X-Request-Id', 'host-7');
        await next();
        reports.push({ ...(ctx.state as { queryModifiers: RequestReport }).queryModifiers });
      });
      koa.use(router.routes()).use(router.allowedMethods());
      app = await listen(koa);
    });

    after(async function () {
      await app?.close();
      await db?.destroy();
    });

    it('keeps the headers set before the plugin and puts the error on ctx.state.queryModifiers', async function () {
      if (!app) throw new Error('no app');
      const res = await supertest(app.origin).get('/api/users');
      expect(res.status).to.equal(500);
      expect(res.headers['x-request-id']).to.equal('host-7');
      expect(objectOf(res).code).to.equal('INTERNAL_ERROR');
      expect(reports.at(-1)).to.include({ collection: 'users', code: 'INTERNAL_ERROR' });
      expect(reports.at(-1)?.error).to.be.instanceOf(TypeError);
    });
  });
});

describe('a statement written wrongly is 500 INTERNAL_ERROR; a table or column dropped under the running app is 503', function () {
  const logged: { message: string; error: unknown }[] = [];
  const h = useApp({
    // A restriction that names a table its query never joins: the statement is wrong (42P01 from
    // errorMissingRTE, the SQLSTATE a dropped table has too), whoever wrote it.
    scope: (ctx: Context, label: string, query: ModelQuery) => {
      if (ctx.get('x-wrong') === label) query.whereRaw('"comments"."id" = 1');
    },
    logger: { error: (message: string, error?: unknown) => void logged.push({ message, error }) },
  });

  beforeEach(function () {
    logged.length = 0;
  });

  for (const [label, path] of [
    ['users', '/api/users?fields=id'],
    ['users.posts', '/api/users?fields=id&expand[posts]=p'],
    ['users.posts', '/api/users?fields=id&filter[posts.status]=draft'],
    ['users.roles', '/api/users?fields=id&count[roles]'],
  ] as const) {
    it(`a statement naming a table it never joined (${label}, ${path.slice(11)}): 500, logged, nothing named`, async function () {
      const res = await h.get(path).set('x-wrong', label);
      const body = expectProblem(res, { code: 'INTERNAL_ERROR' });
      expect(body.detail).to.equal('The server failed to answer this request; the error has been logged');
      expect(res.text).to.not.include('comments');
      expect(logged.map((l) => l.message)).to.deep.equal(['koa-query-modifiers: internal error']);
      expect(String(logged[0]?.error)).to.include('missing FROM-clause entry for table "comments"');
    });
  }

  it('a column dropped under the app: 503 with Retry-After, logged as unavailable', async function () {
    expect((await h.get('/api/posts?fields=id,title&filter[id]=1')).status).to.equal(200);
    await h.db.knex.raw('alter table posts drop column title');
    const res = await h.get('/api/posts?fields=id,title&filter[id]=1');
    expectProblem(res, { code: 'SERVICE_UNAVAILABLE' });
    expect(res.headers['retry-after']).to.equal('1');
    expect(logged.map((l) => l.message)).to.deep.equal(['koa-query-modifiers: database unavailable']);
    expect(String(logged[0]?.error)).to.include('title');
  });

  it('a table dropped under the app: 503 with Retry-After, from the root and from a relation', async function () {
    expect((await h.get('/api/roles')).status).to.equal(200);
    await h.db.knex.raw('drop table role_user');
    await h.db.knex.raw('drop table roles');
    for (const path of ['/api/roles', '/api/users?fields=id&expand[roles]=r', '/api/users?fields=id&has[roles]']) {
      const res = await h.get(path);
      expectProblem(res, { code: 'SERVICE_UNAVAILABLE' });
      expect(res.headers['retry-after'], path).to.equal('1');
    }
    expect(logged.every((l) => l.message === 'koa-query-modifiers: database unavailable')).to.equal(true);
    expect(String(logged[0]?.error)).to.match(/relation "(roles|role_user)" does not exist/);
    // What does not read them still answers.
    expect((await h.get('/api/users?fields=id&filter[id]=1')).status).to.equal(200);
  });
});
