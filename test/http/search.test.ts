// search[...] (docs/query-language.md, "search"): the wildcard table, case-insensitivity, literal
// % _ \ and inner *, several fields (ANY), several parameters (AND), non-text columns and errors.

import { expect } from 'chai';
import { idsOf, useApp } from '../support/app';
import { USER_FIELDS } from '../support/fixture';
import { expectProblem } from '../support/problems';

const enc = encodeURIComponent;

describe('search', function () {
  const h = useApp();

  describe('wildcards (the documented table)', function () {
    it('term: anywhere in the value', async function () {
      expect(await h.userIds('search[name]=an')).to.deep.equal([4, 8, 11]);
    });

    it('*term*: anywhere in the value', async function () {
      expect(await h.userIds('search[name]=*an*')).to.deep.equal([4, 8, 11]);
    });

    it('term*: at the beginning', async function () {
      expect(await h.userIds('search[name]=a*')).to.deep.equal([1]);
    });

    it('*term: at the end', async function () {
      expect(await h.userIds('search[name]=*n')).to.deep.equal([1, 3, 6, 17]);
    });
  });

  describe('case-insensitivity', function () {
    it('upper-case term finds lower-case values and back', async function () {
      expect(await h.userIds('search[name]=SMITH')).to.deep.equal([3]);
      expect(await h.userIds('search[name]=CAROL')).to.deep.equal([5]);
      expect(await h.userIds('search[email]=example.com*')).to.deep.equal([]);
      expect(await h.userIds('search[email]=carol@EXAMPLE*')).to.deep.equal([5]);
    });

    it('anchored patterns are case-insensitive too', async function () {
      expect(await h.userIds('search[name]=*N')).to.deep.equal([1, 3, 6, 17]);
      expect(await h.userIds('search[name]=A*')).to.deep.equal([1]);
    });
  });

  describe('escaping', function () {
    it('% is literal', async function () {
      expect(await h.userIds(`search[name]=${enc('%')}`)).to.deep.equal([7]);
      expect(await h.userIds(`search[name]=${enc('100%')}`)).to.deep.equal([7]);
      expect(await h.userIds(`search[name]=${enc('e%r')}`)).to.deep.equal([]);
    });

    it('_ is literal', async function () {
      expect(await h.userIds('search[name]=_')).to.deep.equal([8]);
      expect(await h.userIds('search[email]=_')).to.deep.equal([7]);
    });

    it('\\ is literal', async function () {
      expect(await h.userIds(`search[name]=${enc('\\')}`)).to.deep.equal([9]);
      expect(await h.userIds(`search[name]=${enc('e \\ s')}`)).to.deep.equal([9]);
    });

    it('a * inside the term is literal', async function () {
      expect(await h.userIds(`search[name]=${enc('di *St')}`)).to.deep.equal([10]);
      expect(await h.userIds(`search[name]=${enc('d*s')}`)).to.deep.equal([]);
    });

    it('outer * are wildcards around a term with inner *', async function () {
      expect(await h.userIds(`search[name]=${enc('*Star*')}`)).to.deep.equal([10]);
      expect(await h.userIds(`search[name]=${enc('*i *s*')}`)).to.deep.equal([10]);
    });

    it('quotes in the term are literal', async function () {
      expect(await h.userIds(`search[name]=${enc('"JJ"')}`)).to.deep.equal([4]);
      expect(await h.userIds(`search[name]=${enc("O'B")}`)).to.deep.equal([6]);
    });
  });

  describe('several fields: a record matches when ANY field matches', function () {
    it('match in the second field', async function () {
      expect(await h.userIds('search[name,email]=example.net')).to.deep.equal([11]);
    });

    it('match in either field', async function () {
      expect(await h.userIds('search[name,email]=S*')).to.deep.equal([3, 19]);
    });

    it('three fields', async function () {
      expect(await h.userIds('search[name,email,status]=ar')).to.deep.equal([1, 5, 10]);
    });
  });

  describe('several search parameters are ANDed', function () {
    it('two fields', async function () {
      expect(await h.userIds('search[name]=o&search[email]=*.com')).to.deep.equal([2, 3, 4, 5, 6, 15, 22]);
    });

    it('the same field twice', async function () {
      expect(await h.userIds('search[name]=a&search[name]=n')).to.deep.equal([1, 4, 5, 6, 8, 11, 14]);
    });
  });

  describe('non-text columns match on their text form', function () {
    it('integer', async function () {
      expect(await h.userIds('search[id]=1*')).to.deep.equal([1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    });

    it('numeric', async function () {
      expect(await h.userIds('search[score]=.25')).to.deep.equal([2, 11]);
    });

    it('date', async function () {
      expect(await h.userIds('search[birthday]=1990')).to.deep.equal([1, 11]);
    });
  });

  describe('search on another collection uses its searchable list', function () {
    it('posts by title', async function () {
      expect(idsOf(await h.rows('/api/posts?search[title]=hello'))).to.deep.equal([1, 8]);
    });

    it('a projectable field that is not searchable is FIELD_NOT_ALLOWED', async function () {
      expectProblem(await h.get('/api/posts?search[status]=pub'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'search[status]',
        allowed: ['title'],
      });
    });
  });

  describe('errors', function () {
    for (const term of ['', '*', '**']) {
      it(`an empty term "${term}" is MALFORMED_PARAMETER`, async function () {
        expectProblem(await h.get(`/api/users?search[name]=${term}`), { code: 'MALFORMED_PARAMETER', parameter: 'search[name]' });
      });
    }

    it('a hidden column is FIELD_NOT_ALLOWED, also among several fields', async function () {
      expectProblem(await h.get('/api/users?search[password_hash]=hash'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'search[password_hash]',
        allowed: USER_FIELDS,
      });
      expectProblem(await h.get('/api/users?search[name,password_hash]=hash'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'search[name,password_hash]',
        allowed: USER_FIELDS,
      });
    });

    it('empty brackets or an empty field in the list is MALFORMED_PARAMETER', async function () {
      expectProblem(await h.get('/api/users?search[]=x'), { code: 'MALFORMED_PARAMETER', parameter: 'search[]' });
      expectProblem(await h.get('/api/users?search[name,]=x'), { code: 'MALFORMED_PARAMETER', parameter: 'search[name,]' });
    });
  });
});
