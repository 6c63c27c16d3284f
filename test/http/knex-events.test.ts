// A host observes the plugin's statements through its own Knex, as it does its own queries: every
// statement raises `query` and then `query-response` with the same `__knexQueryUid` (what query
// loggers and timers pair them by), and a `start` listener (which may change the builder) is handed
// a builder for each statement.

import { expect } from 'chai';
import Koa from 'koa';
import supertest from 'supertest';
import { queryModifiers } from '../../plugin';
import { listen, TestApp } from '../support/app';
import { createTestDatabase, TestDatabase } from '../support/db';
import { collections } from '../support/fixture';

interface Seen {
  readonly event: string;
  readonly uid: unknown;
  readonly sql: string;
}

describe("the host's Knex events", function () {
  let db: TestDatabase | undefined;
  let app: TestApp | undefined;
  const seen: Seen[] = [];
  const record =
    (event: string) =>
    (...args: unknown[]): void => {
      // query: (query); query-response: (response, query, builder).
      const query = (event === 'query' ? args[0] : args[1]) as { __knexQueryUid?: unknown; sql?: string };
      seen.push({ event, uid: query.__knexQueryUid, sql: query.sql ?? '' });
    };

  before(async function () {
    this.timeout(120000);
    db = await createTestDatabase();
    db.knex.on('query', record('query'));
    db.knex.on('query-response', record('query-response'));
    const router = await queryModifiers({ knex: db.knex, collections });
    const koa = new Koa();
    koa.use(router.routes()).use(router.allowedMethods());
    app = await listen(koa);
  });

  after(async function () {
    this.timeout(60000);
    await app?.close();
    await db?.destroy();
  });

  function get(query: string): Promise<supertest.Response> {
    if (app === undefined) throw new Error('setup failed');
    return supertest(app.origin).get(`/api/users?${query}`);
  }

  it('raises query and query-response for each statement, paired by __knexQueryUid', async function () {
    // The first request of a query also asks the planner its cost (docs/configuration.md, heavy requests).
    expect((await get('per-page=2&expand[posts]=p&p_limit=2&expand[roles]=r&r_limit=2')).status).to.equal(200);
    seen.length = 0;
    const res = await get('per-page=2&expand[posts]=p&p_limit=2&expand[roles]=r&r_limit=2');
    expect(res.status, res.text.slice(0, 300)).to.equal(200);
    const queries = seen.filter((s) => s.event === 'query');
    const responses = seen.filter((s) => s.event === 'query-response');
    // The page, posts, roles and the count (windowed expansions keep their own statements).
    expect(queries).to.have.length(4);
    expect(responses.map((s) => s.uid).sort()).to.deep.equal(queries.map((s) => s.uid).sort());
    expect(new Set(queries.map((s) => s.uid)).size).to.equal(4);
    for (const query of queries) expect(query.uid).to.be.a('string').and.not.equal('');
    expect(responses.map((s) => s.sql).sort()).to.deep.equal(queries.map((s) => s.sql).sort());
  });

  it("hands a `start` listener each statement's builder, and runs what the listener made of it", async function () {
    if (db === undefined) throw new Error('setup failed');
    let started = 0;
    const onStart = (builder: { timeout?: (ms: number, options?: { cancel?: boolean }) => unknown }): void => {
      started += 1;
      // What a host does with it: a timeout on every query.
      builder.timeout?.(60000, { cancel: true });
    };
    db.knex.on('start', onStart);
    try {
      expect((await get('per-page=2&expand[posts]=p&p_limit=2')).status).to.equal(200);
      started = 0;
      seen.length = 0;
      const res = await get('per-page=2&expand[posts]=p&p_limit=2');
      expect(res.status, res.text.slice(0, 300)).to.equal(200);
      expect(started).to.equal(seen.filter((s) => s.event === 'query').length);
      expect(started).to.equal(3);
    } finally {
      db.knex.off('start', onStart);
    }
  });
});
