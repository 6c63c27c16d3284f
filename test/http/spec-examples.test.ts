// The query language's worked examples (docs/query-language.md), run against the fixture, with the
// result the docs describe.

import { expect } from 'chai';
import { asRow, asRows, idsOf, objectOf, range, useApp, expectOk } from '../support/app';
import { USER_FIELDS } from '../support/fixture';
import { expectProblem } from '../support/problems';

const enc = encodeURIComponent;

describe('worked examples', function () {
  const h = useApp();

  describe('filter', function () {
    it('filter[<field>]=>=<n> with filter[and <field2>]=<value>: field >= n and field2 = value', async function () {
      expect(await h.userIds(`filter[id]=${enc('>=5')}&filter[and status]=active`)).to.deep.equal([6, 8, 11, 14, 15, 17, 19, 21, 23]);
    });

    it('filter[<field>]=<<n> with filter[or <field2>]=<value>: field < n or field2 = value', async function () {
      expect(await h.userIds(`filter[id]=${enc('<5')}&filter[or status]=pending`)).to.deep.equal([1, 2, 3, 4, 5, 16, 22]);
    });

    it('filter[<field>]=<<n> with filter[and! <field2>]=<value>: field < n and field2 not equal (NULL counts as not equal)', async function () {
      expect(await h.userIds(`filter[id]=${enc('<5')}&filter[and! status]=active`)).to.deep.equal([3]);
      expect(await h.userIds(`filter[id]=${enc('<11')}&filter[and! status]=active`)).to.deep.equal([3, 5, 7, 9, 10]);
    });

    it('filter[or! <field>]: OR NOT', async function () {
      expect(await h.userIds(`filter[id]=${enc('<3')}&filter[or! status]=active`)).to.deep.equal([
        1, 2, 3, 5, 7, 9, 10, 12, 13, 16, 18, 20, 22,
      ]);
    });

    it('each operator: = (also none), >, >=, <, <=, <>', async function () {
      expect(await h.userIds('filter[id]=7')).to.deep.equal([7]);
      expect(await h.userIds(`filter[id]=${enc('=7')}`)).to.deep.equal([7]);
      expect(await h.userIds(`filter[id]=${enc('>21')}`)).to.deep.equal([22, 23]);
      expect(await h.userIds(`filter[id]=${enc('>=22')}`)).to.deep.equal([22, 23]);
      expect(await h.userIds(`filter[id]=${enc('<2')}`)).to.deep.equal([1]);
      expect(await h.userIds(`filter[id]=${enc('<=2')}`)).to.deep.equal([1, 2]);
      expect(await h.userIds(`filter[id]=${enc('<>1')}`)).to.deep.equal(range(2, 23));
    });

    it('filter[or bogus] is reported with that exact key', async function () {
      expectProblem(await h.get('/api/users?filter[id]=1&filter[or%20bogus]=1'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'filter[or bogus]',
        allowed: USER_FIELDS,
      });
    });

    it('filter[id]=abc is INVALID_VALUE, never a database error', async function () {
      expectProblem(await h.get('/api/users?filter[id]=abc'), { code: 'INVALID_VALUE', parameter: 'filter[id]' });
    });
  });

  describe('in', function () {
    it('in[<field>]: records whose field equals any listed value', async function () {
      expect(await h.userIds('in[id]=2,4,6')).to.deep.equal([2, 4, 6]);
    });

    it('in[and <field2>] restricts to records that also match the second list', async function () {
      expect(await h.userIds('in[role]=admin,editor&in[and status]=active')).to.deep.equal([1, 2, 6, 8, 15, 19]);
    });

    it('in[or <field2>] adds records that match the second list', async function () {
      expect(await h.userIds('in[role]=admin&in[or status]=pending')).to.deep.equal([1, 5, 6, 9, 15, 16, 22]);
    });

    it('in[and! <field2>] excludes records matching the second list', async function () {
      expect(await h.userIds('in[role]=admin,editor&in[and! status]=active')).to.deep.equal([5, 9, 13, 20, 22]);
    });

    it('in[or! <field2>]: OR NOT the second list', async function () {
      expect(await h.userIds('in[id]=1,2,3&in[or! status]=active')).to.deep.equal([1, 2, 3, 5, 7, 9, 10, 12, 13, 16, 18, 20, 22]);
    });

    it('in[name]="Smith, John",Jane', async function () {
      expect(await h.userIds(`in[name]=${enc('"Smith, John",Jane')}`)).to.deep.equal([3]);
    });
  });

  describe('between', function () {
    it('a range of ids 3 to 7 returns ids 3, 4, 5, 6, 7', async function () {
      expect(await h.userIds('between[id]=3,7')).to.deep.equal([3, 4, 5, 6, 7]);
    });

    it('date bounds: between[created_at]=2025-04-01,2025-04-17 includes every instant of 17 April', async function () {
      expect(await h.userIds('between[created_at]=2025-04-01,2025-04-17')).to.deep.equal([
        1, 2, 3, 4, 5, 6, 7, 8, 15, 16, 17, 18, 19, 20, 21, 22, 23,
      ]);
    });

    it('and: records must lie in both ranges', async function () {
      expect(await h.userIds('between[id]=3,7&between[and created_at]=2025-04-17,2025-04-17')).to.deep.equal([5, 6, 7]);
    });

    it('or: records lying in either range (between[or created_at])', async function () {
      expect(await h.userIds('between[id]=3,7&between[or created_at]=2025-04-25,2025-05-01')).to.deep.equal([3, 4, 5, 6, 7, 11, 12, 13]);
    });

    it('and!: the id range applies and the second range is excluded', async function () {
      expect(await h.userIds('between[id]=3,7&between[and! id]=5,6')).to.deep.equal([3, 4, 7]);
    });

    it('or!: the first clause still applies, OR NOT the second range', async function () {
      expect(await h.userIds('between[id]=3,7&between[or! id]=5,23')).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
    });
  });

  describe('search (the documented table)', function () {
    it('term: anywhere in the value', async function () {
      expect(await h.userIds('search[name]=ar')).to.deep.equal([1, 5, 10]);
    });

    it('*term*: anywhere in the value', async function () {
      expect(await h.userIds('search[name]=*ar*')).to.deep.equal([1, 5, 10]);
    });

    it('term*: at the beginning of the value', async function () {
      expect(await h.userIds('search[name]=ja*')).to.deep.equal([4]);
    });

    it('*term: at the end of the value', async function () {
      expect(await h.userIds('search[name]=*ar')).to.deep.equal([]);
      expect(await h.userIds('search[name]=*er')).to.deep.equal([8, 23]);
    });

    it('search[field1,field2,fieldN]=term: any field', async function () {
      expect(await h.userIds('search[name,email,role]=edit')).to.deep.equal([2, 5, 8, 13, 19, 20]);
    });
  });

  describe('projection', function () {
    it('fields=a,b,c returns only the listed fields', async function () {
      expect(await h.rows('/api/users?fields=id,name,email&filter[id]=1')).to.deep.equal([
        { id: 1, name: 'Alice Martin', email: 'alice@example.com' },
      ]);
    });

    it('fields!=updated_at returns all fields except it', async function () {
      const rows = await h.rows('/api/users?fields!=updated_at&filter[id]=1');
      expect(Object.keys(asRow(rows[0]))).to.deep.equal(USER_FIELDS.filter((f) => f !== 'updated_at'));
    });

    it('email_verified_at appears as ISO 8601 with microseconds and Z', async function () {
      expect(await h.rows('/api/users?fields=email_verified_at&filter[id]=1')).to.deep.equal([
        { email_verified_at: '2025-04-17T01:19:49.123456Z' },
      ]);
    });
  });

  describe('sort', function () {
    it('sort[name] with no value is ascending', async function () {
      expect(await h.userIds('sort[name]&in[id]=2,1,6')).to.deep.equal([1, 2, 6]);
    });

    it('every ascending and descending indicator of the table', async function () {
      for (const word of ['a', 'asc', 'ascending']) {
        expect(await h.userIds(`sort[created_at]=${word}&in[id]=1,14,5`), word).to.deep.equal([14, 1, 5]);
      }
      for (const word of ['-', 'd', 'des', 'desc', 'descending']) {
        expect(await h.userIds(`sort[created_at]=${word}&in[id]=1,14,5`), word).to.deep.equal([5, 1, 14]);
      }
    });

    it('sorting by more than one field', async function () {
      expect(await h.userIds('sort[role]=desc&sort[name]=asc&in[id]=1,3,4,6,16')).to.deep.equal([16, 4, 3, 1, 6]);
    });
  });

  describe('expansion', function () {
    it('expand[posts]=p with p_fields=id,title: only id and title', async function () {
      const rows = await h.rows('/api/users?expand[posts]=p&p_fields=id,title&filter[id]=1');
      expect(asRow(rows[0]).posts).to.deep.equal([
        { id: 1, title: 'Hello World' },
        { id: 2, title: 'Second Thoughts' },
        { id: 3, title: 'Kubernetes Tips' },
        { id: 11, title: 'Zebra Notes' },
      ]);
    });

    it('fields=name&expand[posts]=p still returns the posts', async function () {
      const rows = await h.rows('/api/users?fields=name&expand[posts]=p&filter[id]=6');
      expect(rows).to.deep.equal([
        {
          name: "Dave O'Brien",
          posts: [
            { id: 7, user_id: 6, title: 'Irish Stew', status: 'published', created_at: '2025-04-18T00:00:00.000000Z' },
            { id: 8, user_id: 6, title: 'Hello Again', status: 'published', created_at: '2025-04-19T10:00:00.000000Z' },
          ],
        },
      ]);
    });

    it('p_sort[created_at], p_search[title], p_filter[status], p_in[id], p_between[created_at]', async function () {
      const ids = async (query: string): Promise<number[]> => {
        const rows = await h.rows(`/api/users?expand[posts]=p&filter[id]=1&${query}`);
        return idsOf(asRows(asRow(rows[0]).posts));
      };
      expect(await ids('p_sort[created_at]=desc')).to.deep.equal([3, 11, 2, 1]);
      expect(await ids('p_search[title]=o')).to.deep.equal([1, 2, 11]);
      expect(await ids('p_filter[status]=published')).to.deep.equal([1, 3, 11]);
      expect(await ids('p_in[id]=2,3,4')).to.deep.equal([2, 3]);
      expect(await ids('p_between[created_at]=2025-04-03,2025-04-16')).to.deep.equal([2, 11]);
    });

    it('expanded modifiers accept =, <>, <, >, <=, >= and AND, OR, AND!, OR!', async function () {
      const ids = async (query: string): Promise<number[]> => {
        const rows = await h.rows(`/api/users?expand[posts]=p&filter[id]=1&${query}`);
        return idsOf(asRows(asRow(rows[0]).posts));
      };
      expect(await ids('p_filter[id]=2')).to.deep.equal([2]);
      expect(await ids(`p_filter[id]=${enc('<>2')}`)).to.deep.equal([1, 3, 11]);
      expect(await ids(`p_filter[id]=${enc('<3')}`)).to.deep.equal([1, 2]);
      expect(await ids(`p_filter[id]=${enc('>3')}`)).to.deep.equal([11]);
      expect(await ids(`p_filter[id]=${enc('<=3')}`)).to.deep.equal([1, 2, 3]);
      expect(await ids(`p_filter[id]=${enc('>=3')}`)).to.deep.equal([3, 11]);
      expect(await ids(`p_filter[id]=${enc('<3')}&p_filter[and status]=draft`)).to.deep.equal([2]);
      expect(await ids(`p_filter[id]=${enc('<2')}&p_filter[or status]=draft`)).to.deep.equal([1, 2]);
      expect(await ids(`p_filter[id]=${enc('<3')}&p_filter[and! status]=draft`)).to.deep.equal([1]);
      expect(await ids(`p_filter[id]=${enc('>10')}&p_filter[or! status]=published`)).to.deep.equal([2, 11]);
    });

    it('the phone relation of the relation-configuration example', async function () {
      const rows = await h.rows('/api/users?expand[phone]=ph&ph_fields=number&filter[id]=1');
      expect(asRow(rows[0]).phone).to.deep.equal({ number: '+1-555-0100' });
    });

    it('an undeclared relation is a 400 listing the expandable relations', async function () {
      expectProblem(await h.get('/api/users?expand[friends]=f'), {
        code: 'UNKNOWN_RELATION',
        parameter: 'expand[friends]',
        allowed: ['posts', 'phone', 'roles'],
      });
    });
  });

  describe('pagination', function () {
    it('per-page and page: the envelope with per_page, current_page and total', async function () {
      const res = await h.get('/api/users?per-page=10&page=2');
      expectOk(res);
      const body = objectOf(res);
      expect(body.per_page).to.equal(10);
      expect(body.current_page).to.equal(2);
      expect(body.total).to.equal(23);
      expect(idsOf(asRows(body.data))).to.deep.equal(range(11, 20));
    });

    it('page-size as in the parameter table', async function () {
      const res = await h.get('/api/users?page-size=10');
      expectOk(res);
      const body = objectOf(res);
      expect(body.per_page).to.equal(10);
      expect(body.current_page).to.equal(1);
    });

    it('page defaults to 1', async function () {
      const res = await h.get('/api/users?per-page=3');
      expectOk(res);
      expect(objectOf(res).current_page).to.equal(1);
      expect(idsOf(asRows(objectOf(res).data))).to.deep.equal([1, 2, 3]);
    });
  });

  describe('combining modifiers', function () {
    it('several modifiers in one request', async function () {
      const res = await h.get(
        `/api/users?filter[status]=active&in[role]=admin,editor&between[id]=1,20&search[name]=*e*&fields=id,name&sort[name]=desc&expand[posts]=p&p_fields=id&per-page=2`,
      );
      expectOk(res);
      const body = objectOf(res);
      expect(body.total).to.equal(4);
      expect(body.data).to.deep.equal([
        { id: 8, name: 'Frank_Under', posts: [{ id: 9 }] },
        { id: 6, name: "Dave O'Brien", posts: [{ id: 7 }, { id: 8 }] },
      ]);
    });

    it('cache busters and tracking keys are ignored', async function () {
      expect(await h.userIds('_=1700000&utm_source=x&filter[id]=3')).to.deep.equal([3]);
    });
  });
});
