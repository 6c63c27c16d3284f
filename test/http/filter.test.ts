// filter[...]: every operator, every logical prefix, precedence
// (docs/query-language.md, "Logical prefixes and how clauses group"), NULL semantics
// (docs/query-language.md, "Negation includes missing values"), date-only values on timestamps and
// each value type.

import { expect } from 'chai';
import { allUsersExcept, useApp } from '../support/app';
import { USER_FIELDS, POST_FIELDS } from '../support/fixture';
import { expectProblem } from '../support/problems';

const enc = encodeURIComponent;

const ACTIVE = [1, 2, 4, 6, 8, 11, 14, 15, 17, 19, 21, 23];
const NOT_ACTIVE = [3, 5, 7, 9, 10, 12, 13, 16, 18, 20, 22];

describe('filter', function () {
  const h = useApp();

  describe('operators on an integer column', function () {
    const cases: [string, number[]][] = [
      ['5', [5]],
      ['=5', [5]],
      ['>20', [21, 22, 23]],
      ['>=21', [21, 22, 23]],
      ['<3', [1, 2]],
      ['<=2', [1, 2]],
      ['<>2', allUsersExcept(2)],
    ];
    for (const [value, ids] of cases) {
      it(`filter[id]=${value}`, async function () {
        expect(await h.userIds(`filter[id]=${enc(value)}`)).to.deep.equal(ids);
      });
    }
  });

  describe('text values', function () {
    it('= is case-sensitive', async function () {
      expect(await h.userIds('filter[email]=carol@example.com')).to.deep.equal([]);
      expect(await h.userIds('filter[email]=CAROL@Example.COM')).to.deep.equal([5]);
    });

    it('plain text equality', async function () {
      expect(await h.userIds('filter[status]=pending')).to.deep.equal([5, 16, 22]);
    });

    it('> on text', async function () {
      expect(await h.userIds('filter[email]=>v')).to.deep.equal([22, 23]);
    });

    it('<> on text includes NULLs', async function () {
      expect(await h.userIds('filter[status]=<>active')).to.deep.equal(NOT_ACTIVE);
    });

    it('a value containing a comma needs no quoting', async function () {
      expect(await h.userIds(`filter[name]=${enc('Smith, John')}`)).to.deep.equal([3]);
    });

    it('a double-quoted value is unquoted, with backslash escapes', async function () {
      expect(await h.userIds(`filter[name]=${enc('"Jane \\"JJ\\" Doe"')}`)).to.deep.equal([4]);
      expect(await h.userIds(`filter[name]=${enc('"Grace \\\\ Slash"')}`)).to.deep.equal([9]);
    });

    it('quotes inside an unquoted value are literal', async function () {
      expect(await h.userIds(`filter[name]=${enc('Jane "JJ" Doe')}`)).to.deep.equal([4]);
      expect(await h.userIds(`filter[name]=${enc("Dave O'Brien")}`)).to.deep.equal([6]);
      expect(await h.userIds(`filter[name]=${enc('Grace \\ Slash')}`)).to.deep.equal([9]);
    });

    it('an operator character after the start of the value is literal', async function () {
      expect(await h.userIds(`filter[name]=${enc('Olivia >x')}`)).to.deep.equal([15]);
      expect(await h.userIds(`filter[name]=${enc('"Olivia >x"')}`)).to.deep.equal([15]);
    });

    it('a quoted value starting with an operator compares as text', async function () {
      // ">x" is the text >x, not "greater than x": no name equals it.
      expect(await h.userIds(`filter[name]=${enc('">x"')}`)).to.deep.equal([]);
      expect(await h.userIds(`filter[name]=${enc('"Olivia >x"')}&filter[or name]=${enc('">x"')}`)).to.deep.equal([15]);
    });

    it('an empty value compares with the empty string', async function () {
      expect(await h.userIds('filter[status]=&filter[or id]=1')).to.deep.equal([1]);
    });

    it('an empty value is INVALID_VALUE on an integer column', async function () {
      expectProblem(await h.get('/api/users?filter[id]='), { code: 'INVALID_VALUE', parameter: 'filter[id]' });
    });

    it('a NUL character in text is INVALID_VALUE', async function () {
      expectProblem(await h.get('/api/users?filter[name]=a%00b'), { code: 'INVALID_VALUE', parameter: 'filter[name]' });
    });
  });

  describe('NULL', function () {
    it('bare null with = is IS NULL', async function () {
      expect(await h.userIds('filter[status]=null')).to.deep.equal([10]);
      expect(await h.userIds('filter[status]==null')).to.deep.equal([10]);
    });

    it('bare null with <> is IS NOT NULL', async function () {
      expect(await h.userIds('filter[status]=<>null')).to.deep.equal(allUsersExcept(10));
    });

    it('"null" in quotes is the text null', async function () {
      expect(await h.userIds(`filter[status]=${enc('"null"')}`)).to.deep.equal([12]);
    });

    it('NULL in capitals is the text NULL, not a null', async function () {
      expect(await h.userIds('filter[status]=NULL&filter[or id]=1')).to.deep.equal([1]);
    });

    it('null works on every type', async function () {
      expect(await h.userIds('filter[score]=null')).to.deep.equal([4, 16]);
      expect(await h.userIds('filter[active]=null')).to.deep.equal([9, 16]);
      expect(await h.userIds('filter[birthday]=null')).to.deep.equal([3, 7, 12, 14, 16, 20, 22]);
      expect(await h.userIds('filter[email_verified_at]=<>null')).to.deep.equal([1, 3, 5, 8, 11, 15]);
    });

    for (const op of ['>', '>=', '<', '<=']) {
      it(`null with ${op} is INVALID_VALUE`, async function () {
        expectProblem(await h.get(`/api/users?filter[status]=${enc(op)}null`), {
          code: 'INVALID_VALUE',
          parameter: 'filter[status]',
        });
      });
    }
  });

  describe('numeric values (exact)', function () {
    it('equality ignores trailing zeros', async function () {
      expect(await h.userIds('filter[score]=72.25')).to.deep.equal([2, 11]);
      expect(await h.userIds('filter[score]=72.250')).to.deep.equal([2, 11]);
    });

    it('ranges', async function () {
      expect(await h.userIds(`filter[score]=${enc('>=95.5')}`)).to.deep.equal([1, 8, 15]);
      expect(await h.userIds(`filter[score]=${enc('<10')}`)).to.deep.equal([7, 20]);
      expect(await h.userIds(`filter[score]=${enc('<-0.5')}&filter[or id]=2`)).to.deep.equal([2]);
    });

    for (const bad of ['abc', '1e3', '1.2.3', '--1']) {
      it(`${bad} is INVALID_VALUE`, async function () {
        expectProblem(await h.get(`/api/users?filter[score]=${enc(bad)}`), { code: 'INVALID_VALUE', parameter: 'filter[score]' });
      });
    }
  });

  describe('integer values', function () {
    it('bigint values keep full precision', async function () {
      expect(await h.userIds('filter[visits]=9007199254740993')).to.deep.equal([6]);
      expect(await h.userIds(`filter[visits]=${enc('>9007199254740992')}`)).to.deep.equal([6]);
      expect(await h.userIds(`filter[visits]=${enc('>100')}`)).to.deep.equal([1, 6]);
    });

    it('a negative integer is accepted', async function () {
      expect(await h.userIds(`filter[id]=${enc('>-2147483648')}&filter[and id]=${enc('<2')}`)).to.deep.equal([1]);
    });

    const bad: [string, string][] = [
      ['id', 'abc'],
      ['id', '1.5'],
      ['id', '2147483648'],
      ['id', '5x'],
      ['visits', '9223372036854775808'],
    ];
    for (const [field, value] of bad) {
      it(`filter[${field}]=${value} is INVALID_VALUE`, async function () {
        expectProblem(await h.get(`/api/users?filter[${field}]=${value}`), {
          code: 'INVALID_VALUE',
          parameter: `filter[${field}]`,
        });
      });
    }
  });

  describe('boolean values', function () {
    it('true / FALSE (case-insensitive)', async function () {
      expect(await h.userIds('filter[active]=true')).to.deep.equal([1, 2, 4, 6, 8, 10, 11, 14, 15, 17, 19, 21, 23]);
      expect(await h.userIds('filter[active]=FALSE')).to.deep.equal([3, 5, 7, 12, 13, 18, 20, 22]);
    });

    it('<>true includes false and NULL', async function () {
      expect(await h.userIds('filter[active]=<>true')).to.deep.equal([3, 5, 7, 9, 12, 13, 16, 18, 20, 22]);
    });

    for (const bad of ['yes', '1', 't', '']) {
      it(`"${bad}" is INVALID_VALUE`, async function () {
        expectProblem(await h.get(`/api/users?filter[active]=${bad}`), { code: 'INVALID_VALUE', parameter: 'filter[active]' });
      });
    }
  });

  describe('date values', function () {
    it('equality and ranges on a date column', async function () {
      expect(await h.userIds('filter[birthday]=1990-01-15')).to.deep.equal([1, 11]);
      expect(await h.userIds(`filter[birthday]=${enc('>2000-01-01')}`)).to.deep.equal([4, 10]);
      expect(await h.userIds(`filter[birthday]=${enc('<1980-01-01')}`)).to.deep.equal([5, 13]);
    });

    for (const bad of ['2025-13-01', '2025-02-30', '1990-1-15', 'yesterday', '1990-01-15T00:00:00Z']) {
      it(`${bad} is INVALID_VALUE on a date column`, async function () {
        expectProblem(await h.get(`/api/users?filter[birthday]=${enc(bad)}`), {
          code: 'INVALID_VALUE',
          parameter: 'filter[birthday]',
        });
      });
    }
  });

  describe('timestamps', function () {
    it('matches a microsecond instant exactly', async function () {
      expect(await h.userIds('filter[created_at]=2025-04-17T01:19:49.123456Z')).to.deep.equal([6]);
      expect(await h.userIds('filter[email_verified_at]=2025-04-17T01:19:49.123456Z')).to.deep.equal([1]);
      expect(await h.userIds('filter[created_at]=2025-04-17T01:19:49.123Z')).to.deep.equal([]);
    });

    it('keeps microseconds in range bounds', async function () {
      const q = `filter[created_at]=${enc('<2025-04-17T01:19:49.123457Z')}&filter[and created_at]=${enc('>2025-04-17T01:19:49.123455Z')}`;
      expect(await h.userIds(q)).to.deep.equal([6]);
      expect(await h.userIds(`filter[created_at]=${enc('>2025-04-17T23:59:59.999998Z')}`)).to.deep.equal([8, 9, 10, 11, 12, 13]);
    });

    it('a space instead of T and no zone means UTC', async function () {
      expect(await h.userIds(`filter[created_at]=${enc('2025-04-17 01:19:49.123456')}`)).to.deep.equal([6]);
    });

    it('an explicit offset is honoured', async function () {
      expect(await h.userIds(`filter[created_at]=${enc('2025-04-17T03:19:49.123456+02:00')}`)).to.deep.equal([6]);
      expect(await h.userIds(`filter[created_at]=${enc('2025-04-16T20:00:00-04:00')}`)).to.deep.equal([5]);
    });

    it('minutes without seconds', async function () {
      expect(await h.userIds(`filter[created_at]=${enc('2025-04-17T12:00Z')}`)).to.deep.equal([]);
      expect(await h.userIds(`filter[created_at]=${enc('2025-04-20T10:00Z')}`)).to.deep.equal([10]);
    });

    for (const bad of ['2025-04-17T25:00:00Z', 'yesterday', '17/04/2025', '2025-04-17T01:19:49.1234567Z']) {
      it(`${bad} is INVALID_VALUE on a timestamp`, async function () {
        expectProblem(await h.get(`/api/users?filter[created_at]=${enc(bad)}`), {
          code: 'INVALID_VALUE',
          parameter: 'filter[created_at]',
        });
      });
    }
  });

  describe('date-only values on a timestamp mean whole UTC days', function () {
    const cases: [string, number[]][] = [
      ['2025-04-17', [5, 6, 7, 8]],
      ['=2025-04-17', [5, 6, 7, 8]],
      ['>2025-04-17', [9, 10, 11, 12, 13]],
      ['>=2025-04-17', [5, 6, 7, 8, 9, 10, 11, 12, 13]],
      ['<2025-04-17', [1, 2, 3, 4, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23]],
      ['<=2025-04-17', [1, 2, 3, 4, 5, 6, 7, 8, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23]],
      ['<>2025-04-17', allUsersExcept(5, 6, 7, 8)],
    ];
    for (const [value, ids] of cases) {
      it(`filter[created_at]=${value}`, async function () {
        expect(await h.userIds(`filter[created_at]=${enc(value)}`)).to.deep.equal(ids);
      });
    }
  });

  describe('logical prefixes', function () {
    it('and', async function () {
      expect(await h.userIds(`filter[id]=${enc('<4')}&filter[and status]=active`)).to.deep.equal([1, 2]);
    });

    it('or', async function () {
      expect(await h.userIds(`filter[id]=${enc('<4')}&filter[or status]=pending`)).to.deep.equal([1, 2, 3, 5, 16, 22]);
    });

    it('and! = AND NOT', async function () {
      expect(await h.userIds(`filter[id]=${enc('<5')}&filter[and! status]=active`)).to.deep.equal([3]);
    });

    it('or! = OR NOT, and NOT includes NULLs', async function () {
      expect(await h.userIds(`filter[id]=${enc('<3')}&filter[or! status]=active`)).to.deep.equal([
        1, 2, 3, 5, 7, 9, 10, 12, 13, 16, 18, 20, 22,
      ]);
    });

    it('and! on a boolean includes rows where it is NULL', async function () {
      expect(await h.userIds(`filter[id]=${enc('<17')}&filter[and! active]=true`)).to.deep.equal([3, 5, 7, 9, 12, 13, 16]);
    });

    it('prefixes are case-insensitive', async function () {
      expect(await h.userIds(`filter[id]=${enc('<4')}&filter[AND status]=active`)).to.deep.equal([1, 2]);
      expect(await h.userIds(`filter[id]=${enc('<3')}&filter[Or! status]=active`)).to.deep.equal([
        1, 2, 3, 5, 7, 9, 10, 12, 13, 16, 18, 20, 22,
      ]);
    });

    it('the word on the first clause is ignored', async function () {
      expect(await h.userIds(`filter[or id]=${enc('<3')}`)).to.deep.equal([1, 2]);
      expect(await h.userIds(`filter[and id]=${enc('<3')}`)).to.deep.equal([1, 2]);
    });

    it('but the ! on the first clause still negates it', async function () {
      expect(await h.userIds('filter[or! status]=active')).to.deep.equal(NOT_ACTIVE);
      expect(await h.userIds(`filter[and! id]=${enc('<20')}`)).to.deep.equal([20, 21, 22, 23]);
      expect(await h.userIds(`filter[or! status]=active&filter[and id]=${enc('<6')}`)).to.deep.equal([3, 5]);
    });

    it('a repeated key adds one clause per occurrence', async function () {
      expect(await h.userIds('filter[id]=1&filter[or status]=pending&filter[or status]=banned')).to.deep.equal([1, 5, 7, 16, 20, 22]);
    });
  });

  describe('precedence: NOT before AND before OR', function () {
    it('A or B and C = A or (B and C)', async function () {
      expect(await h.userIds(`filter[status]=active&filter[or role]=admin&filter[and score]=${enc('>90')}`)).to.deep.equal(ACTIVE);
    });

    it('A and B or C = (A and B) or C', async function () {
      expect(await h.userIds('filter[id]=1&filter[and status]=inactive&filter[or id]=2')).to.deep.equal([2]);
      expect(await h.userIds('filter[id]=1&filter[or id]=2&filter[and status]=inactive')).to.deep.equal([1]);
    });

    it('A and! B or C = (A and not B) or C', async function () {
      expect(await h.userIds(`filter[id]=${enc('<10')}&filter[and! status]=active&filter[or id]=23`)).to.deep.equal([3, 5, 7, 9, 23]);
    });

    it('A or! B = A or not B, with NULLs counted as not matching', async function () {
      expect(await h.userIds(`filter[role]=admin&filter[or! score]=${enc('>50')}`)).to.deep.equal([
        1, 3, 4, 6, 7, 9, 10, 12, 13, 15, 16, 18, 20, 22, 23,
      ]);
    });

    it('<> includes NULLs', async function () {
      expect(await h.userIds('filter[role]=<>admin')).to.deep.equal([2, 3, 4, 5, 7, 8, 10, 11, 12, 13, 14, 16, 17, 18, 19, 20, 21, 23]);
    });
  });

  describe('groups of different families are ANDed', function () {
    it('filter and in', async function () {
      expect(await h.userIds('filter[status]=active&in[or role]=admin')).to.deep.equal([1, 6, 15]);
    });

    it('filter and between', async function () {
      expect(await h.userIds('filter[role]=admin&between[or id]=1,9')).to.deep.equal([1, 6, 9]);
    });

    it('filter and search', async function () {
      expect(await h.userIds('filter[status]=active&search[name]=o')).to.deep.equal([2, 4, 6, 11, 15]);
    });

    it('a filter group keeps its parentheses next to another group', async function () {
      // (id=1 OR id=2) AND (role in (editor)) = [2]; without the parentheses id=1 would slip through.
      expect(await h.userIds('filter[id]=1&filter[or id]=2&in[role]=editor')).to.deep.equal([2]);
    });
  });

  describe('errors', function () {
    it('an unknown field is FIELD_NOT_ALLOWED and lists the filterable fields', async function () {
      expectProblem(await h.get('/api/users?filter[bogus]=1'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'filter[bogus]',
        allowed: USER_FIELDS,
      });
    });

    it('the parameter is the key exactly as sent', async function () {
      expectProblem(await h.get('/api/users?filter[id]=1&filter[or bogus]=1'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'filter[or bogus]',
        allowed: USER_FIELDS,
      });
    });

    it('a hidden column is FIELD_NOT_ALLOWED like an unknown one', async function () {
      expectProblem(await h.get('/api/users?filter[password_hash]=x'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'filter[password_hash]',
        allowed: USER_FIELDS,
      });
      expectProblem(await h.get('/api/posts?filter[secret_note]=x'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'filter[secret_note]',
        allowed: POST_FIELDS,
      });
    });

    const malformed = ['filter[xor id]', 'filter[and  id]', 'filter[]', 'filter[not id]', 'filter[! id]'];
    for (const key of malformed) {
      it(`${key} is MALFORMED_PARAMETER`, async function () {
        expectProblem(await h.get(`/api/users?${key.replace(/ /g, '%20')}=1`), { code: 'MALFORMED_PARAMETER', parameter: key });
      });
    }
  });

  // An offset can carry an instant written in year 1 into year 0, which the ISO form sent to
  // PostgreSQL cannot write: INVALID_VALUE before any SQL, on every operator, list, range and alias.
  describe('timestamps that leave the year 1 once their offset is applied', function () {
    const early = '0001-01-01T00:00%2B00:01';
    for (const query of [
      `filter[created_at]=${early}`,
      `filter[created_at]=%3E%3D${early}`,
      `filter[or!%20created_at]=%3C${early}`,
      `in[created_at]=2025-04-17,${early}`,
      `between[created_at]=${early},2025-01-01`,
      `expand[posts]=p&p_filter[created_at]=${early}`,
    ]) {
      it(`${query} is INVALID_VALUE`, async function () {
        expectProblem(await h.get(`/api/users?${query}`), { code: 'INVALID_VALUE' });
      });
    }

    it('the first instant of year 1 in UTC is fine', async function () {
      expect(await h.userIds('filter[created_at]=%3E%3D0001-01-01T00:01%2B00:01&fields=id&limit=2')).to.deep.equal([1, 2]);
    });
  });
});
