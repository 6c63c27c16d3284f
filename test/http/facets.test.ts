// Facets and stats (docs/query-language.md, Facets and stats): values counted under every condition
// but those on the faceted field, buckets, NULL as a value, stats, the scope hook, one statement.

import { expect } from 'chai';
import { objectOf, expectOk, useApp, type Row } from '../support/app';

describe('facets and stats', function () {
  const h = useApp();

  async function body(query: string): Promise<Row> {
    const res = await h.get(`/api/users?${query}`);
    expectOk(res, query);
    return objectOf(res);
  }

  it('smoke', async function () {
    const b = await body(
      'page=1&per-page=2&filter[status]=active&facet[status]&facet[role]&facet[created_at]=month&facet[score]=25&stats[score]&stats[created_at]&stats[visits]&facet[birthday]=year',
    );
    console.log(JSON.stringify({ facets: b.facets, stats: b.stats }, null, 1));
    expect(b.facets).to.be.an('object');
  });
});
