// The demo server's /ready tells failures apart as the plugin's routes do
// (docs/errors.md, "SERVICE_UNAVAILABLE"): 503 when the database cannot serve, a thrown error (500)
// for any other fault. The real database states are in the fault suite; here the probe's outcome is
// given directly.

import { expect } from 'chai';
import Koa from 'koa';
import type { Knex } from 'knex';
import pino from 'pino';
import supertest from 'supertest';
import { healthRoutes } from '../../server/health';

/** A Knex stand-in whose every statement ends as `outcome` does; records the statements. */
function fakeKnex(outcome: () => Promise<unknown>, statements: string[] = []): Knex {
  const raw = (sql: string, bindings: readonly unknown[] = []): Promise<unknown> => {
    statements.push(`${sql} ${JSON.stringify(bindings)}`);
    return outcome();
  };
  return { raw } as unknown as Knex;
}

function appWith(knex: Knex): Koa {
  const app = new Koa();
  app.silent = true;
  app.use(healthRoutes(knex, pino({ level: 'silent' }), ['users', 'posts']));
  return app;
}

describe('GET /ready (demo server)', function () {
  it('probes every table with one statement and answers 200 when it succeeds', async function () {
    const statements: string[] = [];
    const res = await supertest(appWith(fakeKnex(() => Promise.resolve({ rows: [] }), statements)).callback()).get('/ready');
    expect(res.status).to.equal(200);
    expect(statements).to.deep.equal(['select 1, (select 1 from ?? limit 0), (select 1 from ?? limit 0) ["users","posts"]']);
  });

  for (const [what, error] of [
    ['a table gone (42P01)', Object.assign(new Error('relation "posts" does not exist'), { code: '42P01', routine: 'parserOpenTable' })],
    ['the database dropped (3D000)', Object.assign(new Error('database "x" does not exist'), { code: '3D000' })],
    ['connections refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', syscall: 'connect' })],
  ] as const) {
    it(`answers 503 SERVICE_UNAVAILABLE with Retry-After for ${what}`, async function () {
      const res = await supertest(appWith(fakeKnex(() => Promise.reject(error))).callback()).get('/ready');
      expect(res.status).to.equal(503);
      expect(res.type).to.equal('application/problem+json');
      expect(res.headers['retry-after']).to.equal('1');
      expect(res.headers['x-content-type-options']).to.equal('nosniff');
      expect(res.body).to.include({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      expect(res.text).to.not.match(/exist|ECONNREFUSED|posts/);
    });
  }

  it('lets any other fault through as a 500, as the routes do', async function () {
    const fault = Object.assign(new Error('permission denied for table users'), { code: '42501' });
    const res = await supertest(appWith(fakeKnex(() => Promise.reject(fault))).callback()).get('/ready');
    expect(res.status).to.equal(500);
    expect(res.text).to.not.match(/permission|users/);
  });
});
