// The validate stage's side of a sealed cursor (docs/query-language.md, "Cursors: cursor"): a cursor
// that does not open, one made for another sort, and one that opened but holds what its keys cannot
// hold (an array past six dimensions among them) are INVALID_CURSOR before any SQL is written, and the
// detail names no field, type or value. Array boundary values are read as PostgreSQL writes arrays.

import { expect } from 'chai';
import { QueryError } from '../../plugin/errors';
import type { CollectionCatalog } from '../../plugin/schema';
import { describeQuery, parseQueryString, type CursorToken } from '../../plugin/syntax';
import { isArrayLiteral } from '../../plugin/validate/array-literal';
import { validateQuery } from '../../plugin/validate';
import { limits, people, sealed, things } from './catalog-stub';

/** The details of the problems validating `qs` on `collection` reports, or [] when it validates. */
function details(collection: CollectionCatalog, qs: string): string[] {
  try {
    validateQuery(describeQuery(parseQueryString(qs)), collection, limits);
    return [];
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    return error.problems.map((p) => `${p.code} ${p.parameter ?? ''} ${p.detail}`);
  }
}

const UNOPENED =
  'INVALID_CURSOR cursor `cursor` cannot be opened: use a `next_cursor` or `prev_cursor` as given, or start again with `cursor=`';
const OTHER_SORT = 'INVALID_CURSOR cursor `cursor` was made for another sort: start again with `cursor=`';
const UNFIT = 'INVALID_CURSOR cursor `cursor` holds a value its sort key cannot hold: start again with `cursor=`';

describe('cursor validation', function () {
  const byTags = (at: string | null, collection = 'things'): string =>
    `sort[tags]&cursor=${sealed({ sort: ['tags:asc', 'id:asc'], direction: 'next', at: [at, '1'] }, collection)}`;

  it('opens the cursor for its own collection only', function () {
    expect(details(things, byTags('{a}'))).to.deep.equal([]);
    expect(details(things, byTags('{a}', 'people'))).to.deep.equal([UNOPENED]);
    const readable = Buffer.from('["next",["tags:asc","id:asc"],["{a}","1"]]').toString('base64url');
    expect(details(things, `sort[tags]&cursor=${readable}`)).to.deep.equal([UNOPENED]);
  });

  it('refuses a cursor of another sort without naming its fields', function () {
    const token: CursorToken = { sort: ['name:desc', 'id:asc'], direction: 'next', at: ['Ada', '3'] };
    expect(details(people, `sort[name]=desc&cursor=${sealed(token)}`)).to.deep.equal([]);
    for (const qs of [`sort[name]&cursor=${sealed(token)}`, `cursor=${sealed(token)}`, `sort[born]=desc&cursor=${sealed(token)}`]) {
      expect(details(people, qs), qs).to.deep.equal([OTHER_SORT]);
    }
  });

  it('refuses, before SQL, array values PostgreSQL would not read as an array (seven dimensions among them)', function () {
    for (const at of ['{{{{{{{a}}}}}}}', '{{a},b}', '{"a}', '[1:3]={1,2}', 'a', '{a}x']) {
      expect(details(things, byTags(at)), at).to.deep.equal([UNFIT]);
    }
    expect(details(things, byTags('{{{{{{a}}}}}}'))).to.deep.equal([]);
    expect(details(things, byTags(null))).to.deep.equal([]);
  });

  it('refuses values that do not fit, naming no field, type or value', function () {
    const token = (at: (string | null)[]): string => sealed({ sort: ['born:asc', 'id:asc'], direction: 'prev', at });
    for (const at of [['1992-13-01', '1'], ['1992-01-01', 'x'], ['1992-01-01', null], ['1992-01-01'], ['1992-01-01', '1', '2']]) {
      const found = details(people, `sort[born]&cursor=${token(at)}`);
      expect(found, JSON.stringify(at)).to.deep.equal([UNFIT]);
    }
  });
});

describe('array literals as PostgreSQL writes them', function () {
  it('takes what array_out writes', function () {
    for (const text of [
      '{}',
      '{a}',
      '{"a b",NULL,"","NULL","x\\"y","back\\\\slash","{",é,"tab\t",nb\u00a0sp}',
      '{{1,2},{3,4}}',
      '[0:1][2:3]={{1,2},{3,4}}',
      '[-5:-4]={7,8}',
      '{"2025-01-01 00:00:00+00"}',
      '{{{{{{a}}}}}}',
      '{{"a,b"},{"c}d"}}',
    ]) {
      expect(isArrayLiteral(text), text).to.equal(true);
    }
  });

  it('refuses what PostgreSQL would not read, or would read only past its limits', function () {
    for (const text of [
      '',
      '{',
      '}',
      '{a',
      '{a}}',
      '{a}x',
      '{a,}',
      '{,a}',
      '{a b}',
      '{"a}',
      '{"a\\"}',
      '{{}}',
      '{{1,2},{3}}',
      '{{1},2}',
      '{1,{2}}',
      '{{{{{{{a}}}}}}}',
      '[1:3]={1,2}',
      '[0:1]{1,2}',
      '[1:2][1:1]={1,2}',
      '[2:1]={}',
      '[0:99999999999]={1}',
      ' {a}',
    ]) {
      expect(isArrayLiteral(text), text).to.equal(false);
    }
  });
});
