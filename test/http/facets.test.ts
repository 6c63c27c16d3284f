// Facets and stats (docs/query-language.md, Facets and stats) on the fixture's users: values counted
// under every condition but the clauses on the faceted field, most frequent first with ties by value
// and NULL as a value, date buckets, widths, facet_limit, stats in the fields' output forms, empty
// results, and where the two keys stand in each kind of envelope.

import { expect } from 'chai';
import { objectOf, expectOk, useApp, type Row } from '../support/app';

const STATUS_ALL = [
  { value: 'active', count: 12 },
  { value: 'inactive', count: 4 },
  { value: 'pending', count: 3 },
  { value: 'banned', count: 2 },
  // The text "null" and NULL are two values; the tie is broken by value, NULL last.
  { value: 'null', count: 1 },
  { value: null, count: 1 },
];

describe('facets and stats', function () {
  const h = useApp();

  async function body(query: string): Promise<Row> {
    const res = await h.get(`/api/users?${query}`);
    expectOk(res, query);
    return objectOf(res);
  }

  const facets = async (query: string) => (await body(query)).facets as Record<string, unknown>;
  const stats = async (query: string) => (await body(query)).stats as Record<string, unknown>;

  describe('facet values', function () {
    it('counts each value, most frequent first, ties by value, NULL as a value', async function () {
      expect(await facets('page=1&facet[status]')).to.deep.equal({ status: STATUS_ALL });
    });

    it("ignores the faceted field's own clauses and applies every other condition", async function () {
      const found = await facets('page=1&filter[status]=active&filter[role]=admin&facet[status]&facet[role]');
      expect(found).to.deep.equal({
        status: [
          { value: 'active', count: 3 },
          { value: 'inactive', count: 1 },
          { value: 'pending', count: 1 },
        ],
        role: [
          { value: 'viewer', count: 6 },
          { value: 'admin', count: 3 },
          { value: 'editor', count: 3 },
        ],
      });
    });

    it('the page itself stays filtered by every clause', async function () {
      const b = await body('page=1&filter[status]=active&filter[role]=admin&facet[status]');
      expect(b.total).to.equal(3);
    });

    it('in and between clauses on the field are left out too; a search stays', async function () {
      const viaIn = await facets('page=1&in[status]=banned,pending&facet[status]');
      expect(viaIn).to.deep.equal({ status: STATUS_ALL });
      const searched = await facets('page=1&search[name]=a*&facet[status]');
      expect(searched.status).to.deep.equal([{ value: 'active', count: 1 }]);
    });

    it('facet_limit keeps the most frequent values', async function () {
      expect(await facets('page=1&facet[status]&facet_limit=2')).to.deep.equal({ status: STATUS_ALL.slice(0, 2) });
    });

    it('booleans and numbers come in their JSON form', async function () {
      const found = await facets('page=1&facet[active]&facet[score]&facet_limit=2');
      expect(found.active).to.deep.equal([
        { value: true, count: 13 },
        { value: false, count: 8 },
      ]);
      // 72.25 and NULL twice each (the tie broken by value, NULL last); the rest once.
      expect(found.score).to.deep.equal([
        { value: '72.25', count: 2 },
        { value: null, count: 2 },
      ]);
    });
  });

  describe('buckets', function () {
    it('weeks start on Monday, in UTC, in bucket order', async function () {
      expect((await facets('page=1&facet[created_at]=week')).created_at).to.deep.equal([
        { value: '2025-03-31', count: 7 },
        { value: '2025-04-07', count: 6 },
        { value: '2025-04-14', count: 7 },
        { value: '2025-04-21', count: 2 },
        { value: '2025-04-28', count: 1 },
      ]);
    });

    it('months, years and days; a date field too', async function () {
      const found = await facets('page=1&facet[created_at]=month&facet[updated_at]=year&facet[birthday]=day&facet_limit=3');
      expect(found.created_at).to.deep.equal([
        { value: '2025-03-01', count: 1 },
        { value: '2025-04-01', count: 21 },
        { value: '2025-05-01', count: 1 },
      ]);
      expect(found.updated_at).to.deep.equal([{ value: '2025-01-01', count: 23 }]);
      expect(found.birthday).to.deep.equal([
        { value: '1970-01-01', count: 1 },
        { value: '1979-12-31', count: 1 },
        { value: '1980-04-04', count: 1 },
      ]);
    });

    it('a width groups numbers by lower bound, NULL last', async function () {
      expect((await facets('page=1&facet[score]=50')).score).to.deep.equal([
        { value: '0', count: 8 },
        { value: '50', count: 12 },
        { value: '100', count: 1 },
        { value: null, count: 2 },
      ]);
      expect((await facets('page=1&filter[role]=admin&facet[id]=10')).id).to.deep.equal([
        { value: 0, count: 3 },
        { value: 10, count: 1 },
        { value: 20, count: 1 },
      ]);
    });
  });

  describe('stats', function () {
    it('min, max, avg and sum of a number in its output form; min and max of a timestamp', async function () {
      const found = await stats('page=1&filter[role]=admin&stats[score]&stats[id]&stats[created_at]');
      expect(found).to.deep.equal({
        score: { min: '33.33', max: '99.99', avg: '71.7640000000000000', sum: '358.82' },
        id: { min: 1, max: 22, avg: 10.6, sum: 53 },
        created_at: { min: '2025-04-01T08:00:00.000000Z', max: '2025-04-18T00:00:00.000000Z' },
      });
    });

    it("ignores the field's own clauses", async function () {
      const found = await stats('page=1&between[id]=1,2&stats[id]');
      expect(found).to.deep.equal({ id: { min: 1, max: 23, avg: 12, sum: 276 } });
    });

    it('an empty result: no values, and stats of nothing are null', async function () {
      const b = await body('page=1&filter[name]=nobody&facet[status]&stats[score]&stats[birthday]');
      expect(b.facets).to.deep.equal({ status: [] });
      expect(b.stats).to.deep.equal({ score: { min: null, max: null, avg: null, sum: null }, birthday: { min: null, max: null } });
    });
  });

  describe('envelopes', function () {
    for (const [kind, query, last] of [
      ['the full envelope', 'page=1', 'total'],
      ['the simple envelope', 'page=1&total=none', 'to'],
      ['the cursor envelope', 'cursor=', 'prev_page_url'],
    ] as const) {
      it(`${kind}: facets, then stats, after its own keys`, async function () {
        const keys = Object.keys(await body(`${query}&stats[score]&facet[status]`));
        expect(keys.slice(-3)).to.deep.equal([last, 'facets', 'stats']);
      });
    }
  });
});
