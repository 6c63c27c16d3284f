// Output value types (docs/query-language.md, "How values come back"): timestamps as ISO UTC with 6
// fractional digits and Z, dates as YYYY-MM-DD, integers as numbers (bigint as a string when
// unsafe), numerics as exact strings, booleans as booleans. Also under a database session and a
// Node process that are not on UTC.

import { expect } from 'chai';
import { Model } from 'objection';
import supertest from 'supertest';
import { asRow, useApp, expectOk, rowsOf, startApp, type TestApp } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/db';

const ALICE = {
  id: 1,
  name: 'Alice Martin',
  email: 'alice@example.com',
  status: 'active',
  role: 'admin',
  score: '95.50',
  active: true,
  birthday: '1990-01-15',
  visits: 120,
  email_verified_at: '2025-04-17T01:19:49.123456Z',
  created_at: '2025-04-01T08:00:00.000000Z',
  updated_at: '2025-05-10T12:34:56.654321Z',
};

describe('output types', function () {
  const h = useApp();

  it('a whole record, every type', async function () {
    const res = await h.get('/api/users?filter[id]=1');
    expectOk(res);
    expect(res.headers['content-type']).to.match(/^application\/json\b/);
    expect(rowsOf(res)).to.deep.equal([ALICE]);
  });

  it('NULLs are JSON null', async function () {
    const rows = await h.rows('/api/users?filter[id]=16');
    expect(rows).to.deep.equal([
      {
        id: 16,
        name: 'Peggy',
        email: 'peggy@example.com',
        status: 'pending',
        role: null,
        score: null,
        active: null,
        birthday: null,
        visits: 0,
        email_verified_at: null,
        created_at: '2025-04-03T00:00:00.000000Z',
        updated_at: '2025-05-10T00:00:00.000000Z',
      },
    ]);
  });

  it('timestamps keep every microsecond', async function () {
    const rows = await h.rows('/api/users?fields=id,email_verified_at,created_at&in[id]=3,7,8');
    expect(rows).to.deep.equal([
      { id: 3, email_verified_at: '2025-03-01T00:00:00.000001Z', created_at: '2025-04-10T09:30:00.000000Z' },
      { id: 7, email_verified_at: null, created_at: '2025-04-17T12:00:00.500000Z' },
      { id: 8, email_verified_at: '2025-04-18T09:00:00.000000Z', created_at: '2025-04-17T23:59:59.999999Z' },
    ]);
  });

  it('numerics are exact strings with their scale', async function () {
    const rows = await h.rows('/api/users?fields=id,score&in[id]=7,8,9,13');
    expect(rows).to.deep.equal([
      { id: 7, score: '0.00' },
      { id: 8, score: '100.00' },
      { id: 9, score: '33.33' },
      { id: 13, score: '10.50' },
    ]);
  });

  it('a bigint beyond 2^53 is a string; safe ones are numbers', async function () {
    const res = await h.get('/api/users?fields=id,visits&in[id]=5,6');
    expectOk(res);
    expect(res.text).to.equal('[{"id":5,"visits":3},{"id":6,"visits":"9007199254740993"}]');
  });

  it('dates are YYYY-MM-DD, including a leap day', async function () {
    const rows = await h.rows('/api/users?fields=birthday&in[id]=4,5,13');
    expect(rows).to.deep.equal([{ birthday: '2000-02-29' }, { birthday: '1979-12-31' }, { birthday: '1970-01-01' }]);
  });

  it('timestamps in expanded records too', async function () {
    const rows = await h.rows('/api/users?fields=id&expand[posts]=p&p_fields=created_at&filter[id]=2');
    expect(rows).to.deep.equal([
      { id: 2, posts: [{ created_at: '2025-04-06T10:00:00.000000Z' }, { created_at: '2025-04-17T23:59:59.999999Z' }] },
    ]);
  });

  it('HEAD answers like GET without a body', async function () {
    const res = await supertest(h.origin).head('/api/users?filter[id]=1');
    expect(res.status).to.equal(200);
    expect(res.text ?? '').to.equal('');
    expect(res.headers['content-type']).to.match(/^application\/json\b/);
  });

  describe('with the database session and the Node process off UTC', function () {
    let savedTz: string | undefined;
    before(function () {
      savedTz = process.env.TZ;
      process.env.TZ = 'America/New_York';
    });
    after(function () {
      if (savedTz === undefined) delete process.env.TZ;
      else process.env.TZ = savedTz;
    });
    const zoned = useApp({}, { timezone: 'Asia/Kolkata' });

    it('output is still UTC, and dates do not shift', async function () {
      const rows = await zoned.rows('/api/users?filter[id]=1');
      expect(rows).to.deep.equal([ALICE]);
      const five = await zoned.rows('/api/users?fields=birthday,created_at&filter[id]=5');
      expect(five).to.deep.equal([{ birthday: '1979-12-31', created_at: '2025-04-17T00:00:00.000000Z' }]);
    });

    it('date-only values are still whole UTC days', async function () {
      expect(await zoned.userIds('filter[created_at]=2025-04-17')).to.deep.equal([5, 6, 7, 8]);
      expect(await zoned.userIds('between[created_at]=2025-04-17,2025-04-18')).to.deep.equal([5, 6, 7, 8, 9]);
      expect(await zoned.userIds('in[created_at]=2025-04-18')).to.deep.equal([9]);
      expect(await zoned.userIds('filter[created_at]=>2025-04-17&filter[and created_at]=<2025-04-21')).to.deep.equal([9, 10]);
    });

    it('a timestamp without a zone is UTC', async function () {
      expect(await zoned.userIds(`filter[created_at]=${encodeURIComponent('2025-04-17 01:19:49.123456')}`)).to.deep.equal([6]);
    });

    it('date columns compare as dates', async function () {
      expect(await zoned.userIds('filter[birthday]=1990-01-15')).to.deep.equal([1, 11]);
      const row = asRow((await zoned.rows('/api/users?fields=birthday&filter[id]=10'))[0]);
      expect(row.birthday).to.equal('2001-01-01');
    });
  });

  // The fixture has no smallint, real, double, json, uuid or varchar columns; a table of its own does.
  describe('the other column types', function () {
    class Gauge extends Model {
      static override tableName = 'gauges';
    }
    let db: TestDatabase | undefined;
    let app: TestApp | undefined;

    before(async function () {
      this.timeout(120000);
      db = await createTestDatabase({ empty: true });
      await db.knex.raw(`create table gauges (
        id serial primary key, small smallint, ratio real, precise double precision, doc jsonb, plain json,
        token uuid, label varchar(20), big bigint)`);
      await db.knex.raw(`insert into gauges (small, ratio, precise, doc, plain, token, label, big) values
        (-7, 0.5, 1.25, '{"a": [1, true, null]}', '[1, "x"]', '6f1c4a3e-2b7d-4c1e-9a55-0d3b8e2f7a10', 'first', 42),
        (null, null, null, null, null, null, null, null)`);
      app = await startApp(db.knex, { collections: { gauges: Gauge } });
    });

    after(async function () {
      await app?.close();
      await db?.destroy();
    });

    it('come back as numbers, parsed JSON, strings and nulls', async function () {
      const res = await supertest(app?.origin ?? '').get('/api/gauges');
      expectOk(res);
      expect(res.text).to.equal(
        '[{"id":1,"small":-7,"ratio":0.5,"precise":1.25,"doc":{"a":[1,true,null]},"plain":[1,"x"],' +
          '"token":"6f1c4a3e-2b7d-4c1e-9a55-0d3b8e2f7a10","label":"first","big":42},' +
          '{"id":2,"small":null,"ratio":null,"precise":null,"doc":null,"plain":null,"token":null,"label":null,"big":null}]',
      );
      const projected = await supertest(app?.origin ?? '').get('/api/gauges?fields=label,doc,small&filter[id]=1');
      expect(projected.text).to.equal('[{"label":"first","doc":{"a":[1,true,null]},"small":-7}]');
    });
  });
});
