// Unit tests of the docs' example check (test/docs): how shortened responses match, and how example
// requests, responses and markers are found in markdown. No server: the suite itself runs them.

import { expect } from 'chai';
import { parseDocJson, type DocValue } from '../docs/doc-json';
import { matchDoc, matchText } from '../docs/doc-match';
import { collectExamples } from '../docs/examples';
import { expandRanges } from '../docs/requests';

function shown(text: string): DocValue {
  const [value] = parseDocJson(text);
  if (value === undefined) throw new Error('no value');
  return value;
}

const fence = '```';

describe('docs examples: matching shortened responses', () => {
  it('an ellipsis element stands for any run of elements, at the start, the end or between', () => {
    expect(matchDoc(shown('[1, 2, …]'), [1, 2, 3, 4])).to.equal(undefined);
    expect(matchDoc(shown('[1, ..., 4]'), [1, 2, 3, 4])).to.equal(undefined);
    expect(matchDoc(shown('["…", 3, "...", 5]'), [1, 2, 3, 4, 5])).to.equal(undefined);
    expect(matchDoc(shown('[1, …]'), [1])).to.equal(undefined);
    expect(matchDoc(shown('[1, …, 3]'), [1, 3, 2])).to.match(/^\$\[2\]: the docs show 3/);
    expect(matchDoc(shown('[1, 2]'), [1, 2, 3])).to.equal('$: the docs show 2 elements, the server answered 3');
  });

  it('commas may be left out around an ellipsis line', () => {
    expect(matchDoc(shown('[{"a": 1},\n  …\n  {"a": 9}]'), [{ a: 1 }, { a: 5 }, { a: 9 }])).to.equal(undefined);
  });

  it('objects have exactly the members shown, in that order, unless an ellipsis member opens them', () => {
    expect(matchDoc(shown('{"id": 1, "name": "x"}'), { id: 1, name: 'x' })).to.equal(undefined);
    expect(matchDoc(shown('{"name": "x", "id": 1}'), { id: 1, name: 'x' })).to.match(/"id" after "name"/);
    expect(matchDoc(shown('{"id": 1}'), { id: 1, name: 'x' })).to.match(/also has "name"/);
    expect(matchDoc(shown('{"id": 1, "…": "…"}'), { id: 1, name: 'x' })).to.equal(undefined);
    expect(matchDoc(shown('{"id": 1, …}'), { id: 1, name: 'x' })).to.equal(undefined);
    expect(matchDoc(shown('{"id": 2, …}'), { id: 1, name: 'x' })).to.equal('$.id: the docs show 2, the server answered 1');
  });

  it('a string with an ellipsis matches by its parts; values keep their JSON type', () => {
    expect(matchText('allowed: id, name, …', 'allowed: id, name, email')).to.equal(true);
    expect(matchText('a…c…e', 'abcde')).to.equal(true);
    expect(matchText('a…c…e', 'abxde')).to.equal(false);
    expect(matchText('ab…ba', 'aba')).to.equal(false);
    expect(matchDoc(shown('{"score": "9.5"}'), { score: 9.5 })).to.match(/the docs show "9.5"/);
  });

  it('reads several values one after another, and reports where the text is not JSON', () => {
    expect(parseDocJson('[1]\n[2, …]')).to.have.length(2);
    expect(() => parseDocJson('{"a" 1}')).to.throw('expected ":"');
  });

  it('sends N,...,M as every integer from N to M', () => {
    expect(expandRanges('in[id]=1,2,…,5&x=1,...,3')).to.equal('in[id]=1,2,3,4,5&x=1,2,3');
    expect(expandRanges('in[id]=$(seq -s, 1 5)&x=1')).to.equal('in[id]=1,2,3,4,5&x=1');
  });
});

describe('docs examples: finding them in markdown', () => {
  it('pairs a request line with the blocks after it, and a curl block with one body per command', () => {
    const text = [
      fence,
      'GET /api/users?filter[xor id]=1',
      fence,
      '',
      fence,
      'Allow: GET',
      fence,
      `${fence}json`,
      '{"status": 405}',
      fence,
      'Prose.',
      `${fence}sh`,
      "curl -g 'http://localhost:3000/api/a'",
      'curl -g -H "X-A: 1" \\',
      '  http://example.test/b',
      fence,
      `${fence}json`,
      '[1]',
      '[2]',
      fence,
    ].join('\n');
    const { examples, problems } = collectExamples('x.md', text);
    expect(problems).to.deep.equal([]);
    expect(
      examples.map((e) => [
        e.request.line,
        e.request.method,
        e.request.host,
        e.request.target,
        e.response?.headers,
        e.response?.bodies.length,
      ]),
    ).to.deep.equal([
      [2, 'GET', 'localhost:3000', '/api/users?filter[xor id]=1', [['Allow', 'GET']], 1],
      [13, 'GET', 'localhost:3000', '/api/a', [], 1],
      [14, 'GET', 'example.test', '/b', [], 1],
    ]);
    expect(examples[2]?.request.headers).to.deep.equal([['X-A', '1']]);
  });

  it('reads continuation lines, comments after two spaces and inline responses', () => {
    const text = [
      fence,
      'GET /api/users?fields=id',
      '      &limit=2       two users',
      '[{"id": 1}, …]',
      'GET /api/users?offset=5',
      fence,
    ].join('\n');
    const { examples } = collectExamples('x.md', text);
    expect(examples.map((e) => [e.request.target, e.response?.bodies.length])).to.deep.equal([
      ['/api/users?fields=id&limit=2', 1],
      ['/api/users?offset=5', undefined],
    ]);
  });

  it('applies a marker to the block right after it and reports one that is misplaced or unreadable', () => {
    const text = [
      '<!-- example: not-demo (a host app) -->',
      fence,
      'PUT /api/posts',
      fence,
      '<!-- example: options={"limits":{"maxRelatedRows":100}} env={"API_TOKEN":"t"} -->',
      '',
      fence,
      'GET /api/roles',
      fence,
      '<!-- example: not-demo -->',
      'Prose.',
      fence,
      'GET /api/a',
      fence,
      '<!-- example: bogus -->',
      fence,
      'GET /api/b',
      fence,
      fence,
      'GET /api/c',
      fence,
      fence,
      '{"a": }',
      fence,
    ].join('\n');
    const { examples, problems } = collectExamples('x.md', text);
    expect(examples.map((e) => e.setup)).to.deep.equal([
      { kind: 'not-demo', reason: '(a host app)' },
      { kind: 'demo', options: { limits: { maxRelatedRows: 100 } }, env: { API_TOKEN: 't' } },
      { kind: 'demo', options: {}, env: {} },
      { kind: 'demo', options: {}, env: {} },
    ]);
    expect(problems.map((p) => p.line)).to.deep.equal([10, 15, 23]);
  });
});
