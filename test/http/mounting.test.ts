// The plugin mounted beside a host's own @koa/router routes on the same prefix, in both orders: the
// host's routes answer as if the plugin were absent, and the plugin's problem+json 404 and 405 (and
// its OPTIONS answers) come only when nothing else answered. Also two plugin routers on one prefix,
// and the 404's list of collections kept from a client that may not read the metadata.

import Router from '@koa/router';
import { expect } from 'chai';
import Koa from 'koa';
import supertest from 'supertest';
import { queryModifiers, type QueryModifiersOptions } from '../../plugin';
import { listen, rowsOf, type TestApp } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { collections, Post, Role, User } from '../support/fixture';
import { expectProblem } from '../support/problems';

/** The host's own routes, some on paths the plugin also serves (`/api/posts`). */
function hostRouter(): Router {
  const host = new Router();
  host.get('/api/me', (ctx) => {
    ctx.body = { user: 'host' };
  });
  host.post('/api/posts', (ctx) => {
    ctx.status = 201;
    ctx.body = { created: true };
  });
  host.get('/api/posts/:id/preview', (ctx) => {
    ctx.body = { preview: ctx.params.id };
  });
  return host;
}

/** A host middleware that acts after the rest of the app, on what nobody answered: a moved URL. */
const movedUrl: Koa.Middleware = async (ctx, next) => {
  await next();
  if (ctx.path === '/api/people' && ctx.status === 404 && ctx.body == null) ctx.redirect('/api/users');
};

/** A Koa app with these mounted in order, each router followed by its allowedMethods(). */
function appWith(...parts: (Router | Koa.Middleware)[]): Koa {
  const app = new Koa();
  for (const part of parts) {
    if (part instanceof Router) app.use(part.routes()).use(part.allowedMethods());
    else app.use(part);
  }
  return app;
}

/** Starts the app `build` makes on the suite's database before the suite, and stops both after. */
function useMounted(build: (options: QueryModifiersOptions) => Promise<Koa>): { origin(): string } {
  let db: TestDatabase | undefined;
  let served: TestApp | undefined;
  before(async function () {
    this.timeout(120000);
    db = await createTestDatabase();
    served = await listen(await build({ knex: db.knex, collections }));
  });
  after(async function () {
    await served?.close();
    await db?.destroy();
  });
  return {
    origin: () => {
      if (served === undefined) throw new Error('the app is not running (before hook failed?)');
      return served.origin;
    },
  };
}

describe('mounting beside the host', function () {
  const cors = { origin: 'https://site.example' };
  const orders = {
    'plugin before the host': async (options: QueryModifiersOptions) => appWith(await queryModifiers({ ...options, cors }), hostRouter()),
    'plugin after the host': async (options: QueryModifiersOptions) => appWith(hostRouter(), await queryModifiers({ ...options, cors })),
  };
  for (const [order, build] of Object.entries(orders)) {
    describe(order, function () {
      const app = useMounted(build);
      const request = () => supertest(app.origin());

      it('lets the host answer its own routes', async function () {
        expect((await request().get('/api/me').expect(200)).body).to.deep.equal({ user: 'host' });
        expect((await request().post('/api/posts').send({ title: 'x' }).expect(201)).body).to.deep.equal({ created: true });
        expect((await request().get('/api/posts/7/preview').expect(200)).body).to.deep.equal({ preview: '7' });
      });

      it('still serves its collections', async function () {
        const res = await request().get('/api/posts?fields=id&sort[id]&limit=2').expect(200);
        expect(rowsOf(res)).to.deep.equal([{ id: 1 }, { id: 2 }]);
        await request().head('/api/users').expect(200);
      });

      it('answers a path under the prefix that nobody serves with 404 UNKNOWN_COLLECTION', async function () {
        expectProblem(await request().get('/api/nope'), {
          code: 'UNKNOWN_COLLECTION',
          detail: 'There is no collection "nope"; collections: users, posts, roles',
        });
        expectProblem(await request().get('/api/posts/7'), { code: 'UNKNOWN_COLLECTION' });
        expectProblem(await request().post('/api/nope'), { code: 'UNKNOWN_COLLECTION' });
      });

      it('answers the prefix itself with 404 UNKNOWN_COLLECTION too', async function () {
        expectProblem(await request().get('/api'), { code: 'UNKNOWN_COLLECTION' });
        expectProblem(await request().get('/api/'), { code: 'UNKNOWN_COLLECTION' });
        const head = await request().head('/api');
        expect(head.status).to.equal(404);
        expect(head.headers['content-type']).to.match(/^application\/problem\+json/);
      });

      it('answers a method no router knows with 405, never the bare 501 of allowedMethods()', async function () {
        for (const [path, allow] of [
          ['/api/users', 'GET, HEAD'],
          ['/api/posts', 'GET, HEAD, POST'],
          ['/api/nope', 'GET, HEAD'],
        ]) {
          const traced = await request().trace(String(path));
          expectProblem(traced, { code: 'METHOD_NOT_ALLOWED' });
          expect(traced.headers.allow, String(path)).to.equal(allow);
        }
        const searched = await request()['m-search']('/api/nope');
        expectProblem(searched, { code: 'METHOD_NOT_ALLOWED', detail: 'M-SEARCH is not allowed here; use GET or HEAD' });
      });

      it('answers a method nobody serves with 405 and the methods that are served', async function () {
        const deleted = await request().delete('/api/users');
        expectProblem(deleted, { code: 'METHOD_NOT_ALLOWED', detail: 'DELETE is not allowed here; use GET or HEAD' });
        expect(deleted.headers.allow).to.equal('GET, HEAD');
        const put = await request().put('/api/posts');
        expectProblem(put, { code: 'METHOD_NOT_ALLOWED', detail: 'PUT is not allowed here; use GET, HEAD or POST' });
        expect(put.headers.allow).to.equal('GET, HEAD, POST');
        const onHostPath = await request().patch('/api/me');
        expectProblem(onHostPath, { code: 'METHOD_NOT_ALLOWED' });
        expect(onHostPath.headers.allow).to.equal('GET, HEAD');
      });

      it("advertises the host's methods and its own on OPTIONS", async function () {
        const shared = await request().options('/api/posts').expect(200);
        expect(shared.headers.allow).to.equal('GET, HEAD, POST');
        // On the host's own path the host's allowedMethods() may answer first, in its own order.
        const hostOnly = await request().options('/api/me').expect(200);
        expect(String(hostOnly.headers.allow).split(', ')).to.have.members(['GET', 'HEAD']);
        const pluginOnly = await request().options('/api/users');
        expectProblem(pluginOnly, { code: 'METHOD_NOT_ALLOWED' });
        expect(pluginOnly.headers.allow).to.equal('GET, HEAD');
      });

      it('answers a CORS preflight for reading a path the host also serves', async function () {
        const preflight = await request()
          .options('/api/posts')
          .set('Origin', 'https://site.example')
          .set('Access-Control-Request-Method', 'GET')
          .expect(204);
        expect(preflight.headers['access-control-allow-origin']).to.equal('https://site.example');
        expect(preflight.headers['access-control-allow-methods']).to.equal('GET,HEAD');
      });
    });
  }

  describe('two plugin routers on one prefix', function () {
    const app = useMounted(async ({ knex }) =>
      appWith(
        await queryModifiers({ knex, collections: { users: User } }),
        movedUrl,
        await queryModifiers({ knex, collections: { posts: Post, roles: Role } }),
        hostRouter(),
      ),
    );
    const request = () => supertest(app.origin());

    it('serves the collections of both', async function () {
      expect(rowsOf(await request().get('/api/users?fields=id&limit=1').expect(200))).to.deep.equal([{ id: 1 }]);
      expect(rowsOf(await request().get('/api/roles?fields=id&sort[id]&limit=1').expect(200))).to.deep.equal([{ id: 1 }]);
      expect((await request().post('/api/posts').expect(201)).body).to.deep.equal({ created: true });
    });

    it('answers 404 and 405 once, for both', async function () {
      expectProblem(await request().get('/api/nope'), {
        code: 'UNKNOWN_COLLECTION',
        detail: 'There is no collection "nope"; collections: users, posts, roles',
      });
      const deleted = await request().delete('/api/users');
      expectProblem(deleted, { code: 'METHOD_NOT_ALLOWED' });
      expect(deleted.headers.allow).to.equal('GET, HEAD');
      const options = await request().options('/api/roles');
      expectProblem(options, { code: 'METHOD_NOT_ALLOWED' });
      expect(options.headers.allow).to.equal('GET, HEAD');
    });

    it('leaves what nobody answered to the host middleware between them', async function () {
      await request().get('/api/people').expect(302).expect('Location', '/api/users');
    });
  });

  describe('the collection list behind authorize', function () {
    const app = useMounted(async (options) =>
      appWith(
        await queryModifiers({
          ...options,
          admin: {},
          authorize: (ctx, collection) => {
            if (collection !== '_meta' || ctx.get('X-Role') === 'admin') return true;
            ctx.set('WWW-Authenticate', 'Bearer');
            return { status: 401 };
          },
        }),
      ),
    );
    const request = () => supertest(app.origin());

    it('names the collections only to a client allowed to read the metadata', async function () {
      const hidden = await request().get('/api/nope');
      expectProblem(hidden, { code: 'UNKNOWN_COLLECTION', detail: 'There is no collection "nope"' });
      expect(hidden.headers['www-authenticate'], 'a header the hook set for a refusal').to.equal(undefined);
      expectProblem(await request().get('/api/_meta/nope'), { code: 'UNKNOWN_COLLECTION', detail: 'There is no collection "nope"' });
      expectProblem(await request().get('/api/nope').set('X-Role', 'admin'), {
        code: 'UNKNOWN_COLLECTION',
        detail: 'There is no collection "nope"; collections: users, posts, roles',
      });
    });
  });
});
