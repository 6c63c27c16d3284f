// limit / offset and the maxRows cap with its X-Result-Truncated header
// (docs/query-language.md, "limit, offset and the row cap").

import { expect } from 'chai';
import { asRows, idsOf, objectOf, range, rowsOf, useApp, expectOk } from '../support/app';
import { expectProblem } from '../support/problems';

describe('limit and offset', function () {
  const h = useApp();

  it('limit returns the first records as a bare array', async function () {
    expect(await h.userIds('limit=5')).to.deep.equal([1, 2, 3, 4, 5]);
  });

  it('offset alone skips records', async function () {
    expect(await h.userIds('offset=20')).to.deep.equal([21, 22, 23]);
  });

  it('limit with offset', async function () {
    expect(await h.userIds('limit=2&offset=3')).to.deep.equal([4, 5]);
  });

  it('limit and offset apply after filter and sort', async function () {
    expect(await h.userIds('filter[status]=active&sort[id]=desc&limit=3&offset=1')).to.deep.equal([21, 19, 17]);
  });

  it('an offset past rows whose values are formatted pages by the values, not by their text form', async function () {
    // Only the returned rows are formatted (numerics as text, timestamps with to_char), after paging;
    // as text, '100.00' would sort after '99.99'. NULL scores (4, 16) come first in a descending sort.
    const res = await h.get('/api/users?sort[score]=desc&fields=id,score,created_at&limit=4&offset=2');
    expectOk(res);
    expect(res.body).to.deep.equal([
      { id: 8, score: '100.00', created_at: '2025-04-17T23:59:59.999999Z' },
      { id: 15, score: '99.99', created_at: '2025-04-02T10:00:00.000000Z' },
      { id: 1, score: '95.50', created_at: '2025-04-01T08:00:00.000000Z' },
      { id: 5, score: '88.75', created_at: '2025-04-17T00:00:00.000000Z' },
    ]);
  });

  it('limit=0 returns []', async function () {
    const res = await h.get('/api/users?limit=0');
    expectOk(res);
    expect(res.body).to.deep.equal([]);
  });

  it('an offset past the end returns []', async function () {
    expect(await h.userIds('offset=100')).to.deep.equal([]);
  });

  it('offset=0 is fine', async function () {
    expect(await h.userIds('offset=0&limit=1')).to.deep.equal([1]);
  });

  it('without a page key the response is not truncated below maxRows', async function () {
    const res = await h.get('/api/users?limit=5');
    expectOk(res);
    expect(res.headers['x-result-truncated']).to.equal(undefined);
  });

  for (const key of ['limit', 'offset']) {
    for (const value of ['-1', 'abc', '1.5', '']) {
      it(`${key}=${value} is MALFORMED_PARAMETER`, async function () {
        expectProblem(await h.get(`/api/users?${key}=${value}`), { code: 'MALFORMED_PARAMETER', parameter: key });
      });
    }

    it(`${key} twice is DUPLICATE_PARAMETER`, async function () {
      expectProblem(await h.get(`/api/users?${key}=1&${key}=2`), { code: 'DUPLICATE_PARAMETER', parameter: key });
    });
  }

  it('limit or offset with a page key is CONFLICTING_PARAMETERS', async function () {
    expectProblem(await h.get('/api/users?limit=5&page-size=5'), { code: 'CONFLICTING_PARAMETERS' });
    expectProblem(await h.get('/api/users?offset=5&page=2'), { code: 'CONFLICTING_PARAMETERS' });
  });

  describe('maxRows', function () {
    const capped = useApp({ maxRows: 10 });

    it('an unpaginated response holds at most maxRows records, flagged as truncated', async function () {
      const res = await capped.get('/api/users');
      expectOk(res);
      expect(idsOf(rowsOf(res))).to.deep.equal(range(1, 10));
      expect(res.headers['x-result-truncated']).to.equal('true');
    });

    it('a limit above maxRows is cut to it', async function () {
      const res = await capped.get('/api/users?limit=20&offset=2');
      expectOk(res);
      expect(idsOf(rowsOf(res))).to.deep.equal(range(3, 12));
      expect(res.headers['x-result-truncated']).to.equal('true');
    });

    it('exactly maxRows matching records are not truncated', async function () {
      const res = await capped.get('/api/users?filter[id]=<11');
      expectOk(res);
      expect(idsOf(rowsOf(res))).to.deep.equal(range(1, 10));
      expect(res.headers['x-result-truncated']).to.equal(undefined);
    });

    it('fewer records than maxRows are not truncated', async function () {
      const res = await capped.get('/api/users?offset=15');
      expectOk(res);
      expect(idsOf(rowsOf(res))).to.deep.equal(range(16, 23));
      expect(res.headers['x-result-truncated']).to.equal(undefined);
    });

    it('a limit below maxRows is not truncation', async function () {
      const res = await capped.get('/api/users?limit=3');
      expectOk(res);
      expect(idsOf(rowsOf(res))).to.deep.equal([1, 2, 3]);
      expect(res.headers['x-result-truncated']).to.equal(undefined);
    });

    it('the cap counts root records, not expanded ones', async function () {
      const res = await capped.get('/api/users?expand[posts]&filter[id]=<11');
      expectOk(res);
      expect(idsOf(rowsOf(res))).to.deep.equal(range(1, 10));
      expect(res.headers['x-result-truncated']).to.equal(undefined);
    });

    it('paginated responses are bounded by the page size, not by maxRows', async function () {
      const res = await capped.get('/api/users?per-page=20');
      expectOk(res);
      const body = objectOf(res);
      expect(idsOf(asRows(body.data))).to.deep.equal(range(1, 20));
      expect(res.headers['x-result-truncated']).to.equal(undefined);
    });
  });
});
