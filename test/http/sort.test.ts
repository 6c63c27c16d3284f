// sort[...]: every direction word (docs/query-language.md, "sort"), several keys in query-string
// order, the primary-key tie-breaker, PostgreSQL's NULL order, and sort errors. The fixture stores
// rows newest first, so any ordering the plugin forgets shows up as descending ids.

import { expect } from 'chai';
import { idsOf, objectOf, range, useApp, expectOk, asRows } from '../support/app';
import { USER_FIELDS } from '../support/fixture';
import { expectProblem } from '../support/problems';

const BY_STATUS = [1, 2, 4, 6, 8, 11, 14, 15, 17, 19, 21, 23, 7, 20, 3, 9, 13, 18, 12, 5, 16, 22, 10];
const BY_STATUS_DESC = [10, 5, 16, 22, 12, 3, 9, 13, 18, 7, 20, 1, 2, 4, 6, 8, 11, 14, 15, 17, 19, 21, 23];

describe('sort', function () {
  const h = useApp();

  it('without sort, records come in primary-key order', async function () {
    expect(await h.userIds('')).to.deep.equal(range(1, 23));
    expect(idsOf(await h.rows('/api/posts'))).to.deep.equal(range(1, 11));
    expect(idsOf(await h.rows('/api/roles'))).to.deep.equal([1, 2, 3, 4]);
  });

  describe('direction words', function () {
    // scores: 1 = 95.50, 2 = 72.25, 3 = 50.00
    for (const word of ['a', 'asc', 'ascending', 'A', 'ASC', 'Ascending', '']) {
      it(`sort[score]=${word} is ascending`, async function () {
        expect(await h.userIds(`sort[score]=${word}&filter[id]=<4`)).to.deep.equal([3, 2, 1]);
      });
    }

    it('sort[score] with no = is ascending', async function () {
      expect(await h.userIds('sort[score]&filter[id]=<4')).to.deep.equal([3, 2, 1]);
    });

    for (const word of ['-', 'd', 'des', 'desc', 'descending', 'D', 'DESC', 'Descending']) {
      it(`sort[score]=${word} is descending`, async function () {
        // scores: 3 = 50.00, 4 = NULL, 5 = 88.75
        expect(
          await h.userIds(`sort[score]=${encodeURIComponent(word)}&filter[id]=${encodeURIComponent('>2')}&filter[and id]=<6`),
        ).to.deep.equal([4, 5, 3]);
      });
    }

    for (const word of ['up', 'ascend', 'desc!', '+', 'asc,desc', 'descendingly']) {
      it(`sort[id]=${word} is MALFORMED_PARAMETER`, async function () {
        expectProblem(await h.get(`/api/users?sort[id]=${encodeURIComponent(word)}`), {
          code: 'MALFORMED_PARAMETER',
          parameter: 'sort[id]',
        });
      });
    }
  });

  describe('ordering', function () {
    it('ties are broken by the primary key ascending', async function () {
      expect(await h.userIds('sort[status]')).to.deep.equal(BY_STATUS);
    });

    it('descending keeps the primary-key tie-breaker ascending, NULLs first', async function () {
      expect(await h.userIds('sort[status]=desc')).to.deep.equal(BY_STATUS_DESC);
    });

    it('NULLs last ascending', async function () {
      expect(await h.userIds('sort[score]=asc')).to.deep.equal([
        7, 20, 13, 12, 18, 9, 23, 10, 3, 17, 6, 14, 21, 22, 2, 11, 19, 5, 1, 15, 8, 4, 16,
      ]);
    });

    it('NULLs first descending', async function () {
      expect(await h.userIds('sort[score]=desc')).to.deep.equal([
        4, 16, 8, 15, 1, 5, 19, 2, 11, 22, 21, 14, 6, 17, 3, 10, 23, 9, 18, 12, 13, 20, 7,
      ]);
    });

    it('several keys apply in query-string order', async function () {
      expect(await h.userIds('sort[role]=asc&sort[score]=desc')).to.deep.equal([
        15, 1, 22, 6, 9, 8, 5, 19, 2, 13, 20, 4, 11, 21, 14, 17, 3, 23, 18, 12, 7, 16, 10,
      ]);
    });

    it('swapping the keys changes the order', async function () {
      expect(await h.userIds('sort[active]=desc&sort[id]=desc')).to.deep.equal([
        16, 9, 23, 21, 19, 17, 15, 14, 11, 10, 8, 6, 4, 2, 1, 22, 20, 18, 13, 12, 7, 5, 3,
      ]);
      expect(await h.userIds('sort[id]=desc&sort[active]=desc')).to.deep.equal(range(1, 23).reverse());
    });

    it('timestamps order to the microsecond', async function () {
      expect(await h.userIds('sort[created_at]=desc')).to.deep.equal([
        13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 23, 22, 3, 21, 20, 19, 18, 2, 17, 16, 15, 1, 14,
      ]);
    });

    it('dates, with NULLs first descending', async function () {
      expect(await h.userIds('sort[birthday]=desc&filter[id]=<10')).to.deep.equal([3, 7, 4, 8, 6, 1, 9, 2, 5]);
    });

    it('text', async function () {
      expect(await h.userIds('sort[name]&filter[status]=active')).to.deep.equal([1, 2, 6, 8, 11, 4, 14, 15, 17, 19, 21, 23]);
    });

    it('sort by a field that is not projected', async function () {
      const rows = await h.rows('/api/users?fields=name&sort[score]=desc&filter[id]=<4');
      expect(rows).to.deep.equal([{ name: 'Alice Martin' }, { name: 'Bob Stone' }, { name: 'Smith, John' }]);
    });

    it('pages of a sorted list are stable and disjoint', async function () {
      const pages: number[] = [];
      for (const page of [1, 2, 3, 4, 5]) {
        const res = await h.get(`/api/users?sort[status]&per-page=5&page=${page}`);
        expectOk(res);
        pages.push(...idsOf(asRows(objectOf(res).data)));
      }
      expect(pages).to.deep.equal(BY_STATUS);
    });

    it('another collection with its own sortable list', async function () {
      expect(idsOf(await h.rows('/api/posts?sort[title]=desc'))).to.deep.equal([11, 9, 2, 10, 3, 6, 7, 1, 8, 5, 4]);
    });
  });

  describe('errors', function () {
    it('a hidden column is FIELD_NOT_ALLOWED', async function () {
      expectProblem(await h.get('/api/users?sort[password_hash]'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'sort[password_hash]',
        allowed: USER_FIELDS,
      });
    });

    it('a projectable field that is not sortable is FIELD_NOT_ALLOWED listing the sortable ones', async function () {
      expectProblem(await h.get('/api/posts?sort[status]=asc'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'sort[status]',
        allowed: ['id', 'title', 'created_at'],
      });
    });

    it('sort=name and sort[] are MALFORMED_PARAMETER', async function () {
      expectProblem(await h.get('/api/users?sort=name'), { code: 'MALFORMED_PARAMETER', parameter: 'sort' });
      expectProblem(await h.get('/api/users?sort[]=asc'), { code: 'MALFORMED_PARAMETER', parameter: 'sort[]' });
    });

    it('the same sort key twice is DUPLICATE_PARAMETER', async function () {
      expectProblem(await h.get('/api/users?sort[id]=asc&sort[id]=desc'), { code: 'DUPLICATE_PARAMETER', parameter: 'sort[id]' });
    });
  });
});
