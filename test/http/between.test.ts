// between[...]: inclusive ranges on integers, numerics, dates and timestamps (whole UTC days for
// date-only bounds), logical prefixes and bound errors (docs/query-language.md, "between").

import { expect } from 'chai';
import { useApp } from '../support/app';
import { expectProblem } from '../support/problems';

const enc = encodeURIComponent;

describe('between', function () {
  const h = useApp();

  describe('ranges', function () {
    it('integers, both bounds inclusive', async function () {
      expect(await h.userIds('between[id]=3,7')).to.deep.equal([3, 4, 5, 6, 7]);
    });

    it('equal bounds', async function () {
      expect(await h.userIds('between[id]=4,4')).to.deep.equal([4]);
    });

    it('numeric', async function () {
      expect(await h.userIds('between[score]=50,72.25')).to.deep.equal([2, 3, 6, 11, 14, 17, 21, 22]);
    });

    it('date column', async function () {
      expect(await h.userIds('between[birthday]=1990-01-01,1992-12-31')).to.deep.equal([1, 6, 11, 17]);
    });

    it('date-only bounds on a timestamp include every instant of the last day', async function () {
      expect(await h.userIds('between[created_at]=2025-04-01,2025-04-17')).to.deep.equal([
        1, 2, 3, 4, 5, 6, 7, 8, 15, 16, 17, 18, 19, 20, 21, 22, 23,
      ]);
    });

    it('one whole day', async function () {
      expect(await h.userIds('between[created_at]=2025-04-17,2025-04-17')).to.deep.equal([5, 6, 7, 8]);
    });

    it('exact timestamp bounds', async function () {
      expect(await h.userIds(`between[created_at]=${enc('2025-04-17T01:00:00Z,2025-04-17T12:00:00.5Z')}`)).to.deep.equal([6, 7]);
    });

    it('text', async function () {
      expect(await h.userIds('between[email]=t,v')).to.deep.equal([20, 21]);
    });

    it('quoted bounds', async function () {
      expect(await h.userIds(`between[name]=${enc('"Smith, John","Smith, John"')}`)).to.deep.equal([3]);
    });
  });

  describe('logical prefixes', function () {
    it('and: in both ranges', async function () {
      expect(await h.userIds('between[id]=3,7&between[and id]=5,10')).to.deep.equal([5, 6, 7]);
    });

    it('or: in either range', async function () {
      expect(await h.userIds('between[id]=1,3&between[or id]=20,30')).to.deep.equal([1, 2, 3, 20, 21, 22, 23]);
    });

    it('and!: the second range is excluded', async function () {
      expect(await h.userIds('between[id]=1,10&between[and! id]=3,7')).to.deep.equal([1, 2, 8, 9, 10]);
    });

    it('or!: first range or outside the second', async function () {
      expect(await h.userIds('between[id]=1,3&between[or! id]=2,22')).to.deep.equal([1, 2, 3, 23]);
    });

    it('and! keeps records whose field is NULL', async function () {
      expect(await h.userIds('between[id]=1,10&between[and! birthday]=1990-01-01,1999-12-31')).to.deep.equal([2, 3, 4, 5, 7, 9, 10]);
    });

    it('or on another field with date-only bounds (spec: between[or created_at])', async function () {
      expect(await h.userIds('between[created_at]=2025-04-01,2025-04-02&between[or created_at]=2025-04-25,2025-04-26')).to.deep.equal([
        1, 11, 12, 15,
      ]);
    });

    it('a negated first clause', async function () {
      expect(await h.userIds('between[or! id]=1,20')).to.deep.equal([21, 22, 23]);
    });

    it('precedence inside the between group', async function () {
      // [1,2] OR ([10,20] AND [15,30]) = 1, 2, 15..20
      expect(await h.userIds('between[id]=1,2&between[or id]=10,20&between[and id]=15,30')).to.deep.equal([1, 2, 15, 16, 17, 18, 19, 20]);
    });
  });

  describe('errors', function () {
    for (const value of ['3', '1,2,3', '', ',3', '3,']) {
      it(`between[id]=${value} is MALFORMED_PARAMETER`, async function () {
        expectProblem(await h.get(`/api/users?between[id]=${value}`), { code: 'MALFORMED_PARAMETER', parameter: 'between[id]' });
      });
    }

    it('a bound of the wrong type is INVALID_VALUE', async function () {
      expectProblem(await h.get('/api/users?between[id]=a,3'), { code: 'INVALID_VALUE', parameter: 'between[id]' });
      expectProblem(await h.get('/api/users?between[created_at]=2025-04-01,soon'), {
        code: 'INVALID_VALUE',
        parameter: 'between[created_at]',
      });
    });

    it('null as a bound is INVALID_VALUE', async function () {
      expectProblem(await h.get('/api/users?between[id]=null,3'), { code: 'INVALID_VALUE', parameter: 'between[id]' });
    });

    it('a hidden column is FIELD_NOT_ALLOWED', async function () {
      expectProblem(await h.get('/api/users?between[password_hash]=a,z'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'between[password_hash]',
      });
    });
  });
});
