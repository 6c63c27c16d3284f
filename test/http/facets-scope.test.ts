// Facets and stats under the host's restrictions and over arrays: the scope hook restricts the records
// counted (on the builder path), fields a model's own JSON removes or masks are refused, an array's
// elements are counted one by one (a NULL array as one NULL), and one statement computes every facet
// and stats of a request, with 1 facet and with 5, on both ways of running statements.

import { expect } from 'chai';
import type { Context } from 'koa';
import { Model } from 'objection';
import supertest from 'supertest';
import type { ModelQuery } from '../../plugin';
import { expectOk, objectOf, startApp, type Row, type TestApp } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { collections } from '../support/fixture';
import { expectProblem } from '../support/problems';
import { SecretUser } from './visibility-models';

class Tagged extends Model {
  static override tableName = 'tagged';
}

const taggedSchema = [
  'create table tagged (id serial primary key, tags text[] null, sizes integer[] null)',
  `insert into tagged (tags, sizes) values
     ('{red,blue}', '{1,2}'), ('{red}', '{2}'), (null, '{3,null}'), ('{}', null), ('{blue,red,null}', '{}')`,
];

describe('facets and stats: scope, visibility, arrays, statements', function () {
  let db: TestDatabase | undefined;
  const apps: Record<'text' | 'builder' | 'scoped' | 'cached', TestApp | undefined> = {
    text: undefined,
    builder: undefined,
    scoped: undefined,
    cached: undefined,
  };
  let sent: string[] = [];

  before(async function () {
    this.timeout(120000);
    db = await createTestDatabase();
    for (const statement of taggedSchema) await db.knex.raw(statement);
    // The heavy lane's EXPLAIN of a query's first request is not a statement that reads (docs/scaling.md, "Lanes and pool sizing").
    db.knex.on('query', (event: { sql: string }) => {
      if (!/^explain\b/i.test(event.sql)) sent.push(event.sql);
    });
    const all = { ...collections, tagged: Tagged, secret: SecretUser };
    apps.text = await startApp(db.knex, { collections: all, admin: {} });
    apps.builder = await startApp(db.knex, { collections: all, scope: () => undefined });
    apps.cached = await startApp(db.knex, { collections: all, totalsCache: { ttlSeconds: 600 } });
    apps.scoped = await startApp(db.knex, {
      collections: all,
      scope: (_ctx: Context, label: string, query: ModelQuery) => {
        if (label === 'users') query.where('users.id', '<=', 10);
      },
    });
  });

  after(async function () {
    this.timeout(60000);
    for (const app of Object.values(apps)) await app?.close();
    await db?.destroy();
  });

  async function body(on: keyof typeof apps, path: string): Promise<Row> {
    const res = await supertest(apps[on]?.origin ?? '').get(path);
    expectOk(res, path);
    return objectOf(res);
  }

  it('the scope hook restricts what is counted, facets and stats alike', async function () {
    const b = await body('scoped', '/api/users?page=1&filter[status]=active&facet[status]&stats[id]');
    expect(b.facets).to.deep.equal({
      status: [
        { value: 'active', count: 5 },
        { value: 'inactive', count: 2 },
        { value: 'banned', count: 1 },
        { value: 'pending', count: 1 },
        { value: null, count: 1 },
      ],
    });
    expect(b.stats).to.deep.equal({ id: { min: 1, max: 8, avg: 4.2, sum: 21 } });
  });

  it('a field the model removes, or masks, is refused as if unknown', async function () {
    for (const field of ['password_hash', 'email']) {
      const res = await supertest(apps.text?.origin ?? '').get(`/api/secret?page=1&facet[${field}]`);
      expectProblem(res, { code: 'FIELD_NOT_ALLOWED', parameter: `facet[${field}]` });
    }
  });

  it('_meta lists what facet and stats take, without the fields the model removes or masks', async function () {
    const meta = await body('text', '/api/_meta/secret');
    const summary = meta.summary as Record<string, unknown>;
    expect(summary.facetable)
      .to.include.members(['status', 'role', 'score', 'created_at'])
      .and.not.include.members(['password_hash', 'email']);
    const dates = summary.dateBuckets as Record<string, unknown>;
    expect(dates.fields).to.have.members(['birthday', 'email_verified_at', 'created_at', 'updated_at']);
    expect(dates.buckets).to.deep.equal(['day', 'week', 'month', 'year']);
    expect(summary.widthBuckets).to.have.members(['id', 'score', 'visits']);
    expect(summary.statsable).to.have.members(['id', 'score', 'birthday', 'visits', 'email_verified_at', 'created_at', 'updated_at']);
    expect(summary.facetLimit).to.deep.equal({ default: 10, max: 100 });
    expect((await body('text', '/api/_meta/tagged')).summary).to.deep.include({
      facetable: ['id', 'tags', 'sizes'],
      widthBuckets: ['id', 'sizes'],
    });
  });

  it('with the totals cache on, facets and stats are kept as totals are, per statement', async function () {
    const query = '/api/users?page=1&per-page=2&facet[status]&stats[score]';
    const ran: number[] = [];
    const answers: Row[] = [];
    for (const path of [query, query, `${query}&filter[role]=admin`]) {
      sent = [];
      answers.push(await body('cached', path));
      ran.push(sent.filter((sql) => sql.includes('union all')).length);
    }
    expect(ran).to.deep.equal([1, 0, 1]);
    expect(answers[1]?.facets).to.deep.equal(answers[0]?.facets);
    expect(answers[2]?.facets).to.not.deep.equal(answers[0]?.facets);
  });

  for (const on of ['text', 'builder'] as const) {
    it(`arrays count each element; a NULL array is one NULL, an empty one nothing (${on})`, async function () {
      const b = await body(on, '/api/tagged?page=1&facet[tags]&facet[sizes]');
      expect(b.facets).to.deep.equal({
        tags: [
          { value: 'red', count: 3 },
          { value: 'blue', count: 2 },
          { value: null, count: 2 },
        ],
        sizes: [
          { value: 2, count: 2 },
          { value: null, count: 2 },
          { value: 1, count: 1 },
          { value: 3, count: 1 },
        ],
      });
    });

    it(`one statement for every facet and stats, with 1 facet and with 5 (${on})`, async function () {
      const one = 'page=1&per-page=3&filter[status]=active&facet[status]';
      const five =
        'page=1&per-page=3&filter[status]=active&facet[status]&facet[role]&facet[created_at]=month&facet[score]=10&facet[active]&stats[score]&stats[created_at]';
      const plain = 'page=1&per-page=3&filter[status]=active';
      const counts: number[] = [];
      for (const query of [plain, one, five]) {
        sent = [];
        await body(on, `/api/users?${query}`);
        counts.push(sent.length);
      }
      expect(counts).to.deep.equal([2, 3, 3]);
      expect(sent.filter((sql) => sql.includes('union all'))).to.have.length(1);
    });
  }
});
