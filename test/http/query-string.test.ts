// Reading the query string (docs/query-language.md, "How the query string is read"): clause order
// survives, `+` and %20 are spaces, keys are percent-decoded and case-sensitive, keys that are not
// ours are ignored, malformed keys are 400s, repeated clause keys add clauses and repeated
// single-valued keys are DUPLICATE_PARAMETER.

import { expect } from 'chai';
import { range, useApp } from '../support/app';
import { USER_FIELDS } from '../support/fixture';
import { expectProblem } from '../support/problems';

describe('query string', function () {
  const h = useApp();

  describe('order survives', function () {
    it('the same clauses in another order mean something else', async function () {
      expect(await h.userIds('filter[id]=1&filter[and status]=inactive&filter[or id]=2')).to.deep.equal([2]);
      expect(await h.userIds('filter[id]=1&filter[or id]=2&filter[and status]=inactive')).to.deep.equal([1]);
    });

    it('clauses of other families in between do not break a group', async function () {
      expect(await h.userIds('filter[id]=1&in[id]=1,2,3&filter[or id]=2&between[id]=2,3')).to.deep.equal([2]);
    });

    it('sort keys keep their order', async function () {
      expect(await h.userIds('sort[active]=desc&sort[id]=desc&filter[id]=<6')).to.deep.equal([4, 2, 1, 5, 3]);
      expect(await h.userIds('sort[id]=desc&sort[active]=desc&filter[id]=<6')).to.deep.equal([5, 4, 3, 2, 1]);
    });
  });

  describe('decoding', function () {
    it('+ in a value is a space', async function () {
      expect(await h.userIds('filter[name]=Bob+Stone')).to.deep.equal([2]);
      expect(await h.userIds('in[name]=Bob+Stone,Uma')).to.deep.equal([2, 21]);
    });

    it('%20 in a value is a space', async function () {
      expect(await h.userIds('filter[name]=Bob%20Stone')).to.deep.equal([2]);
    });

    it('%2B is a literal plus', async function () {
      expect(await h.userIds('filter[name]=Bob%2BStone&filter[or id]=3')).to.deep.equal([3]);
    });

    it('+ and %20 in a key are spaces', async function () {
      expect(await h.userIds('filter[id]=1&filter[or+id]=3')).to.deep.equal([1, 3]);
      expect(await h.userIds('filter[id]=1&filter[or%20id]=4')).to.deep.equal([1, 4]);
    });

    it('percent-encoded brackets in a key', async function () {
      expect(await h.userIds('filter%5Bid%5D=5')).to.deep.equal([5]);
      expect(await h.userIds('sort%5Bid%5D=desc&filter%5Bid%5D=%3C3')).to.deep.equal([2, 1]);
    });

    it('percent-encoded operators, quotes and percent signs in values', async function () {
      expect(await h.userIds('filter[id]=%3E%3D22')).to.deep.equal([22, 23]);
      expect(await h.userIds('filter[name]=%22Jane%20%5C%22JJ%5C%22%20Doe%22')).to.deep.equal([4]);
      expect(await h.userIds('search[name]=100%25')).to.deep.equal([7]);
    });

    it('an encoded & and = stay inside the value', async function () {
      expect(await h.userIds('filter[name]=a%26filter[id]%3D1&filter[or id]=2')).to.deep.equal([2]);
    });

    it('a value holding = after the operator', async function () {
      expect(await h.userIds('filter[status]==active&filter[and id]=<3')).to.deep.equal([1, 2]);
    });

    it('empty pairs are skipped', async function () {
      expect(await h.userIds('&&filter[id]=1&&')).to.deep.equal([1]);
    });

    it('an empty query string', async function () {
      expect(await h.userIds('')).to.deep.equal(range(1, 23));
    });
  });

  describe('keys that are not ours are ignored', function () {
    it('cache busters, tracking and other keys', async function () {
      const rows = await h.rows('/api/users?_=1700000&utm_source=news&callback=f&foo[bar]=1&x_y=2&q=Alice');
      expect(rows).to.have.length(23);
      for (const row of rows) expect(Object.keys(row)).to.deep.equal(USER_FIELDS);
    });

    it('keys are case-sensitive: Filter, SORT and FIELDS are not ours', async function () {
      const rows = await h.rows('/api/users?Filter[id]=1&SORT[id]=desc&FIELDS=id&Page=2');
      expect(rows).to.have.length(23);
      expect(rows[0]?.id).to.equal(1);
      expect(Object.keys(rows[0] ?? {})).to.deep.equal(USER_FIELDS);
    });

    it('ignored keys next to ours', async function () {
      expect(await h.userIds('utm_campaign=x&filter[id]=7&_=1')).to.deep.equal([7]);
    });
  });

  describe('malformed keys', function () {
    const keys: [string, string][] = [
      ['filter[]=1', 'filter[]'],
      ['filter[xor%20id]=1', 'filter[xor id]'],
      ['filter[and%20%20id]=1', 'filter[and  id]'],
      ['filter[%20id]=1', 'filter[ id]'],
      ['filter[id=1', 'filter[id'],
      ['filter=1', 'filter'],
      ['in=1,2', 'in'],
      ['between[]=1,2', 'between[]'],
      ['search[]=a', 'search[]'],
      ['sort=name', 'sort'],
      ['sort[]', 'sort[]'],
      ['fields[]=id', 'fields[]'],
      ['expand=posts', 'expand'],
    ];
    for (const [query, parameter] of keys) {
      it(`${query} is MALFORMED_PARAMETER naming ${parameter}`, async function () {
        expectProblem(await h.get(`/api/users?${query}`), { code: 'MALFORMED_PARAMETER', parameter });
      });
    }
  });

  describe('keys that cannot be percent-decoded', function () {
    // Ignoring one of these would answer as if its condition were absent: every record.
    const refused: [string, string][] = [
      ['filter%5Bname%E0%5D=Kate', 'filter%5Bname%E0%5D'],
      ['filter%5bname%e0%5d=Kate', 'filter%5bname%e0%5d'],
      ['filter[name%E0]=Kate', 'filter[name%E0]'],
      ['filter%5Bor%20name%C3%28%5D=Kate', 'filter%5Bor%20name%C3%28%5D'],
      ['in%5Bid%FF%5D=1', 'in%5Bid%FF%5D'],
      ['p%E0_filter%5Btitle%5D=x', 'p%E0_filter%5Btitle%5D'],
    ];
    for (const [query, parameter] of refused) {
      it(`${query} is MALFORMED_PARAMETER naming ${parameter}`, async function () {
        expectProblem(await h.get(`/api/users?${query}&filter[id]=1`), { code: 'MALFORMED_PARAMETER', parameter });
      });
    }

    it('one that is not ours, and has no encoded bracket, is ignored like any foreign key', async function () {
      expect(await h.userIds('utm%E0=1&x[%FF]=2&filter[id]=7')).to.deep.equal([7]);
    });
  });

  describe('repeated keys', function () {
    it('filter, in, between and search add one clause per occurrence', async function () {
      expect(await h.userIds('filter[id]=1&filter[or id]=2&filter[or id]=3')).to.deep.equal([1, 2, 3]);
      expect(await h.userIds('in[id]=1&in[or id]=2&in[or id]=3')).to.deep.equal([1, 2, 3]);
      expect(await h.userIds('between[id]=1,2&between[or id]=5,5&between[or id]=9,9')).to.deep.equal([1, 2, 5, 9]);
      expect(await h.userIds('search[name]=a&search[name]=n')).to.deep.equal([1, 4, 5, 6, 8, 11, 14]);
    });

    it('the same filter key twice with and: both apply', async function () {
      expect(await h.userIds('filter[id]=%3E3&filter[and id]=%3C8&filter[and id]=%3C6')).to.deep.equal([4, 5]);
    });

    const single: [string, string][] = [
      ['fields=id&fields=name', 'fields'],
      ['fields!=id&fields!=name', 'fields!'],
      ['sort[id]&sort[id]=desc', 'sort[id]'],
      ['expand[posts]&expand[posts]', 'expand[posts]'],
      ['page=1&page=1', 'page'],
      ['per-page=5&per-page=6', 'per-page'],
      ['page-size=5&page-size=5', 'page-size'],
      ['limit=1&limit=2', 'limit'],
      ['offset=1&offset=1', 'offset'],
      ['expand[posts]=p&p_fields=id&p_fields=title', 'p_fields'],
      ['expand[posts]=p&p_sort[id]&p_sort[id]', 'p_sort[id]'],
    ];
    for (const [query, parameter] of single) {
      it(`${query} is DUPLICATE_PARAMETER naming ${parameter}`, async function () {
        expectProblem(await h.get(`/api/users?${query}`), { code: 'DUPLICATE_PARAMETER', parameter });
      });
    }
  });
});
