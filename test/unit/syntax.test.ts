// Unit tests of the syntax stage: raw query strings to QueryDescription, knowing no model.

import { expect } from 'chai';
import { describeQuery, parseQueryString } from '../../plugin/syntax';
import { parseFilterValue, parseList, parseSearchPattern } from '../../plugin/syntax/parse-value';
import { readKey } from '../../plugin/syntax/parse-key';

const describe_ = (qs: string) => describeQuery(parseQueryString(qs));

describe('syntax: parseQueryString', () => {
  it('keeps order, decodes + and %20 as spaces, keeps the raw segment', () => {
    const pairs = parseQueryString('filter[or+status]=a&filter%5Bor%20role%5D=%3E%3Db&&sort[name]');
    expect(pairs.map((p) => [p.key, p.value])).to.deep.equal([
      ['filter[or status]', 'a'],
      ['filter[or role]', '>=b'],
      ['sort[name]', ''],
    ]);
    expect(pairs[1]?.raw).to.equal('filter%5Bor%20role%5D=%3E%3Db');
  });

  it('marks segments that are not valid percent-encoded UTF-8, and which part', () => {
    const [value, key] = parseQueryString('filter[name]=%E0%A4%A&filter%5Bname%E0%5D=Kate');
    expect(value?.undecodable).to.equal('value');
    expect(key?.undecodable).to.equal('key');
    expect(key?.key).to.equal('filter%5Bname%E0%5D');
  });

  it('refuses an undecodable key that is a modifier once decoded or has an encoded bracket', () => {
    for (const query of ['filter%5Bname%E0%5D=Kate', 'filter%5bname%E0%5d=Kate', 'sort%5Bname%FF%5D', 'x%5B%E0=1', 'filter[name%E0]=1']) {
      const problems = describe_(query).problems;
      expect(
        problems.map((p) => [p.code, p.parameter]),
        query,
      ).to.deep.equal([['MALFORMED_PARAMETER', query.split('=')[0]]]);
    }
  });

  it('ignores an undecodable key that is neither', () => {
    for (const query of ['utm%E0=1', '%FF', 'fil%FFter[name]=x', 'x[%E0]=1', 'utm%2525%E0=1']) {
      expect(describe_(query).problems, query).to.deep.equal([]);
    }
  });

  it('refuses a key encoded more than once that is a modifier once decoded again, up to four times', () => {
    for (const [query, parameter] of [
      ['filter%255Bname%255D=Kate', 'filter%5Bname%5D'],
      ['fields%2521=id', 'fields%21'],
      ['filter%25255Bname%25255D=Kate', 'filter%255Bname%255D'],
      ['sort%2525255Bname%2525255D', 'sort%25255Bname%25255D'],
      // Undecodable, with a bracket encoded twice, or a modifier once its escapes are decoded twice.
      ['between%255Bid%E0%255D=1,2', 'between%255Bid%E0%255D'],
      ['filter%2525%35Bname%E0=x', 'filter%2525%35Bname%E0'],
    ] as const) {
      const problems = describe_(query).problems;
      expect(
        problems.map((p) => [p.code, p.parameter]),
        query,
      ).to.deep.equal([['MALFORMED_PARAMETER', parameter]]);
    }
    // Five times is past the bound, and a host's own key encoded twice stays the host's.
    for (const query of ['filter%252525255Bname%252525255D=Kate', 'utm%255Bsource%255D=x']) {
      expect(describe_(query).problems, query).to.deep.equal([]);
    }
  });

  it('refuses an undecodable key that starts with a declared alias and names no alias modifier', () => {
    const problems = describe_('expand[posts]=p&p_%E0fields=id').problems;
    expect(problems.map((p) => [p.code, p.parameter])).to.deep.equal([['MALFORMED_PARAMETER', 'p_%E0fields']]);
  });
});

describe('syntax: readKey', () => {
  it('splits alias, modifier and argument', () => {
    expect(readKey('p_sort[created_at]')).to.deep.equal({ kind: 'modifier', alias: 'p', modifier: 'sort', argument: 'created_at' });
    expect(readKey('fields!')).to.deep.equal({ kind: 'modifier', alias: undefined, modifier: 'fields!', argument: undefined });
    expect(readKey('p_expand[comments]')).to.deep.equal({ kind: 'modifier', alias: 'p', modifier: 'expand', argument: 'comments' });
  });

  it('ignores keys that are not ours', () => {
    for (const key of ['_', 'utm_source', 'filters', 'Filter[id]', 'index', 'pages']) {
      expect(readKey(key), key).to.deep.equal({ kind: 'foreign' });
    }
  });

  it('reports keys that look like ours but are malformed', () => {
    for (const key of [
      'filter[]',
      'filter',
      'sort',
      'fields[]',
      'page[1]',
      'filter[id',
      'filter[a]b',
      'p_expand[]',
      'p_expand',
      'per_page',
    ]) {
      expect(readKey(key).kind, key).to.equal('malformed');
    }
  });
});

describe('syntax: values', () => {
  it('reads the operator, longest first', () => {
    expect(parseFilterValue('>=5')).to.deep.equal({
      ok: true,
      value: { operator: '>=', value: { kind: 'text', text: '5', quoted: false } },
    });
    expect(parseFilterValue('<>null')).to.deep.equal({ ok: true, value: { operator: '<>', value: { kind: 'null' } } });
    expect(parseFilterValue('"null"')).to.deep.equal({
      ok: true,
      value: { operator: '=', value: { kind: 'text', text: 'null', quoted: true } },
    });
  });

  it('splits lists on commas outside double quotes, with backslash escapes', () => {
    const parsed = parseList('"Smith, John",Jane,"say \\"hi\\"",null');
    expect(parsed).to.deep.equal({
      ok: true,
      value: [
        { kind: 'text', text: 'Smith, John', quoted: true },
        { kind: 'text', text: 'Jane', quoted: false },
        { kind: 'text', text: 'say "hi"', quoted: true },
        { kind: 'null' },
      ],
    });
  });

  it('rejects empty items and broken quotes', () => {
    for (const text of ['a,,b', ',a', 'a,', '', '"a', '"a"b']) expect(parseList(text).ok, text).to.equal(false);
  });

  it('reads search patterns per the wildcard table', () => {
    expect(parseSearchPattern('an')).to.deep.equal({ ok: true, value: { term: 'an', anchorStart: false, anchorEnd: false } });
    expect(parseSearchPattern('*an*')).to.deep.equal({ ok: true, value: { term: 'an', anchorStart: false, anchorEnd: false } });
    expect(parseSearchPattern('an*')).to.deep.equal({ ok: true, value: { term: 'an', anchorStart: true, anchorEnd: false } });
    expect(parseSearchPattern('*an')).to.deep.equal({ ok: true, value: { term: 'an', anchorStart: false, anchorEnd: true } });
    expect(parseSearchPattern('a*n')).to.deep.equal({ ok: true, value: { term: 'a*n', anchorStart: false, anchorEnd: false } });
    expect(parseSearchPattern('**').ok).to.equal(false);
  });
});

describe('syntax: describeQuery', () => {
  it('collects clauses per family in query-string order with their logical words', () => {
    const d = describe_('filter[id]=>=5&in[role]=a,b&filter[or! status]=banned&filter[AND name]=x');
    expect(d.problems).to.deep.equal([]);
    expect(d.root.clauses.filter.map((c) => [c.word, c.negated, c.field])).to.deep.equal([
      ['and', false, 'id'],
      ['or', true, 'status'],
      ['and', false, 'name'],
    ]);
    expect(d.root.clauses.in).to.have.length(1);
  });

  it('describes nested expansions with their owner alias and windows behind an alias', () => {
    const d = describe_('c_limit=2&expand[posts]=p&p_expand[comments]=c&p_offset=1&limit=5');
    expect(d.problems).to.deep.equal([]);
    expect(d.expands.map((e) => [e.parameter, e.owner, e.alias])).to.deep.equal([
      ['expand[posts]', undefined, 'p'],
      ['p_expand[comments]', 'p', 'c'],
    ]);
    expect(d.aliased.get('c')?.window).to.deep.equal({ limit: { parameter: 'c_limit', value: 2 }, offset: undefined });
    expect(d.aliased.get('p')?.window).to.deep.equal({ limit: undefined, offset: { parameter: 'p_offset', value: 1 } });
    expect(d.root.window).to.equal(undefined);
    expect(d.paging).to.deep.equal({ kind: 'limit', limit: 5, offset: 0 });
  });

  it('declares only aliases reachable from a root expand; utm_limit is an alias modifier', () => {
    const d = describe_('a_expand[posts]=b&b_expand[author]=a&utm_limit=3');
    expect(d.problems.map((p) => [p.code, p.parameter])).to.deep.equal([
      ['UNKNOWN_ALIAS', 'a_expand[posts]'],
      ['UNKNOWN_ALIAS', 'b_expand[author]'],
      ['UNKNOWN_ALIAS', 'utm_limit'],
    ]);
  });

  it('reports every malformed key, unknown prefix and double space', () => {
    const d = describe_('filter[xor id]=1&filter[and  id]=2&sort=name&fields[]=id&filter[]=1');
    expect(d.problems.map((p) => [p.code, p.parameter])).to.deep.equal([
      ['MALFORMED_PARAMETER', 'filter[xor id]'],
      ['MALFORMED_PARAMETER', 'filter[and  id]'],
      ['MALFORMED_PARAMETER', 'sort'],
      ['MALFORMED_PARAMETER', 'fields[]'],
      ['MALFORMED_PARAMETER', 'filter[]'],
    ]);
  });

  it('rejects repeated single-valued keys but adds repeated clauses', () => {
    const d = describe_('filter[or status]=a&filter[or status]=b&page=1&page=2&sort[name]&sort[name]=d');
    expect(d.root.clauses.filter).to.have.length(2);
    expect(d.problems.map((p) => [p.code, p.parameter])).to.deep.equal([
      ['DUPLICATE_PARAMETER', 'page'],
      ['DUPLICATE_PARAMETER', 'sort[name]'],
    ]);
  });

  it('needs an expand for every alias, and one alias per relation', () => {
    const d = describe_('p_fields=id&expand[posts]=p&expand[roles]=p&q_sort[id]');
    expect(d.problems.map((p) => [p.code, p.parameter])).to.deep.equal([
      ['DUPLICATE_PARAMETER', 'expand[roles]'],
      ['UNKNOWN_ALIAS', 'q_sort[id]'],
    ]);
    expect([...d.aliased.keys()]).to.deep.equal(['p']);
  });

  it('reports a key that starts with a declared alias but names no alias modifier', () => {
    const d = describe_('p_page=2&expand[posts]=p&p_bogus[x]=1&p_fields=id&q_page=2&utm_source=x');
    expect(d.problems.map((p) => [p.code, p.parameter])).to.deep.equal([
      ['MALFORMED_PARAMETER', 'p_page'],
      ['MALFORMED_PARAMETER', 'p_bogus[x]'],
    ]);
    expect(d.problems[0]?.detail).to.equal(
      '`p_page` starts with the expansion alias "p" but names no alias modifier. Only fields, fields!, sort[...], search[...], filter[...], in[...], between[...], match, similar[...], expand[...], limit, offset can follow an expansion alias.',
    );
    expect(describe_('p_page=2&expand[posts]&utm_source=x').problems).to.deep.equal([]);
  });

  it('resolves paging and its conflicts', () => {
    expect(describe_('per-page=10').paging).to.deep.equal({ kind: 'page', page: 1, pageSize: 10, pageSizeParameter: 'per-page' });
    expect(describe_('offset=5').paging).to.deep.equal({ kind: 'limit', limit: undefined, offset: 5 });
    expect(describe_('').paging).to.deep.equal({ kind: 'none' });
    const conflicts = describe_('limit=5&page=2&per-page=10&page-size=20').problems.map((p) => p.code);
    expect(conflicts).to.deep.equal(['CONFLICTING_PARAMETERS', 'CONFLICTING_PARAMETERS']);
    const bad = describe_('page=0&per-page=-1&limit=1.5&offset=1e3').problems.map((p) => p.parameter);
    expect(bad).to.deep.equal(['page', 'per-page', 'limit', 'offset']);
  });

  it('reads total=exact|estimated|none, refuses other values, and x_total is not ours', () => {
    expect(describe_('per-page=5&total=estimated').total).to.equal('estimated');
    expect(describe_('total=none').total).to.equal('none');
    expect(describe_('per-page=5').total).to.equal(undefined);
    const bad = describe_('total=EXACT');
    expect(bad.problems.map((p) => [p.code, p.parameter, p.allowed])).to.deep.equal([
      ['MALFORMED_PARAMETER', 'total', ['exact', 'estimated', 'none']],
    ]);
    expect(describe_('total=none&total=exact').problems.map((p) => p.code)).to.deep.equal(['DUPLICATE_PARAMETER']);
    expect(describe_('x_total=none').problems).to.deep.equal([]);
    expect(describe_('expand[posts]=p&p_total=none').problems.map((p) => [p.code, p.parameter])).to.deep.equal([
      ['MALFORMED_PARAMETER', 'p_total'],
    ]);
  });

  it('counts clauses and the longest list for the cost caps', () => {
    const d = describe_('in[id]=1,2,3&in[or id]=4&filter[id]=1&search[name]=a');
    expect(d.cost).to.deep.equal({ clauses: 4, listItems: 3, longestList: 'in[id]', relations: [] });
  });

  it('counts each relation the request names once, with the first key, and one clause per relation a search reaches', () => {
    const d = describe_(
      'filter[or! posts.status]=a&expand[posts]&has[roles]=r&r_filter[x.y]=1&count[posts]&search[name,posts.title,phone.kind]=a&sort[author.name]',
    );
    expect(d.cost.relations).to.deep.equal([
      { name: 'posts', parameter: 'filter[or! posts.status]' },
      { name: 'roles', parameter: 'has[roles]' },
      { name: 'phone', parameter: 'search[name,posts.title,phone.kind]' },
      { name: 'author', parameter: 'sort[author.name]' },
    ]);
    // filter 1, has 1, r_filter 1, the search 3 (own fields, posts, phone).
    expect(d.cost.clauses).to.equal(6);
  });
});
