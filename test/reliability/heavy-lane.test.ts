// Many expensive requests at once beside cheap ones (docs/scaling.md, lanes): every cheap request
// answers, every heavy one answers or is refused with 503 SERVER_BUSY and Retry-After; nothing is a
// 500 or a reset connection. On a PostgreSQL server with a small pool whose waits give up soon, and
// on PGlite, whose single connection the lane must not deadlock.

import { expect } from 'chai';
import type { Knex } from 'knex';
import supertest from 'supertest';
import { objectOf, startApp, type TestApp } from '../support/app';
import { adminQuery, createTestDatabase, testDbKind, type TestDatabase } from '../support/db';
import { addRelationRows, relationCollections } from '../http/relation-models';

const SORT_BY_COUNT = '/api/users?fields=id&count[posts]&sort[posts_count]=desc&per-page=10';
const SORT_BY_RELATION = '/api/posts?fields=id&sort[author.name]&per-page=10';
const CHEAP = '/api/users?filter[id]=1';

/** Enough rows that a sort by a count or a relation field takes the database a while. */
async function addManyRows(knex: Knex, users: number, posts: number): Promise<void> {
  await addRelationRows(knex);
  await knex.raw(
    `insert into users (id, name, email, password_hash, created_at, updated_at)
     select 1000 + i, 'user ' || i, 'u' || i || '@example.com', 'x', now(), now() from generate_series(1, ?) i`,
    [users],
  );
  await knex.raw(
    `insert into posts (id, user_id, title, status, created_at)
     select 1000 + i, 1001 + (i::bigint * 7919) % ?, 'post ' || i, 'published', now() from generate_series(1, ?) i`,
    [users, posts],
  );
  await knex.raw('analyze');
}

type Outcome = { readonly status: number; readonly code?: unknown; readonly retryAfter?: string } | 'reset';

async function ask(origin: string, path: string): Promise<Outcome> {
  try {
    const res = await supertest(origin).get(path);
    const retryAfter: string | undefined = res.headers['retry-after'];
    return res.status === 200
      ? { status: 200 }
      : { status: res.status, code: objectOf(res).code, ...(retryAfter === undefined ? {} : { retryAfter }) };
  } catch {
    return 'reset';
  }
}

/** Every heavy request at once with the cheap ones among them; the outcomes of each kind. */
async function storm(origin: string, heavy: number, cheap: number): Promise<{ heavy: Outcome[]; cheap: Outcome[] }> {
  const heavyPaths = Array.from({ length: heavy }, (_, i) => (i % 2 === 1 ? SORT_BY_RELATION : SORT_BY_COUNT));
  const heavyAnswers = heavyPaths.map((path) => ask(origin, path));
  const cheapAnswers = Array.from({ length: cheap }, () => ask(origin, CHEAP));
  return { heavy: await Promise.all(heavyAnswers), cheap: await Promise.all(cheapAnswers) };
}

function expectOutcomes(outcomes: { heavy: Outcome[]; cheap: Outcome[] }): void {
  expect(outcomes.cheap, 'cheap requests').to.deep.equal(outcomes.cheap.map(() => ({ status: 200 })));
  for (const outcome of outcomes.heavy) {
    if (outcome === 'reset' || outcome.status !== 200) {
      expect(outcome, 'a heavy request is answered or told to come back').to.deep.equal({
        status: 503,
        code: 'SERVER_BUSY',
        retryAfter: '1',
      });
    }
  }
}

describe('the heavy-request lane under load', function () {
  let db: TestDatabase | undefined;
  let app: TestApp | undefined;

  afterEach(async function () {
    this.timeout(60000);
    await app?.close();
    await db?.destroy();
    app = undefined;
    db = undefined;
  });

  it('on PostgreSQL with a pool of 4: every cheap request answers 200 while 24 heavy ones run', async function () {
    if (testDbKind() !== 'postgres') this.skip();
    this.timeout(180000);
    db = await createTestDatabase({ prepare: (knex) => addManyRows(knex, 20000, 300000) });
    await adminQuery(`alter database ${db.name ?? ''} set statement_timeout = '5s'`);
    // The pool gives up a wait after 1 s, as a host's would: a cheap request stuck behind heavy
    // ones for longer is a 503, which is what the lane prevents.
    const knex = db.connectWith({ pool: { min: 0, max: 4 }, acquireConnectionTimeout: 1000 });
    app = await startApp(knex, { collections: relationCollections, limits: { heavyQueueMs: 1000 }, logger: { error: () => undefined } });
    expectOutcomes(await storm(app.origin, 24, 23));
  });

  it('on PGlite (one connection): heavy and cheap requests at once all finish, none deadlocked', async function () {
    if (testDbKind() !== 'pglite') this.skip();
    this.timeout(180000);
    db = await createTestDatabase({ prepare: (knex) => addManyRows(knex, 500, 5000) });
    app = await startApp(db.knex, { collections: relationCollections, logger: { error: () => undefined } });
    expectOutcomes(await storm(app.origin, 6, 10));
    // The lane is free again afterwards.
    expect(await ask(app.origin, SORT_BY_COUNT)).to.deep.equal({ status: 200 });
  });
});
