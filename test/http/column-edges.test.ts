// The other column types of docs/query-language.md, "Enums, arrays and JSON" and the numeric edges
// of docs/query-language.md, "Accepted forms per column type" on the `gadgets` table: json and
// point never answer 500, real and double precision refuse what PostgreSQL would refuse, an enum
// outside the search path, and arrays of timestamps, bigints, numerics, enums and a domain, each
// answered and filtered in its documented form.

import { expect } from 'chai';
import { expectOk } from '../support/app';
import { expectProblem } from '../support/problems';
import { GADGETS_SQL, Gadget, useTypedApp } from '../support/typed-fixture';

const enc = encodeURIComponent;

describe('column types: json, point, floats and typed arrays', function () {
  const t = useTypedApp(GADGETS_SQL, { gadgets: Gadget });
  const ids = (query: string): Promise<number[]> => t.ids('gadgets', query);

  it('records: arrays of timestamps, bigints, numerics, enums and a domain in their JSON forms', async function () {
    const res = await t.get('/api/gadgets?fields=id,stamps,bigs,amounts,tiers,sizes,tier&filter[id]=<3');
    expectOk(res);
    expect(res.text).to.equal(
      '[' +
        '{"id":1,"stamps":["2025-04-17T01:19:49.123456Z","2025-04-18T00:00:00.500000Z"],"bigs":["9007199254740993",1],' +
        '"amounts":["1.50","2"],"tiers":["gold","silver"],"sizes":[1,2],"tier":"gold"},' +
        '{"id":2,"stamps":[],"bigs":[],"amounts":[],"tiers":["bronze"],"sizes":[3],"tier":"silver"}]',
    );
  });

  it('json compares as JSON; ordering operators are refused; it is not sortable', async function () {
    expect(await ids(`filter[label]=${enc('{ "a" : 1 }')}`)).to.deep.equal([1]);
    expect(await ids(`filter[label]=<>${enc('[1,2]')}`)).to.deep.equal([1, 3]);
    expect(await ids('search[label]=a')).to.deep.equal([1]);
    expectProblem(await t.get('/api/gadgets?filter[label]=<1'), { code: 'INVALID_VALUE', parameter: 'filter[label]' });
    expectProblem(await t.get('/api/gadgets?sort[label]'), { code: 'FIELD_NOT_ALLOWED', parameter: 'sort[label]' });
  });

  it('JSON that jsonb cannot read is INVALID_VALUE, not a database error', async function () {
    for (const value of ['"\\"\\\\u0000\\""', '["\\ud800"]', '1e1000000', '-1e-20000', `${'['.repeat(1001)}${']'.repeat(1001)}`]) {
      expectProblem(await t.get(`/api/gadgets?filter[label]=${enc(value)}`), { code: 'INVALID_VALUE', parameter: 'filter[label]' });
    }
    expect(await ids(`filter[label]=${enc('["\\ud83d\\ude00"]')}`)).to.deep.equal([]);
  });

  it('point compares in its text form with every operator, never a 500; it is not sortable', async function () {
    expect(await ids(`filter[spot]=${enc('(1,2)')}`)).to.deep.equal([1]);
    expect(await ids(`filter[spot]=${enc('>(0,0)')}`)).to.deep.equal([1]);
    expect(await ids(`in[spot]=${enc('"(0,0)",null')}`)).to.deep.equal([2, 3]);
    expect(await ids('between[spot]=a,z')).to.deep.equal([]);
    expectProblem(await t.get('/api/gadgets?sort[spot]'), { code: 'FIELD_NOT_ALLOWED', parameter: 'sort[spot]' });
  });

  it('real: values PostgreSQL would round to infinity or to zero are INVALID_VALUE', async function () {
    for (const value of ['1e39', '-3.5e38', '1e-50', '3.4028236e38', 'NaN', 'Infinity', '0x10', '1e']) {
      expectProblem(await t.get(`/api/gadgets?filter[ratio]=${enc(value)}`), { code: 'INVALID_VALUE', parameter: 'filter[ratio]' });
    }
    expect(await ids('filter[ratio]=3.4028235e38')).to.deep.equal([]);
    expect(await ids('filter[ratio]=1.4e-45')).to.deep.equal([]);
    expect(await ids('filter[ratio]=5e-1')).to.deep.equal([1]);
    expect(await ids('between[ratio]=-2,0.5')).to.deep.equal([1, 2]);
  });

  it('double precision: out of range is INVALID_VALUE, its own range is accepted', async function () {
    for (const value of ['1e309', '1e-400', '-Infinity']) {
      expectProblem(await t.get(`/api/gadgets?filter[precise]=${enc(value)}`), { code: 'INVALID_VALUE', parameter: 'filter[precise]' });
    }
    expect(await ids('filter[precise]=1e39')).to.deep.equal([]);
    expect(await ids('filter[precise]=5e-324')).to.deep.equal([]);
    expect(await ids('filter[precise]=1.25')).to.deep.equal([1]);
  });

  it('numeric(6,2): a value wider than the column compares, it does not overflow', async function () {
    expect(await ids('filter[amount]=<99999999999999999999.999')).to.deep.equal([1, 2]);
    expect(await ids('filter[amount]=12.5')).to.deep.equal([1]);
  });

  it('an enum outside the search path: cast by its schema, in its declared order (gold < bronze < silver)', async function () {
    expect(await ids('filter[tier]=>gold')).to.deep.equal([2]);
    expect(await ids('sort[tier]=desc')).to.deep.equal([3, 2, 1]);
    expect(await ids('filter[tiers]=silver')).to.deep.equal([1]);
    expect(await ids('in[tiers]=bronze,null')).to.deep.equal([2, 3]);
    expectProblem(await t.get('/api/gadgets?filter[tiers]=platinum'), {
      code: 'INVALID_VALUE',
      parameter: 'filter[tiers]',
      allowed: ['gold', 'bronze', 'silver'],
    });
  });

  it('arrays of timestamps: an instant, or a date-only value meaning the whole UTC day', async function () {
    expect(await ids(`filter[stamps]=${enc('2025-04-17T03:19:49.123456+02:00')}`)).to.deep.equal([1]);
    expect(await ids('filter[stamps]=2025-04-18')).to.deep.equal([1]);
    expect(await ids('filter[stamps]=<>2025-04-19')).to.deep.equal([1, 2, 3]);
    expect(await ids('in[stamps]=2025-04-16,2025-04-17')).to.deep.equal([1]);
  });

  it('arrays of bigints and numerics compare exactly', async function () {
    expect(await ids('filter[bigs]=9007199254740993')).to.deep.equal([1]);
    expect(await ids('filter[bigs]=9007199254740992')).to.deep.equal([]);
    expect(await ids('filter[amounts]=1.5')).to.deep.equal([1]);
    expectProblem(await t.get('/api/gadgets?filter[bigs]=9223372036854775808'), { code: 'INVALID_VALUE', parameter: 'filter[bigs]' });
  });

  it('an array of a domain compares as its base type: a value the domain refuses matches nothing', async function () {
    expect(await ids('filter[sizes]=3')).to.deep.equal([2]);
    expect(await ids('filter[sizes]=-1')).to.deep.equal([]);
    expect(await ids('in[sizes]=0,2')).to.deep.equal([1]);
  });

  it('records through the copying path (an expansion-free query with a bigint[]) and the fast path agree', async function () {
    const copied = await t.rows('/api/gadgets?fields=tiers,bigs&filter[id]=1');
    const fast = await t.rows('/api/gadgets?fields=tiers&filter[id]=1');
    expect(copied).to.deep.equal([{ tiers: ['gold', 'silver'], bigs: ['9007199254740993', 1] }]);
    expect(fast).to.deep.equal([{ tiers: ['gold', 'silver'] }]);
  });

  describe('with the database session off UTC', function () {
    const zoned = useTypedApp(GADGETS_SQL, { gadgets: Gadget }, {}, { timezone: 'Asia/Kolkata' });

    it('timestamps in arrays still come back in UTC, and date-only values are still UTC days', async function () {
      expect(await zoned.rows('/api/gadgets?fields=stamps&filter[id]=1')).to.deep.equal([
        { stamps: ['2025-04-17T01:19:49.123456Z', '2025-04-18T00:00:00.500000Z'] },
      ]);
      expect(await zoned.ids('gadgets', 'filter[stamps]=2025-04-18')).to.deep.equal([1]);
      expect(await zoned.ids('gadgets', 'filter[stamps]=2025-04-16')).to.deep.equal([]);
    });
  });
});
