// Unit tests of how the syntax stage reads facets and stats (docs/query-language.md, Facets and
// stats): buckets by shape, `facet_limit` as a root key never an alias's window, and the root
// modifier names refused as aliases.

import { expect } from 'chai';
import { describeQuery, parseQueryString } from '../../plugin/syntax';
import { readKey } from '../../plugin/syntax/parse-key';

const describe_ = (qs: string) => describeQuery(parseQueryString(qs));

describe('syntax: facets and stats', () => {
  it('reads each bucket kind and stats, in order', () => {
    const { summary, problems } = describe_('facet[status]&facet[created_at]=month&facet[score]=2.5&stats[score]&facet_limit=7');
    expect(problems).to.deep.equal([]);
    expect(summary.facets.map((f) => [f.field, f.bucket])).to.deep.equal([
      ['status', { kind: 'value' }],
      ['created_at', { kind: 'date', unit: 'month' }],
      ['score', { kind: 'width', width: '2.5' }],
    ]);
    expect(summary.stats.map((s) => s.field)).to.deep.equal(['score']);
    expect(summary.limit).to.equal(7);
  });

  it('reads facet_limit as the root key, not the window of an alias `facet`', () => {
    expect(readKey('facet_limit')).to.deep.equal({ kind: 'modifier', alias: undefined, modifier: 'facet_limit', argument: undefined });
    expect(readKey('p_limit')).to.deep.include({ alias: 'p', modifier: 'limit' });
  });

  it('refuses malformed buckets, stats values and limits, naming the key', () => {
    const found = describe_('facet[a]=quarter&facet[b]=-5&facet[c]=0&stats[d]=x&facet_limit=0').problems;
    expect(found.map((p) => [p.code, p.parameter])).to.deep.equal([
      ['MALFORMED_PARAMETER', 'facet[a]'],
      ['MALFORMED_PARAMETER', 'facet[b]'],
      ['MALFORMED_PARAMETER', 'facet[c]'],
      ['MALFORMED_PARAMETER', 'stats[d]'],
      ['MALFORMED_PARAMETER', 'facet_limit'],
    ]);
  });

  it('refuses the root modifier names as aliases', () => {
    for (const alias of ['facet', 'stats', 'match', 'similar', 'format', 'cursor', 'total', 'page', 'limit', 'offset']) {
      const found = describe_(`expand[posts]=${alias}`).problems;
      expect(
        found.map((p) => [p.code, p.parameter]),
        alias,
      ).to.deep.equal([['MALFORMED_PARAMETER', 'expand[posts]']]);
    }
    expect(describe_('expand[posts]=pages').problems).to.deep.equal([]);
  });
});
