// The exact problem+json body of every code in docs/errors.md, "Codes" (details aside,
// which are free text), the `errors` list with several problems in query-string order, 404, 405
// with Allow, 401/403 from the authorize hook, and 503 when the database is gone
// (docs/errors.md, "Server errors never leak database details": its error is logged, never sent).

import { expect } from 'chai';
import supertest from 'supertest';
import { Context } from 'koa';
import { asRow, objectOf, Row, startApp, TestApp, useApp, expectOk } from '../support/app';
import { adminQuery, createTestDatabase, testDbKind, TestDatabase } from '../support/db';
import { ModelQuery } from '../../plugin';
import { USER_FIELDS } from '../support/fixture';
import { expectProblem, problemType, PROBLEM_CODES, ProblemCode } from '../support/problems';

const SORT_WORDS = ['a', 'asc', 'ascending', '-', 'd', 'des', 'desc', 'descending'];

/** The body with every `detail` (free text) checked to be a non-empty string and replaced by '…'. */
function withoutDetails(body: Row): Row {
  const strip = (entry: Row): Row => {
    expect(entry.detail, 'detail').to.be.a('string').and.not.equal('');
    return { ...entry, detail: '…' };
  };
  const out = strip(body);
  if (Array.isArray(body.errors)) out.errors = body.errors.map((e: unknown) => strip(asRow(e)));
  return out;
}

interface Entry {
  code: ProblemCode;
  parameter?: string;
  allowed?: unknown;
}

/** The exact problem body docs/errors.md prescribes for a 400 with these entries (first on top). */
function badRequest(...entries: [Entry, ...Entry[]]): Row {
  const [first] = entries;
  const { title } = PROBLEM_CODES[first.code];
  return {
    type: problemType(first.code),
    title,
    status: 400,
    detail: '…',
    ...first,
    errors: entries.map((e) => ({ ...e, detail: '…' })),
  };
}

function problemBody(code: ProblemCode, extra: Row = {}): Row {
  const { status, title } = PROBLEM_CODES[code];
  return { type: problemType(code), title, status, detail: '…', code, ...extra };
}

async function exactBody(test: supertest.Test, status: number): Promise<Row> {
  const res = await test;
  expect(res.status, res.text.slice(0, 300)).to.equal(status);
  expect(res.headers['content-type']).to.match(/^application\/problem\+json\b/);
  return withoutDetails(objectOf(res));
}

describe('errors', function () {
  const h = useApp();
  const capped = useApp({ limits: { maxListItems: 2 } });

  describe('the exact body of each 400 code', function () {
    it('MALFORMED_PARAMETER', async function () {
      expect(await exactBody(h.get('/api/users?filter[xor%20id]=1'), 400)).to.deep.equal(
        badRequest({ code: 'MALFORMED_PARAMETER', parameter: 'filter[xor id]', allowed: ['and', 'or', 'and!', 'or!'] }),
      );
    });

    it('MALFORMED_PARAMETER for an unknown sort direction lists the direction words', async function () {
      const body = await exactBody(h.get('/api/users?sort[id]=sideways'), 400);
      expect(body).to.deep.equal(badRequest({ code: 'MALFORMED_PARAMETER', parameter: 'sort[id]', allowed: SORT_WORDS }));
    });

    it('FIELD_NOT_ALLOWED', async function () {
      expect(await exactBody(h.get('/api/users?sort[password_hash]'), 400)).to.deep.equal(
        badRequest({ code: 'FIELD_NOT_ALLOWED', parameter: 'sort[password_hash]', allowed: USER_FIELDS }),
      );
    });

    it('INVALID_VALUE', async function () {
      expect(await exactBody(h.get('/api/users?filter[id]=abc'), 400)).to.deep.equal(
        badRequest({ code: 'INVALID_VALUE', parameter: 'filter[id]' }),
      );
    });

    it('INVALID_VALUE for null with another operator', async function () {
      expect(await exactBody(h.get('/api/users?filter[score]=%3E%3Dnull'), 400)).to.deep.equal(
        badRequest({ code: 'INVALID_VALUE', parameter: 'filter[score]' }),
      );
    });

    it('UNKNOWN_RELATION', async function () {
      expect(await exactBody(h.get('/api/users?expand[comments]=c'), 400)).to.deep.equal(
        badRequest({ code: 'UNKNOWN_RELATION', parameter: 'expand[comments]', allowed: ['posts', 'phone', 'roles'] }),
      );
    });

    it('UNKNOWN_ALIAS', async function () {
      expect(await exactBody(h.get('/api/users?p_sort[title]=desc'), 400)).to.deep.equal(
        badRequest({ code: 'UNKNOWN_ALIAS', parameter: 'p_sort[title]' }),
      );
    });

    it('DUPLICATE_PARAMETER', async function () {
      expect(await exactBody(h.get('/api/users?page=1&page=2'), 400)).to.deep.equal(
        badRequest({ code: 'DUPLICATE_PARAMETER', parameter: 'page' }),
      );
    });

    it('DUPLICATE_PARAMETER for one alias on two relations', async function () {
      expect(await exactBody(h.get('/api/users?expand[posts]=x&expand[roles]=x'), 400)).to.deep.equal(
        badRequest({ code: 'DUPLICATE_PARAMETER', parameter: 'expand[roles]' }),
      );
    });

    it('CONFLICTING_PARAMETERS names the later key', async function () {
      expect(await exactBody(h.get('/api/users?fields=id&fields!=name'), 400)).to.deep.equal(
        badRequest({ code: 'CONFLICTING_PARAMETERS', parameter: 'fields!' }),
      );
      expect(await exactBody(h.get('/api/users?per-page=4&page-size=5'), 400)).to.deep.equal(
        badRequest({ code: 'CONFLICTING_PARAMETERS', parameter: 'page-size' }),
      );
      expect(await exactBody(h.get('/api/users?page=1&limit=5'), 400)).to.deep.equal(
        badRequest({ code: 'CONFLICTING_PARAMETERS', parameter: 'limit' }),
      );
    });

    it('LIMIT_EXCEEDED', async function () {
      expect(await exactBody(capped.get('/api/users?in[id]=1,2,3'), 400)).to.deep.equal(
        badRequest({ code: 'LIMIT_EXCEEDED', parameter: 'in[id]', allowed: 2 }),
      );
    });

    it('PAGE_SIZE_TOO_LARGE', async function () {
      expect(await exactBody(h.get('/api/users?per-page=500'), 400)).to.deep.equal(
        badRequest({ code: 'PAGE_SIZE_TOO_LARGE', parameter: 'per-page', allowed: 100 }),
      );
    });

    it('INVALID_CURSOR', async function () {
      expect(await exactBody(h.get('/api/users?cursor=abc'), 400)).to.deep.equal(
        badRequest({ code: 'INVALID_CURSOR', parameter: 'cursor' }),
      );
    });
  });

  describe('several problems in one request', function () {
    it('errors lists every problem in query-string order; the top level is the first', async function () {
      const body = await exactBody(h.get('/api/users?filter[bogus]=1&sort[id]=sideways&page=0&expand[nope]'), 400);
      expect(body).to.deep.equal(
        badRequest(
          { code: 'FIELD_NOT_ALLOWED', parameter: 'filter[bogus]', allowed: USER_FIELDS },
          { code: 'MALFORMED_PARAMETER', parameter: 'sort[id]', allowed: SORT_WORDS },
          { code: 'MALFORMED_PARAMETER', parameter: 'page' },
          { code: 'UNKNOWN_RELATION', parameter: 'expand[nope]', allowed: ['posts', 'phone', 'roles'] },
        ),
      );
    });

    it('a field problem before a syntax problem stays first', async function () {
      const body = await exactBody(h.get('/api/users?filter[bogus]=1&sort=name'), 400);
      expect(body).to.deep.equal(
        badRequest(
          { code: 'FIELD_NOT_ALLOWED', parameter: 'filter[bogus]', allowed: USER_FIELDS },
          { code: 'MALFORMED_PARAMETER', parameter: 'sort' },
        ),
      );
    });

    it('value problems and field problems together', async function () {
      const body = await exactBody(h.get('/api/users?filter[id]=abc&in[active]=yes,no&fields=id,secret&per-page=1000'), 400);
      expect(body).to.deep.equal(
        badRequest(
          { code: 'INVALID_VALUE', parameter: 'filter[id]' },
          { code: 'INVALID_VALUE', parameter: 'in[active]' }, // yes
          { code: 'INVALID_VALUE', parameter: 'in[active]' }, // no
          { code: 'FIELD_NOT_ALLOWED', parameter: 'fields', allowed: USER_FIELDS },
          { code: 'PAGE_SIZE_TOO_LARGE', parameter: 'per-page', allowed: 100 },
        ),
      );
    });

    it('problems in alias keys are listed with the root ones', async function () {
      const body = await exactBody(h.get('/api/users?expand[posts]=p&p_search[status]=x&q_fields=id'), 400);
      expect(body).to.deep.equal(
        badRequest(
          { code: 'FIELD_NOT_ALLOWED', parameter: 'p_search[status]', allowed: ['title'] },
          { code: 'UNKNOWN_ALIAS', parameter: 'q_fields' },
        ),
      );
    });
  });

  describe('a capped body (many problems cost what their query string costs)', function () {
    /** As many `make(i)` keys as fit in an 8 KB query string. */
    const fill = (make: (i: number) => string): string[] => {
      const keys: string[] = [];
      for (let i = 0, length = 0; length + make(i).length + 1 <= 8192; i += 1) {
        keys.push(make(i));
        length += make(i).length + 1;
      }
      return keys;
    };

    it('lists 20 problems and counts the rest; each allowed list once; no list in a detail', async function () {
      const keys = fill((i) => `sort[x${i}]`);
      const res = await h.get(`/api/users?${keys.join('&')}`);
      expect(res.status).to.equal(400);
      // Before the cap: 275 KB, the list twice per problem for all 750 of them.
      expect(res.text.length, 'body bytes').to.be.below(8192);
      const body = objectOf(res);
      const errors = (body.errors as unknown[]).map(asRow);
      expect(errors).to.have.length(20);
      expect(body.errors_omitted).to.equal(keys.length - 20);
      expect(errors.map((e) => e.parameter)).to.deep.equal(keys.slice(0, 20));
      expect(errors[0]?.allowed).to.have.members([...USER_FIELDS]);
      for (const entry of errors.slice(1)) expect(entry).to.include({ allowed_from: 0 }).and.not.have.property('allowed');
      for (const entry of errors) expect(entry.detail).to.not.include('email_verified_at');
    });

    it('gives a list again only when it differs', async function () {
      const body = await exactBody(h.get('/api/users?sort[a]&expand[b]&sort[c]&expand[posts]=p&p_sort[d]&p_fields=e'), 400);
      const entries = (body.errors as unknown[])
        .map(asRow)
        .map(({ parameter, allowed, allowed_from }) => ({ parameter, allowed, allowed_from }));
      expect(entries.map((e) => [e.parameter, e.allowed === undefined ? `from ${String(e.allowed_from)}` : 'own list'])).to.deep.equal([
        ['sort[a]', 'own list'],
        ['expand[b]', 'own list'],
        ['sort[c]', 'from 0'],
        ['p_sort[d]', 'own list'],
        ['p_fields', 'from 3'],
      ]);
    });

    it('cuts a detail that echoes a long name, and keeps the parameter exact', async function () {
      const name = 'n'.repeat(5000);
      const body = objectOf(await h.get(`/api/users?filter[${name}]=1`));
      expect(body.parameter).to.equal(`filter[${name}]`);
      expect(body.detail).to.have.length(500).and.match(/…$/);
    });

    it('lists no more than 16 KB of problems: a long search key naming many unknown fields is not repeated twenty times', async function () {
      const names = fill((i) => `f${i}`);
      const key = `search[${names.join(',')}]`.slice(0, 8100).replace(/,[^,]*$/, ']');
      const res = await h.get(`/api/users?${key}=x`);
      expect(res.status).to.equal(400);
      // Twenty entries would repeat the 8 KB key in each: 184 KB.
      expect(res.text.length, 'body bytes').to.be.below(20 * 1024);
      const body = objectOf(res);
      const errors = (body.errors as unknown[]).map(asRow);
      expect(errors.map((e) => e.parameter)).to.deep.equal([key]);
      expect(body.errors_omitted).to.equal(key.split(',').length - 1);
    });

    it('is the same shape when fewer problems fit: no errors_omitted', async function () {
      const body = objectOf(
        await h.get(
          `/api/users?${fill((i) => `sort[x${i}]`)
            .slice(0, 20)
            .join('&')}`,
        ),
      );
      expect(body.errors).to.have.length(20);
      expect(body).to.not.have.property('errors_omitted');
    });
  });

  describe('404 and 405', function () {
    it('an unknown collection is 404 UNKNOWN_COLLECTION', async function () {
      const body = await exactBody(h.get('/api/nope'), 404);
      expect(body).to.deep.equal(problemBody('UNKNOWN_COLLECTION'));
    });

    it('an unknown collection is 404 even with a bad query', async function () {
      const body = await exactBody(h.get('/api/nope?filter[xor]=1'), 404);
      expect(body.code).to.equal('UNKNOWN_COLLECTION');
    });

    for (const method of ['post', 'put', 'patch', 'delete'] as const) {
      it(`${method.toUpperCase()} on a collection is 405 with Allow: GET, HEAD`, async function () {
        const res = await supertest(h.origin)[method]('/api/users').send({ name: 'x' });
        expect(res.status).to.equal(405);
        expect(res.headers.allow).to.equal('GET, HEAD');
        expect(withoutDetails(objectOf(res))).to.deep.equal(problemBody('METHOD_NOT_ALLOWED'));
      });
    }

    it('a rejected method changes nothing', async function () {
      await supertest(h.origin).delete('/api/users');
      expect(await h.userIds('fields=id')).to.have.length(23);
    });
  });

  describe('authorize hook: 401 / 403', function () {
    const calls: string[] = [];
    const authorize = (ctx: Context, collection: string): boolean | { status: 401 | 403; detail?: string } | Promise<boolean> => {
      calls.push(collection);
      if (collection === 'roles') return { status: 403, detail: 'roles are private' };
      if (collection === 'posts') return Promise.resolve(ctx.get('x-user') === 'editor');
      if (!ctx.get('x-user')) return { status: 401, detail: 'who are you?' };
      return true;
    };
    const guarded = useApp({ authorize });
    const realm = useApp({
      authorize: (ctx: Context) => {
        ctx.set('WWW-Authenticate', 'Basic realm="staff"');
        return { status: 401 };
      },
    });

    it('allowed: 200, and the hook got the collection name', async function () {
      calls.length = 0;
      const res = await guarded.get('/api/users?filter[id]=1').set('x-user', 'alice');
      expectOk(res);
      expect(calls).to.deep.equal(['users']);
    });

    it('{status: 401} is 401 UNAUTHORIZED with the detail given', async function () {
      const body = await exactBody(guarded.get('/api/users'), 401);
      expect(body).to.deep.equal(problemBody('UNAUTHORIZED'));
      const res = await guarded.get('/api/users');
      expect(objectOf(res).detail).to.equal('who are you?');
    });

    it('a 401 says how to authenticate: WWW-Authenticate: Bearer when the hook set none, its own otherwise', async function () {
      const res = await guarded.get('/api/users');
      expect(res.status).to.equal(401);
      expect(res.headers['www-authenticate']).to.equal('Bearer');
      const own = await supertest(realm.origin).get('/api/users');
      expect(own.status).to.equal(401);
      expect(own.headers['www-authenticate']).to.equal('Basic realm="staff"');
    });

    it('{status: 403} is 403 FORBIDDEN with the detail given', async function () {
      const res = await guarded.get('/api/roles').set('x-user', 'alice');
      expectProblem(res, { code: 'FORBIDDEN', detail: 'roles are private' });
      expect(withoutDetails(objectOf(res))).to.deep.equal(problemBody('FORBIDDEN'));
    });

    it('an async false is 403 FORBIDDEN, an async true is allowed', async function () {
      expectProblem(await guarded.get('/api/posts').set('x-user', 'alice'), { code: 'FORBIDDEN' });
      expectOk(await guarded.get('/api/posts').set('x-user', 'editor'));
    });

    it('a refused client learns nothing about fields from a bad query', async function () {
      const res = await guarded.get('/api/users?filter[bogus]=1');
      expectProblem(res, { code: 'UNAUTHORIZED' });
      expect(res.text).to.not.include('email_verified_at');
    });
  });

  describe('503 when the database goes down', function () {
    let db: TestDatabase | undefined;
    let app: TestApp | undefined;
    let outage: (() => Promise<void>) | undefined;
    const logged: unknown[] = [];

    before(async function () {
      this.timeout(120000);
      db = await createTestDatabase();
      const connection = await db.connectWithOutage();
      outage = connection.outage;
      app = await startApp(connection.knex, {
        logger: {
          error: (message: string, error?: unknown) => {
            logged.push(error ?? message);
          },
        },
      });
    });

    after(async function () {
      await app?.close();
      await db?.destroy();
    });

    it('answers while the database is up', async function () {
      if (!app) throw new Error('no app');
      expectOk(await supertest(app.origin).get('/api/users?filter[id]=1'));
    });

    it('is SERVICE_UNAVAILABLE once it is down, with no database detail in the body, and logs the error', async function () {
      if (!app || !outage) throw new Error('no app');
      await outage();
      const res = await supertest(app.origin).get('/api/users?filter[id]=1');
      expect(res.status, res.text.slice(0, 300)).to.equal(503);
      expect(withoutDetails(objectOf(res))).to.deep.equal(problemBody('SERVICE_UNAVAILABLE'));
      // The client may try again: Retry-After says when (docs/errors.md).
      expect(res.headers['retry-after']).to.equal('1');
      expect(res.text.toLowerCase()).to.not.match(/knex|pool|acquire|econn|pglite|postgres|select|closed/);
      expect(logged.length).to.be.greaterThan(0);
    });

    it('stays SERVICE_UNAVAILABLE on the next request', async function () {
      if (!app) throw new Error('no app');
      const res = await supertest(app.origin).get('/api/users?per-page=2');
      expect(res.status, res.text.slice(0, 300)).to.equal(503);
      expect(objectOf(res).code).to.equal('SERVICE_UNAVAILABLE');
    });

    it('a bad query is still a 400, checked before any SQL', async function () {
      if (!app) throw new Error('no app');
      expectProblem(await supertest(app.origin).get('/api/users?filter[id]=abc'), { code: 'INVALID_VALUE', parameter: 'filter[id]' });
    });
  });

  describe('503 when a statement times out (PostgreSQL server only: PGlite has no statement_timeout)', function () {
    let db: TestDatabase | undefined;
    let app: TestApp | undefined;

    before(async function () {
      this.timeout(120000);
      if (testDbKind() !== 'postgres') this.skip();
      db = await createTestDatabase();
      await adminQuery(`alter database ${db.name ?? ''} set statement_timeout = '300ms'`);
      const { knex } = await db.connectWithOutage();
      const scope = (ctx: Context, collection: string, query: ModelQuery): void => {
        if (ctx.get('x-slow') && collection === 'users') query.whereRaw('pg_sleep(1) is not null');
      };
      app = await startApp(knex, { scope, logger: { error: () => undefined } });
    });

    after(async function () {
      await app?.close();
      await db?.destroy();
    });

    it('is SERVICE_UNAVAILABLE', async function () {
      if (!app) throw new Error('no app');
      expectOk(await supertest(app.origin).get('/api/users?filter[id]=1'));
      const res = await supertest(app.origin).get('/api/users?filter[id]=1').set('x-slow', '1');
      expect(res.status, res.text.slice(0, 300)).to.equal(503);
      expect(withoutDetails(objectOf(res))).to.deep.equal(problemBody('SERVICE_UNAVAILABLE'));
      expect(res.headers['retry-after']).to.equal('1');
      expect(res.text).to.not.include('statement');
    });
  });
});
