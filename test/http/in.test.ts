// in[...] (docs/query-language.md, "in"): lists, quoted items, null items, date-only items on
// timestamps, logical prefixes and list errors.

import { expect } from 'chai';
import { useApp } from '../support/app';
import { USER_FIELDS } from '../support/fixture';
import { expectProblem } from '../support/problems';

const enc = encodeURIComponent;

describe('in', function () {
  const h = useApp();

  describe('lists', function () {
    it('integers', async function () {
      expect(await h.userIds('in[id]=1,3,5')).to.deep.equal([1, 3, 5]);
    });

    it('a single item', async function () {
      expect(await h.userIds('in[id]=7')).to.deep.equal([7]);
    });

    it('items that match nothing are harmless', async function () {
      expect(await h.userIds('in[id]=1,999,2')).to.deep.equal([1, 2]);
    });

    it('text', async function () {
      expect(await h.userIds('in[status]=pending,banned')).to.deep.equal([5, 7, 16, 20, 22]);
    });

    it('numeric', async function () {
      expect(await h.userIds('in[score]=72.25,50')).to.deep.equal([2, 3, 11]);
    });

    it('boolean', async function () {
      expect(await h.userIds('in[active]=false,null')).to.deep.equal([3, 5, 7, 9, 12, 13, 16, 18, 20, 22]);
    });

    it('date', async function () {
      expect(await h.userIds('in[birthday]=1990-01-15,2000-02-29')).to.deep.equal([1, 4, 11]);
    });

    it('date-only items on a timestamp mean whole days', async function () {
      expect(await h.userIds('in[created_at]=2025-04-17,2025-04-18')).to.deep.equal([5, 6, 7, 8, 9]);
    });

    it('an exact timestamp item', async function () {
      expect(await h.userIds('in[created_at]=2025-04-17T01:19:49.123456Z,2025-04-18T00:00:00Z')).to.deep.equal([6, 9]);
    });
  });

  describe('quoted items', function () {
    it('a quoted item may contain a comma', async function () {
      expect(await h.userIds(`in[name]=${enc('"Smith, John",Bob Stone')}`)).to.deep.equal([2, 3]);
    });

    it('a quoted item may contain escaped quotes', async function () {
      expect(await h.userIds(`in[name]=${enc('"Jane \\"JJ\\" Doe",Niaj')}`)).to.deep.equal([4, 14]);
    });

    it('a quoted item may contain an escaped backslash', async function () {
      expect(await h.userIds(`in[name]=${enc('"Grace \\\\ Slash"')}`)).to.deep.equal([9]);
    });

    it('an unquoted item with an apostrophe', async function () {
      expect(await h.userIds(`in[name]=${enc("Dave O'Brien,Uma")}`)).to.deep.equal([6, 21]);
    });

    it('without quotes a comma splits the item', async function () {
      expect(await h.userIds(`in[name]=${enc('Smith, John')}`)).to.deep.equal([]);
      expect(await h.userIds(`in[name]=${enc('Smith,Uma')}`)).to.deep.equal([21]);
    });
  });

  describe('null items', function () {
    it('bare null matches NULL', async function () {
      expect(await h.userIds('in[status]=null,pending')).to.deep.equal([5, 10, 16, 22]);
    });

    it('"null" is the text null', async function () {
      expect(await h.userIds(`in[status]=${enc('"null"')}`)).to.deep.equal([12]);
      expect(await h.userIds(`in[status]=${enc('"null",null')}`)).to.deep.equal([10, 12]);
    });

    it('null in a numeric list', async function () {
      expect(await h.userIds('in[score]=null,0')).to.deep.equal([4, 7, 16]);
    });
  });

  describe('logical prefixes', function () {
    it('and restricts to records that also match the second list', async function () {
      expect(await h.userIds('in[status]=active&in[and role]=admin')).to.deep.equal([1, 6, 15]);
    });

    it('or adds records that match the second list', async function () {
      expect(await h.userIds('in[id]=1,2&in[or role]=editor')).to.deep.equal([1, 2, 5, 8, 13, 19, 20]);
    });

    it('and! excludes records matching the second list', async function () {
      expect(await h.userIds('in[status]=active&in[and! role]=viewer,admin')).to.deep.equal([2, 8, 19]);
    });

    it('or! adds records not matching the second list, NULLs included', async function () {
      expect(await h.userIds('in[id]=1,2&in[or! status]=active,inactive,pending')).to.deep.equal([1, 2, 7, 10, 12, 20]);
    });

    it('and! with null in the list excludes NULLs', async function () {
      expect(await h.userIds('in[id]=9,10,16,17&in[and! role]=null')).to.deep.equal([9, 17]);
    });

    it('a negated first clause', async function () {
      expect(await h.userIds('in[and! status]=active,inactive,pending,banned')).to.deep.equal([10, 12]);
    });

    it('prefixes are case-insensitive', async function () {
      expect(await h.userIds('in[status]=active&in[AND! role]=viewer,admin')).to.deep.equal([2, 8, 19]);
    });

    it('precedence inside the in group', async function () {
      // id in (1) OR (id in (2,3) AND role in (viewer)) = [1, 3]
      expect(await h.userIds('in[id]=1&in[or id]=2,3&in[and role]=viewer')).to.deep.equal([1, 3]);
    });
  });

  describe('errors', function () {
    it('an empty item is MALFORMED_PARAMETER', async function () {
      expectProblem(await h.get('/api/users?in[id]=1,,2'), { code: 'MALFORMED_PARAMETER', parameter: 'in[id]' });
      expectProblem(await h.get('/api/users?in[id]=1,'), { code: 'MALFORMED_PARAMETER', parameter: 'in[id]' });
      expectProblem(await h.get('/api/users?in[id]='), { code: 'MALFORMED_PARAMETER', parameter: 'in[id]' });
    });

    it('an unterminated quote is MALFORMED_PARAMETER', async function () {
      expectProblem(await h.get(`/api/users?in[name]=${enc('"Smith, John')}`), { code: 'MALFORMED_PARAMETER', parameter: 'in[name]' });
    });

    it('an item of the wrong type is INVALID_VALUE', async function () {
      expectProblem(await h.get('/api/users?in[id]=1,x'), { code: 'INVALID_VALUE', parameter: 'in[id]' });
      expectProblem(await h.get('/api/users?in[birthday]=1990-01-15,soon'), { code: 'INVALID_VALUE', parameter: 'in[birthday]' });
    });

    it('an unknown field is FIELD_NOT_ALLOWED', async function () {
      expectProblem(await h.get('/api/users?in[password_hash]=a,b'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'in[password_hash]',
        allowed: USER_FIELDS,
      });
    });

    it('an unknown logical prefix is MALFORMED_PARAMETER', async function () {
      expectProblem(await h.get('/api/users?in[id]=1&in[nor%20id]=2'), { code: 'MALFORMED_PARAMETER', parameter: 'in[nor id]' });
    });

    it('more items than the limit is LIMIT_EXCEEDED', async function () {
      const items = Array.from({ length: 501 }, (_, i) => String(i + 1)).join(',');
      expectProblem(await h.get(`/api/users?in[id]=${items}`), { code: 'LIMIT_EXCEEDED', parameter: 'in[id]', allowed: 500 });
    });

    it('exactly the limit is fine', async function () {
      const items = Array.from({ length: 500 }, (_, i) => String(i + 1)).join(',');
      expect(await h.userIds(`in[id]=${items}&in[and id]=22,23`)).to.deep.equal([22, 23]);
    });
  });
});
