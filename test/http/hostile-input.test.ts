// Hostile input: SQL injection through values and keys, prototype-pollution names, broken encodings
// and a seeded fuzz over modifier shapes. Nothing may produce a 500
// (docs/errors.md, "Server errors never leak database details"), touch the data, or let a hidden
// column out (docs/configuration.md, "Model declarations").

import { expect } from 'chai';
import { asRow, range, useApp } from '../support/app';
import { expectProblem } from '../support/problems';

const enc = encodeURIComponent;

/** mulberry32: a small deterministic generator, so a failing fuzz case can be replayed. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('hostile input', function () {
  const h = useApp();

  async function expectUsersIntact(): Promise<void> {
    expect(await h.userIds('fields=id')).to.deep.equal(range(1, 23));
  }

  describe('SQL injection through values', function () {
    const values: [string, string][] = [
      ['filter[name]', "'; drop table users; --"],
      ['filter[name]', "x' or '1'='1"],
      ['search[name]', "' or 1=1 --"],
      ['search[name,email]', "%' or '%'='"],
      ['in[name]', "a','b"],
      ['in[status]', "active') or ('1'='1"],
      ['filter[status]', 'active" or "1"="1'],
    ];
    for (const [key, value] of values) {
      it(`${key}=${value} matches nothing and harms nothing`, async function () {
        expect(await h.userIds(`${key}=${enc(value)}`)).to.deep.equal([]);
        await expectUsersIntact();
      });
    }

    const typed: [string, string][] = [
      ['filter[id]', '1 or 1=1'],
      ['filter[id]', '1; drop table users'],
      ['between[id]', '1,2) or (1=1'],
      ['in[id]', '1,2) or (1=1'],
      ['filter[created_at]', "2025-04-17' or '1'='1"],
    ];
    for (const [key, value] of typed) {
      it(`${key}=${value} is INVALID_VALUE`, async function () {
        expectProblem(await h.get(`/api/users?${key}=${enc(value)}`), { code: 'INVALID_VALUE', parameter: key });
        await expectUsersIntact();
      });
    }
  });

  describe('SQL injection through keys and field lists', function () {
    const cases: [string, string][] = [
      ['sort[id;drop table users]', 'sort[id;drop table users]'],
      ['sort[users.password_hash]', 'sort[users.password_hash]'],
      ['filter[id"--]=1', 'filter[id"--]'],
      ['filter[1%3D1) or (id]=1', 'filter[1=1) or (id]'],
      ['fields=id,(select password_hash from users limit 1)', 'fields'],
      ['fields=users.password_hash', 'fields'],
      ['fields=*', 'fields'],
      ['search[name) or (1%3D1]=a', 'search[name) or (1=1]'],
    ];
    for (const [query, parameter] of cases) {
      it(`${query} is refused (FIELD_NOT_ALLOWED or MALFORMED_PARAMETER)`, async function () {
        const res = await h.get(`/api/users?${query.replace(/ /g, '%20')}`);
        const body = asRow(res.body);
        expect(body.code, res.text.slice(0, 300)).to.be.oneOf(['FIELD_NOT_ALLOWED', 'MALFORMED_PARAMETER']);
        expectProblem(res, { code: body.code === 'FIELD_NOT_ALLOWED' ? 'FIELD_NOT_ALLOWED' : 'MALFORMED_PARAMETER', parameter });
        expect(body.allowed ?? []).to.not.include('password_hash');
        expect(res.text).to.not.include('secret');
        await expectUsersIntact();
      });
    }
  });

  describe('prototype names', function () {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype']) {
      it(`${name} as a field, relation and collection`, async function () {
        expectProblem(await h.get(`/api/users?filter[${name}]=1`), { code: 'FIELD_NOT_ALLOWED', parameter: `filter[${name}]` });
        expectProblem(await h.get(`/api/users?sort[${name}]`), { code: 'FIELD_NOT_ALLOWED', parameter: `sort[${name}]` });
        expectProblem(await h.get(`/api/users?fields=${name}`), { code: 'FIELD_NOT_ALLOWED', parameter: 'fields' });
        expectProblem(await h.get(`/api/users?expand[${name}]`), { code: 'UNKNOWN_RELATION', parameter: `expand[${name}]` });
        expectProblem(await h.get(`/api/roles?expand[${name}]`), { code: 'UNKNOWN_RELATION', parameter: `expand[${name}]` });
        expectProblem(await h.get(`/api/${name}`), { code: 'UNKNOWN_COLLECTION' });
      });
    }

    it('constructor and toString are ordinary aliases', async function () {
      const rows = await h.rows(
        '/api/users?expand[posts]=constructor&constructor_fields=id&expand[roles]=toString&toString_fields=name&filter[id]=2',
      );
      expect(rows.map((r) => [r.posts, r.roles])).to.deep.equal([[[{ id: 4 }, { id: 5 }], [{ name: 'editor' }]]]);
    });

    it('an alias-prefixed key with a prototype alias and no expand is UNKNOWN_ALIAS', async function () {
      expectProblem(await h.get('/api/users?constructor_fields=id'), { code: 'UNKNOWN_ALIAS', parameter: 'constructor_fields' });
    });
  });

  describe('broken encodings and odd shapes are 400s, never 500s', function () {
    const cases: [string, string][] = [
      ['filter[name]=%E0%A4%A', 'filter[name]'],
      ['filter[name]=%', 'filter[name]'],
      ['filter[name]=%ZZ', 'filter[name]'],
      ['filter%5Bname=x', 'filter[name'],
      ['filter[id][x]=1', 'filter[id][x]'],
    ];
    for (const [query, parameter] of cases) {
      it(`${query} is MALFORMED_PARAMETER`, async function () {
        expectProblem(await h.get(`/api/users?${query}`), { code: 'MALFORMED_PARAMETER', parameter });
      });
    }

    const odd = [
      'page=99999999999999999999',
      'per-page=99999999999999999999',
      'limit=99999999999999999999',
      'offset=99999999999999999999',
      'filter[score]=99999999999999999999999999.999',
      'filter[name]=%F0%9F%98%80',
      'filter[na%00me]=x',
      'sort[name]=%00',
      'expand[posts]=%00',
      'filter[[id]]=1',
      'search[name]=%5C%5C%25%5F',
      'between[birthday]=0001-01-01,9999-12-31',
      'filter[created_at]=0001-01-01T00:00:00Z',
      'filter[birthday]=10000-01-01',
    ];
    for (const query of odd) {
      it(`${query} is answered without a 500`, async function () {
        const res = await h.get(`/api/users?${query}`);
        expect(res.status, res.text.slice(0, 300)).to.be.oneOf([200, 400]);
        if (res.status === 400) expect(res.headers['content-type']).to.match(/^application\/problem\+json\b/);
      });
    }
  });

  describe('seeded fuzz over modifier shapes', function () {
    const keys = [
      'filter[id]',
      'filter[or name]',
      'filter[and! score]',
      'filter[or! created_at]',
      'filter[birthday]',
      'filter[active]',
      'in[id]',
      'in[or status]',
      'in[and! created_at]',
      'between[id]',
      'between[or created_at]',
      'between[score]',
      'search[name]',
      'search[name,email]',
      'search[id]',
      'fields',
      'fields!',
      'sort[name]',
      'sort[score]',
      'expand[posts]',
      'p_filter[id]',
      'p_sort[title]',
      'p_fields',
      'per-page',
      'page',
      'limit',
      'offset',
    ];
    const pieces = [
      '1',
      '-1',
      '0',
      '2025-04-17',
      '2025-04-17T01:19:49.123456Z',
      'null',
      '"null"',
      '',
      ',',
      ',,',
      '"',
      '\\',
      '%',
      '_',
      '*',
      '>',
      '>=',
      '<>',
      '<',
      '=',
      'true',
      'abc',
      'id',
      'name',
      'id,name',
      "'",
      ';',
      '(',
      ')',
      '1.5',
      'desc',
      'p',
      'x',
      ' ',
      '\u00e9',
    ];
    const random = generator(20250417);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    for (let i = 0; i < 60; i += 1) {
      const pairs: string[] = [];
      const count = 1 + Math.floor(random() * 4);
      for (let j = 0; j < count; j += 1) {
        const value = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(pieces)).join('');
        pairs.push(`${enc(pick(keys))}=${enc(value)}`);
      }
      const query = pairs.join('&');
      it(`#${i}: ${decodeURIComponent(query)}`, async function () {
        const res = await h.get(`/api/users?${query}`);
        expect(res.status, res.text.slice(0, 300)).to.be.oneOf([200, 400]);
        expect(res.text).to.not.include('secret');
        if (res.status === 400) {
          const body = asRow(res.body);
          expect(body.errors).to.be.an('array').that.is.not.empty;
        }
      });
    }

    it('the data is untouched afterwards', async function () {
      await expectUsersIntact();
    });
  });
});
