// Unit tests of the validate stage: QueryDescription + catalog -> ValidatedQuery, or every problem.

import { expect } from 'chai';
import { QueryError } from '../../plugin/errors';
import { describeQuery, parseQueryString } from '../../plugin/syntax';
import { coerceValue, validateQuery, type ValidatedQuery } from '../../plugin/validate';
import { limits, people, things } from './catalog-stub';

const validate = (qs: string): ValidatedQuery => validateQuery(describeQuery(parseQueryString(qs)), people, limits);

function problemsOf(qs: string): [string, string | undefined][] {
  try {
    validate(qs);
  } catch (error) {
    if (error instanceof QueryError) return error.problems.map((p) => [p.code, p.parameter]);
    throw error;
  }
  throw new Error(`expected ${qs} to be refused`);
}

const column = (name: string) => people.columns.get(name)!;

describe('validate: values', () => {
  it('checks integers against the column range', () => {
    expect(coerceValue(column('id'), { kind: 'text', text: '42', quoted: false })).to.deep.equal({
      ok: true,
      operand: { kind: 'value', value: 42 },
    });
    expect(coerceValue(column('id'), { kind: 'text', text: 'abc', quoted: false }).ok).to.equal(false);
    expect(coerceValue(column('id'), { kind: 'text', text: '2147483648', quoted: false }).ok).to.equal(false);
    expect(coerceValue(column('big'), { kind: 'text', text: '9007199254740993', quoted: false })).to.deep.equal({
      ok: true,
      operand: { kind: 'value', value: '9007199254740993' },
    });
  });

  it('turns a date-only value on a timestamp into a whole UTC day', () => {
    expect(coerceValue(column('created_at'), { kind: 'text', text: '2024-02-28', quoted: false })).to.deep.equal({
      ok: true,
      operand: { kind: 'day', start: '2024-02-28T00:00:00Z', end: '2024-02-29T00:00:00Z' },
    });
    expect(coerceValue(column('created_at'), { kind: 'text', text: '2025-12-31', quoted: false })).to.deep.equal({
      ok: true,
      operand: { kind: 'day', start: '2025-12-31T00:00:00Z', end: '2026-01-01T00:00:00Z' },
    });
  });

  it('normalises timestamps to UTC keeping microseconds', () => {
    expect(coerceValue(column('created_at'), { kind: 'text', text: '2025-04-17T01:19:49.123456+02:00', quoted: false })).to.deep.equal({
      ok: true,
      operand: { kind: 'value', value: '2025-04-16T23:19:49.123456Z' },
    });
    expect(coerceValue(column('created_at'), { kind: 'text', text: '2025-04-17 01:19', quoted: false })).to.deep.equal({
      ok: true,
      operand: { kind: 'value', value: '2025-04-17T01:19:00.000000Z' },
    });
  });

  it("rejects impossible dates and other types' nonsense", () => {
    const bad: [string, string][] = [
      ['born', '2025-02-30'],
      ['born', '2025-04-17T10:00'],
      ['created_at', '2025-13-01'],
      ['created_at', '0000-01-01'],
      ['score', '1.2.3'],
      ['score', '1e5'],
      ['active', 'yes'],
      ['name', 'a\u0000b'],
      ['created_at', '2025-04-17T24:00'],
    ];
    for (const [name, text] of bad) {
      expect(coerceValue(column(name), { kind: 'text', text, quoted: false }).ok, `${name}=${text}`).to.equal(false);
    }
  });
});

describe('validate: scopes', () => {
  it('groups clauses: an or starts a new AND-list (NOT before AND before OR)', () => {
    const v = validate('filter[id]=1&filter[and name]=a&filter[or id]=2&filter[and! name]=b');
    const group = v.root.groups[0]!;
    expect(group.anyOf.map((terms) => terms.map((t) => t.negated))).to.deep.equal([
      [false, false],
      [false, true],
    ]);
  });

  it('negates the first clause of a group when it carries !', () => {
    const v = validate('filter[or! name]=a');
    expect(v.root.groups[0]!.anyOf[0]![0]!.negated).to.equal(true);
  });

  it('escapes % _ and \\ in search terms and anchors per the wildcard table', () => {
    const pattern = (qs: string) => {
      const condition = validate(qs).root.groups[0]!.anyOf[0]![0]!.condition;
      return condition.kind === 'search' ? condition.pattern : undefined;
    };
    expect(pattern(`search[name]=${encodeURIComponent('50%_off\\')}`)).to.equal('%50\\%\\_off\\\\%');
    expect(pattern('search[name]=an*')).to.equal('an%');
    expect(pattern('search[name]=*an')).to.equal('%an');
  });

  it('orders by the requested keys, then the primary key', () => {
    const v = validate('sort[name]=desc&sort[created_at]');
    expect(v.root.order.map((o) => [o.column.name, o.direction])).to.deep.equal([
      ['name', 'desc'],
      ['created_at', 'asc'],
      ['id', 'asc'],
    ]);
    expect(validate('sort[id]=d').root.order.map((o) => o.column.name)).to.deep.equal(['id']);
  });

  it('keeps request order for fields and declaration order for fields!', () => {
    expect(validate('fields=name,id').root.output.map((c) => c.name)).to.deep.equal(['name', 'id']);
    expect(validate('fields!=name,born').root.output.map((c) => c.name)).to.deep.equal(['id', 'created_at', 'score', 'active', 'big']);
  });

  it('answers unknown and hidden fields alike', () => {
    expect(problemsOf('filter[secret]=x&sort[nope]&fields=secret')).to.deep.equal([
      ['FIELD_NOT_ALLOWED', 'filter[secret]'],
      ['FIELD_NOT_ALLOWED', 'sort[nope]'],
      ['FIELD_NOT_ALLOWED', 'fields'],
    ]);
  });

  it('refuses null with ordering operators and in ranges', () => {
    expect(problemsOf('filter[id]=>null&between[id]=null,3')).to.deep.equal([
      ['INVALID_VALUE', 'filter[id]'],
      ['INVALID_VALUE', 'between[id]'],
    ]);
  });

  it("checks alias modifiers against the relation's own lists", () => {
    const v = validate('expand[notes]=n&n_sort[created_at]=desc&n_fields=title');
    expect(v.expansions[0]!.scope.output.map((c) => c.name)).to.deep.equal(['title']);
    expect(problemsOf('expand[notes]=n&n_sort[title]&n_fields=person_id')).to.deep.equal([
      ['FIELD_NOT_ALLOWED', 'n_sort[title]'],
      ['FIELD_NOT_ALLOWED', 'n_fields'],
    ]);
    expect(problemsOf('expand[friends]')).to.deep.equal([['UNKNOWN_RELATION', 'expand[friends]']]);
  });
});

describe('validate: paging and cost caps', () => {
  it('caps unpaginated responses at maxRows and marks them truncatable', () => {
    expect(validate('').paging).to.deep.equal({ kind: 'rows', limit: 1000, offset: 0, truncatable: true });
    expect(validate('limit=5&offset=2').paging).to.deep.equal({ kind: 'rows', limit: 5, offset: 2, truncatable: false });
    expect(validate('limit=5000').paging).to.deep.equal({ kind: 'rows', limit: 1000, offset: 0, truncatable: true });
  });

  it('refuses page sizes over the maximum, naming it', () => {
    expect(validate('page=2').paging).to.deep.equal({ kind: 'page', page: 2, pageSize: 15, total: { kind: 'exact' } });
    expect(validate('page=2&total=estimated').paging).to.deep.include({ total: { kind: 'estimated', estimateAbove: 100 } });
    expect(validate('page=2&total=none').paging).to.deep.include({ total: { kind: 'none' } });
    expect(validate('total=none').paging.kind, 'total alone paginates nothing').to.equal('rows');
    expect(problemsOf('page-size=101')).to.deep.equal([['PAGE_SIZE_TOO_LARGE', 'page-size']]);
  });

  it('refuses requests over the caps', () => {
    expect(problemsOf('in[id]=1,2,3,4,5,6').map((p) => p[0])).to.deep.equal(['LIMIT_EXCEEDED']);
    const many = Array.from({ length: 11 }, (_, i) => `filter[or id]=${i}`).join('&');
    expect(problemsOf(many).map((p) => p[0])).to.deep.equal(['LIMIT_EXCEEDED']);
  });
});

describe('validate: enums, arrays, JSON and float ranges', () => {
  const thing = (name: string) => things.columns.get(name)!;
  const coerce = (name: string, text: string) => coerceValue(thing(name), { kind: 'text', text, quoted: false });
  const thingProblems = (qs: string): [string, string | undefined][] => {
    try {
      validateQuery(describeQuery(parseQueryString(qs)), things, limits);
    } catch (error) {
      if (error instanceof QueryError) return error.problems.map((p) => [p.code, p.parameter]);
      throw error;
    }
    throw new Error(`expected ${qs} to be refused`);
  };

  it('accepts only enum labels, and names them', () => {
    expect(coerce('mood', 'ok')).to.deep.equal({ ok: true, operand: { kind: 'value', value: 'ok' } });
    expect(coerce('mood', 'OK')).to.deep.include({ ok: false, allowed: ['sad', 'ok', 'happy'] });
  });

  it('checks an array value as one element of the element type', () => {
    expect(coerce('counts', '9007199254740993')).to.deep.equal({ ok: true, operand: { kind: 'value', value: '9007199254740993' } });
    expect(coerce('counts', '9223372036854775808').ok).to.equal(false);
    expect(coerce('tags', '')).to.deep.equal({ ok: true, operand: { kind: 'value', value: '' } });
  });

  it('refuses ordering operators and between on arrays and JSON, before reading the value', () => {
    expect(thingProblems('filter[tags]=>a&between[counts]=1,2&filter[doc]=<=1&filter[mood]=>nope')).to.deep.equal([
      ['INVALID_VALUE', 'filter[tags]'],
      ['INVALID_VALUE', 'between[counts]'],
      ['INVALID_VALUE', 'filter[doc]'],
      ['INVALID_VALUE', 'filter[mood]'],
    ]);
  });

  it('accepts JSON that jsonb reads, and refuses what it cannot', () => {
    for (const text of ['{"a": [1, 2.5e3, "x"]}', 'null', '"\\ud83d\\ude00"', '1e131000', `${'['.repeat(1000)}${']'.repeat(1000)}`]) {
      expect(coerce('doc', text).ok, text).to.equal(true);
    }
    for (const text of [
      '{a: 1}',
      'done',
      '',
      '"\\u0000"',
      '"\\ud800"',
      '"\\udc00"',
      '["\\ud800", "\\udc00"]',
      '1e131073',
      '1e-16384',
      `${'['.repeat(1001)}${']'.repeat(1001)}`,
    ]) {
      expect(coerce('doc', text).ok, text).to.equal(false);
    }
  });

  it("keeps numerics within PostgreSQL's digit limits", () => {
    expect(coerceValue(people.columns.get('score')!, { kind: 'text', text: '9'.repeat(131072), quoted: false }).ok).to.equal(true);
    expect(coerceValue(people.columns.get('score')!, { kind: 'text', text: '9'.repeat(131073), quoted: false }).ok).to.equal(false);
    expect(coerceValue(people.columns.get('score')!, { kind: 'text', text: `0.${'1'.repeat(16384)}`, quoted: false }).ok).to.equal(false);
    expect(coerceValue(people.columns.get('score')!, { kind: 'text', text: `${'0'.repeat(140000)}1`, quoted: false }).ok).to.equal(true);
  });

  it('refuses reals that round to infinity or to zero', () => {
    for (const text of ['3.4028235e38', '1.4e-45', '-0', '0.0', '1e-45']) expect(coerce('ratio', text).ok, text).to.equal(true);
    for (const text of ['3.5e38', '1e-46', 'NaN', 'Infinity', '0x1', '1e', '.']) expect(coerce('ratio', text).ok, text).to.equal(false);
  });
});
