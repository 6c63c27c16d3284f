// Which parameter a response over its byte budget names (plugin/apply/contributor.ts): the part of
// the response holding the most bytes, and in it its fields when one field holds most of it, else
// its number of records.

import { expect } from 'chai';
import { largestContributor, measureFields, type MeasuredPart } from '../../plugin/apply/contributor';

const part = (fieldsParameter: string, rowsParameter: string, fields: Record<string, number>): MeasuredPart => ({
  fieldsParameter,
  rowsParameter,
  fields: new Map(Object.entries(fields)),
});

describe('the largest contributor to a response over its byte budget', function () {
  const root = part('fields', 'limit', { id: 6000, name: 9000 });

  it("names an alias's fields when one of its fields holds most of the largest part", function () {
    const posts = part('p_fields', 'p_limit', { id: 5000, title: 9_000_000 });
    expect(largestContributor([root, posts], 'limit')).to.deep.equal({ parameter: 'p_fields', byFields: true });
  });

  it("names an alias's limit when its records are many and even", function () {
    const posts = part('p_fields', 'p_limit', { id: 50_000, num: 50_000, at: 60_000 });
    expect(largestContributor([root, posts], 'limit')).to.deep.equal({ parameter: 'p_limit', byFields: false });
  });

  it("names the root's fields or its page size when the root holds the most", function () {
    const posts = part('p_fields', 'p_limit', { id: 100 });
    expect(largestContributor([part('fields', 'per-page', { id: 10, bio: 100_000 }), posts], 'per-page').parameter).to.equal('fields');
    expect(largestContributor([part('fields', 'per-page', { id: 500, num: 500 }), posts], 'per-page').parameter).to.equal('per-page');
  });

  it('names the fallback when nothing was read', function () {
    expect(largestContributor([], 'limit')).to.deep.equal({ parameter: 'limit', byFields: false });
  });

  it("measures each field's JSON text in bytes, a missing field as nothing", function () {
    const measured = measureFields([{ id: 1, title: 'é"' }, { id: 22, title: null }, { id: 3 }], ['id', 'title']);
    expect([...measured]).to.deep.equal([
      ['id', 4],
      ['title', 10],
    ]);
  });
});
