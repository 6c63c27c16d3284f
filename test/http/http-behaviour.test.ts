// HTTP behaviour around the records: conditional GET (weak ETag, 304), Cache-Control, HEAD,
// Server-Timing, nosniff, and the admin metadata and explain endpoints.

import { expect } from 'chai';
import supertest from 'supertest';
import { objectOf, useApp, expectOk } from '../support/app';
import { expectProblem, expectProblemAt } from '../support/problems';
import { withoutBudget } from '../support/budget';

describe('http behaviour', function () {
  describe('conditional GET and caching headers', function () {
    const h = useApp({ cacheControl: { posts: 'public, max-age=60' }, serverTiming: true });

    it('gives every 200 a weak ETag that changes with the body', async function () {
      const a = await h.get('/api/users?fields=id&limit=2');
      const b = await h.get('/api/users?fields=id&limit=3');
      expectOk(a);
      expect(a.headers.etag).to.match(/^W\/"[A-Za-z0-9_-]+"$/);
      expect(b.headers.etag).to.not.equal(a.headers.etag);
    });

    it('answers If-None-Match with 304 and no body', async function () {
      const first = await h.get('/api/users?fields=id&limit=2');
      const again = await h.get('/api/users?fields=id&limit=2').set('If-None-Match', String(first.headers.etag));
      expect(again.status).to.equal(304);
      expect(again.text ?? '').to.equal('');
      const other = await h.get('/api/users?fields=id&limit=2').set('If-None-Match', 'W/"nope"');
      expect(other.status).to.equal(200);
    });

    it('sends no-cache by default, the configured value per collection, and no-store on errors', async function () {
      expect((await h.get('/api/users?limit=1')).headers['cache-control']).to.equal('no-cache');
      expect((await h.get('/api/posts?limit=1')).headers['cache-control']).to.equal('public, max-age=60');
      expect((await h.get('/api/users?filter[nope]=1')).headers['cache-control']).to.equal('no-store');
    });

    it('sends no CORS headers when CORS is not configured', async function () {
      const res = await h.get('/api/users?limit=1').set('Origin', 'https://site.example');
      expect(res.headers['access-control-allow-origin']).to.equal(undefined);
      const preflight = await supertest(h.origin)
        .options('/api/users')
        .set('Origin', 'https://site.example')
        .set('Access-Control-Request-Method', 'GET');
      expect(preflight.status).to.equal(405);
    });

    it('marks every answer nosniff', async function () {
      expect((await h.get('/api/users?limit=1')).headers['x-content-type-options']).to.equal('nosniff');
      expect((await h.get('/api/users?sort=x')).headers['x-content-type-options']).to.equal('nosniff');
    });

    it('answers HEAD with the GET headers and no body', async function () {
      const get = await h.get('/api/users?per-page=2');
      const head = await supertest(h.origin).head('/api/users?per-page=2');
      expect(head.status).to.equal(200);
      expect(head.headers.etag).to.equal(get.headers.etag);
      expect(head.headers['content-type']).to.equal('application/json; charset=utf-8');
      expect(head.text ?? '').to.equal('');
    });

    it('reports parse, query and serialize times in Server-Timing', async function () {
      const res = await h.get('/api/users?per-page=2&expand[posts]=p');
      expect(res.headers['server-timing']).to.match(/^parse;dur=\d+\.\d\d, query;dur=\d+\.\d\d, serialize;dur=\d+\.\d\d$/);
    });
  });

  describe('CORS', function () {
    const h = useApp({ cors: { origin: 'https://site.example' } });

    it('answers a preflight on a collection route and marks responses', async function () {
      const preflight = await supertest(h.origin)
        .options('/api/users?per-page=2')
        .set('Origin', 'https://site.example')
        .set('Access-Control-Request-Method', 'GET');
      expect(preflight.status).to.equal(204);
      expect(preflight.headers['access-control-allow-origin']).to.equal('https://site.example');
      expect(String(preflight.headers['access-control-allow-methods'])).to.include('GET');
      const get = await h.get('/api/users?limit=1').set('Origin', 'https://site.example');
      expect(get.headers['access-control-allow-origin']).to.equal('https://site.example');
    });

    it('marks the 404 and 405 problems too, so browser code can read them', async function () {
      const missing = await h.get('/api/nope').set('Origin', 'https://site.example');
      expectProblem(missing, { code: 'UNKNOWN_COLLECTION' });
      expect(missing.headers['access-control-allow-origin']).to.equal('https://site.example');
      const deleted = await supertest(h.origin).delete('/api/users').set('Origin', 'https://site.example');
      expectProblem(deleted, { code: 'METHOD_NOT_ALLOWED' });
      expect(deleted.headers['access-control-allow-origin']).to.equal('https://site.example');
    });
  });

  describe('admin metadata and explain', function () {
    const h = useApp({ admin: { explain: true } });

    it('lists the collections', async function () {
      const res = await h.get('/api/_meta');
      expectOk(res);
      expect(objectOf(res)).to.deep.equal({
        collections: ['users', 'posts', 'roles'],
        prefix: '/api',
        openapi: '/api/openapi.json',
        explain: true,
      });
    });

    it('the OpenAPI URL it lists serves the document', async function () {
      const listed = objectOf(await h.get('/api/_meta')).openapi;
      expect(listed).to.be.a('string');
      const res = await h.get(String(listed));
      expectOk(res);
      expect(objectOf(res).openapi).to.match(/^3\.1\./);
    });

    it('describes a collection with only what the API accepts', async function () {
      const meta = objectOf(await h.get('/api/_meta/users'));
      const fields = meta.fields as { name: string }[];
      expect(fields.map((f) => f.name)).to.not.include('password_hash');
      expect(meta.projectable).to.deep.equal(fields.map((f) => f.name));
      const relations = meta.relations as { name: string; cardinality: string }[];
      expect(relations.map((r) => [r.name, r.cardinality])).to.deep.include(['posts', 'many']);
      await expectProblemAt(h.get('/api/_meta/nope'), { code: 'UNKNOWN_COLLECTION' });
    });

    it('describes nested relations as deep as the depth cap, with the caps', async function () {
      interface Described {
        name: string;
        projectable: string[];
        relations: Described[];
      }
      const meta = objectOf(await h.get('/api/_meta/users'));
      expect([meta.maxExpansions, meta.maxExpandDepth]).to.deep.equal([5, 3]);
      const posts = (meta.relations as Described[]).find((r) => r.name === 'posts');
      const comments = posts?.relations.find((r) => r.name === 'comments');
      const author = comments?.relations.find((r) => r.name === 'author');
      expect(posts?.relations.map((r) => r.name)).to.deep.equal(['author', 'comments']);
      // The comment author's own options, not the users collection's; the third level ends the tree.
      expect(author?.projectable).to.deep.equal(['id', 'name', 'status']);
      expect(author?.relations).to.deep.equal([]);
    });

    it('explains the statements a request runs, with bindings, without changing anything', async function () {
      const res = await h.get('/api/_explain/users?filter[id]=>=5&expand[posts]=p&per-page=2&page=3');
      expectOk(res);
      // The rows statements as written, without the byte budget's wrapper they run in (limits.maxResponseBytes).
      const statements = (objectOf(res).statements as { sql: string; bindings: unknown[] }[]).map(withoutBudget);
      expect(statements.length).to.equal(2);
      // The posts are read inside the page's statement, over the page's keys, at most the row cap
      // plus one (docs/query-language.md, "Cost limits").
      expect(statements[0]?.sql).to.match(/^with "__kqm_rows" as \(select "users".\* from "users" where \(\("users"."id" >= \$1\)\)/);
      expect(statements[0]?.sql).to.match(
        /from "posts" where "posts"."user_id" = any\(array\(select "__kqm_rows"."id" from "__kqm_rows"\)\)/,
      );
      // The posts' own byte budget follows their row cap (8 MiB by default).
      expect(statements[0]?.bindings).to.deep.equal([5, 2, 4, 5001, 8 * 1024 * 1024]);
      expect(statements[1]?.sql).to.match(/^select count\(\*\)/);
      // With a per-parent window the expansion is a statement of its own, the parents' keys bound as one array.
      const windowed = objectOf(await h.get('/api/_explain/users?filter[id]=>=5&expand[posts]=p&p_limit=1&per-page=2&page=3'));
      const own = (windowed.statements as { sql: string; bindings: unknown[] }[]).map(withoutBudget)[1];
      expect(own?.sql).to.match(/ from unnest\(\$1::"pg_catalog"."int4"\[\]\) as "__kqm_parent"/);
      expect(own?.bindings).to.deep.equal([[9, 10], 1, 5001]);
    });

    it('adds PostgreSQL plans on demand', async function () {
      const plan = objectOf(await h.get('/api/_explain/users?filter[id]=1&explain=plan')).plan as unknown[];
      expect(plan).to.have.length(1);
      expect(JSON.stringify(plan[0])).to.include('"Node Type"');
      // An expansion read inside the rows statement is in that statement's plan.
      const expanded = objectOf(await h.get('/api/_explain/users?filter[id]=1&expand[posts]=p&explain=plan')).plan as unknown[];
      expect(expanded).to.have.length(1);
      expect(JSON.stringify(expanded[0])).to.include('"Relation Name":"posts"');
      // Expansions of their own bind the parents' keys as one array: their plan is explained too.
      const windowed = objectOf(await h.get('/api/_explain/users?filter[id]=1&expand[posts]=p&p_limit=1&explain=plan')).plan as unknown[];
      expect(windowed).to.have.length(2);
      expect(JSON.stringify(windowed[1])).to.include('"Relation Name":"posts"');
    });

    it('refuses the same mistakes as the collection route', async function () {
      await expectProblemAt(h.get('/api/_explain/users?filter[id]=abc'), { code: 'INVALID_VALUE' });
    });
  });

  describe('explain behind authorize', function () {
    const h = useApp({ admin: { explain: true }, authorize: (_ctx, collection) => (collection === '_explain' ? { status: 401 } : true) });

    it('asks the hook for _explain', async function () {
      await expectProblemAt(h.get('/api/_explain/users'), { code: 'UNAUTHORIZED' });
      expectOk(await h.get('/api/users?limit=1'));
    });
  });

  describe('the OpenAPI document behind authorize', function () {
    const h = useApp({ authorize: (_ctx, collection) => (collection === '_openapi' ? { status: 401 } : true) });

    it('asks the hook for _openapi', async function () {
      await expectProblemAt(h.get('/api/openapi.json'), { code: 'UNAUTHORIZED' });
      expectOk(await h.get('/api/users?limit=1'));
    });
  });
});
