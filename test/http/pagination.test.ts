// Pagination (docs/query-language.md, "The envelope"): the envelope's keys in Laravel's order, page
// URLs that keep every other parameter, Laravel's `links` (onEachSide 3, with `...` gaps), from/to,
// pages past the end, per-page / page-size synonyms, default and maximum page size, and a custom
// configuration.

import { expect } from 'chai';
import { asRows, idsOf, objectOf, range, Row, useApp, expectOk } from '../support/app';
import { ENVELOPE_KEYS } from '../support/envelope-keys';
import { expectProblem } from '../support/problems';

interface Link {
  url: string | null;
  label: string;
  active: boolean;
}

describe('pagination', function () {
  const h = useApp();

  /** The envelope of `/api/users?<query>`, after checking it is one. */
  async function envelope(query: string): Promise<Row> {
    const res = await h.get(`/api/users?${query}`);
    expectOk(res, query);
    const body = objectOf(res);
    expect(Object.keys(body), 'envelope keys in order').to.deep.equal(ENVELOPE_KEYS);
    return body;
  }

  function users(query: string): string {
    return `${h.origin}/api/users?${query}`;
  }

  /** Laravel's links for `pages` (numbers and '...'), the current page and a URL maker. */
  function links(pages: readonly (number | '...')[], current: number, last: number, url: (page: number) => string): Link[] {
    return [
      { url: current > 1 ? url(current - 1) : null, label: '&laquo; Previous', active: false },
      ...pages.map((p): Link =>
        p === '...' ? { url: null, label: '...', active: false } : { url: url(p), label: String(p), active: p === current },
      ),
      { url: current < last ? url(current + 1) : null, label: 'Next &raquo;', active: false },
    ];
  }

  describe('the envelope', function () {
    it('the exact body of a middle page', async function () {
      const body = await envelope('per-page=5&page=2');
      const url = (p: number): string => users(`per-page=5&page=${p}`);
      expect(idsOf(asRows(body.data))).to.deep.equal([6, 7, 8, 9, 10]);
      expect({ ...body, data: null }).to.deep.equal({
        current_page: 2,
        data: null,
        first_page_url: url(1),
        from: 6,
        last_page: 5,
        last_page_url: url(5),
        links: links([1, 2, 3, 4, 5], 2, 5, url),
        next_page_url: url(3),
        path: `${h.origin}/api/users`,
        per_page: 5,
        prev_page_url: url(1),
        to: 10,
        total: 23,
      });
    });

    it('the data holds full records', async function () {
      const body = await envelope('per-page=1&page=3');
      expect(body.data).to.deep.equal([
        {
          id: 3,
          name: 'Smith, John',
          email: 'john.smith@example.com',
          status: 'inactive',
          role: 'viewer',
          score: '50.00',
          active: false,
          birthday: null,
          visits: 0,
          email_verified_at: '2025-03-01T00:00:00.000001Z',
          created_at: '2025-04-10T09:30:00.000000Z',
          updated_at: '2025-05-10T00:00:00.000000Z',
        },
      ]);
    });

    it('the first page: page=1 is appended when page is absent', async function () {
      const body = await envelope('per-page=5');
      const url = (p: number): string => users(`per-page=5&page=${p}`);
      expect(body.current_page).to.equal(1);
      expect(idsOf(asRows(body.data))).to.deep.equal([1, 2, 3, 4, 5]);
      expect(body.first_page_url).to.equal(url(1));
      expect(body.prev_page_url).to.equal(null);
      expect(body.next_page_url).to.equal(url(2));
      expect(body.from).to.equal(1);
      expect(body.to).to.equal(5);
      expect(body.links).to.deep.equal(links([1, 2, 3, 4, 5], 1, 5, url));
    });

    it('the last page', async function () {
      const body = await envelope('per-page=5&page=5');
      const url = (p: number): string => users(`per-page=5&page=${p}`);
      expect(idsOf(asRows(body.data))).to.deep.equal([21, 22, 23]);
      expect(body.from).to.equal(21);
      expect(body.to).to.equal(23);
      expect(body.next_page_url).to.equal(null);
      expect(body.prev_page_url).to.equal(url(4));
      expect(body.links).to.deep.equal(links([1, 2, 3, 4, 5], 5, 5, url));
    });

    it('page URLs keep every other parameter, in place, replacing only page', async function () {
      const query = (p: number): string => `filter[status]=active&page=${p}&per-page=5&sort[id]=desc&utm_source=x`;
      const body = await envelope(query(2));
      expect(idsOf(asRows(body.data))).to.deep.equal([14, 11, 8, 6, 4]);
      expect(body.total).to.equal(12);
      expect(body.last_page).to.equal(3);
      expect(body.first_page_url).to.equal(users(query(1)));
      expect(body.last_page_url).to.equal(users(query(3)));
      expect(body.next_page_url).to.equal(users(query(3)));
      expect(body.prev_page_url).to.equal(users(query(1)));
      expect(body.path).to.equal(`${h.origin}/api/users`);
      expect(body.links).to.deep.equal(links([1, 2, 3], 2, 3, (p) => users(query(p))));
    });

    it('a page past the end: empty data, from/to null, previous page as Laravel gives it', async function () {
      const body = await envelope('per-page=5&page=9');
      const url = (p: number): string => users(`per-page=5&page=${p}`);
      expect({ ...body }).to.deep.equal({
        current_page: 9,
        data: [],
        first_page_url: url(1),
        from: null,
        last_page: 5,
        last_page_url: url(5),
        links: links([1, 2, 3, 4, 5], 9, 5, url),
        next_page_url: null,
        path: `${h.origin}/api/users`,
        per_page: 5,
        prev_page_url: url(8),
        to: null,
        total: 23,
      });
    });

    it('no matching records: one page, empty', async function () {
      const body = await envelope('filter[id]=999&per-page=5');
      const url = (p: number): string => users(`filter[id]=999&per-page=5&page=${p}`);
      expect({ ...body }).to.deep.equal({
        current_page: 1,
        data: [],
        first_page_url: url(1),
        from: null,
        last_page: 1,
        last_page_url: url(1),
        links: links([1], 1, 1, url),
        next_page_url: null,
        path: `${h.origin}/api/users`,
        per_page: 5,
        prev_page_url: null,
        to: null,
        total: 0,
      });
    });

    it('a single full page', async function () {
      const body = await envelope('filter[id]=<4&per-page=3');
      expect(body.last_page).to.equal(1);
      expect(body.total).to.equal(3);
      expect(body.next_page_url).to.equal(null);
      expect(body.to).to.equal(3);
    });

    it('total counts every matching record, not the page', async function () {
      const body = await envelope('in[role]=admin,editor&per-page=2&page=3');
      expect(body.total).to.equal(11);
      expect(body.last_page).to.equal(6);
      expect(idsOf(asRows(body.data))).to.deep.equal([8, 9]);
    });
  });

  describe('links with gaps (Laravel, onEachSide 3)', function () {
    const url = (p: number): string => users(`per-page=1&page=${p}`);
    const cases: [number, (number | '...')[]][] = [
      [1, [...range(1, 10), '...', 22, 23]],
      [7, [...range(1, 10), '...', 22, 23]],
      [8, [1, 2, '...', ...range(5, 11), '...', 22, 23]],
      [12, [1, 2, '...', ...range(9, 15), '...', 22, 23]],
      [16, [1, 2, '...', ...range(13, 19), '...', 22, 23]],
      [17, [1, 2, '...', ...range(14, 23)]],
      [23, [1, 2, '...', ...range(14, 23)]],
    ];
    for (const [page, pages] of cases) {
      it(`page ${page} of 23`, async function () {
        const body = await envelope(`per-page=1&page=${page}`);
        expect(body.links).to.deep.equal(links(pages, page, 23, url));
        expect(idsOf(asRows(body.data))).to.deep.equal([page]);
      });
    }

    it('13 pages are listed in full', async function () {
      const body = await envelope('filter[id]=%3C14&per-page=1&page=7');
      expect(body.links).to.deep.equal(links(range(1, 13), 7, 13, (p) => users(`filter[id]=%3C14&per-page=1&page=${p}`)));
    });

    it('14 pages get a gap', async function () {
      const body = await envelope('filter[id]=%3C15&per-page=1&page=1');
      expect(body.links).to.deep.equal(
        links([...range(1, 10), '...', 13, 14], 1, 14, (p) => users(`filter[id]=%3C15&per-page=1&page=${p}`)),
      );
    });

    it('12 pages of 2 are listed in full', async function () {
      const body = await envelope('per-page=2&page=6');
      expect(body.links).to.deep.equal(links(range(1, 12), 6, 12, (p) => users(`per-page=2&page=${p}`)));
      expect(idsOf(asRows(body.data))).to.deep.equal([11, 12]);
    });
  });

  describe('page size', function () {
    it('page alone gives the envelope with the default size 15', async function () {
      const body = await envelope('page=1');
      expect(body.per_page).to.equal(15);
      expect(body.last_page).to.equal(2);
      expect(idsOf(asRows(body.data))).to.deep.equal(range(1, 15));
      expect(body.next_page_url).to.equal(users('page=2'));
    });

    it('page 2 of the default size', async function () {
      const body = await envelope('page=2');
      expect(idsOf(asRows(body.data))).to.deep.equal(range(16, 23));
      expect(body.from).to.equal(16);
      expect(body.to).to.equal(23);
    });

    it('page-size is a synonym of per-page', async function () {
      const body = await envelope('page-size=4&page=2');
      expect(body.per_page).to.equal(4);
      expect(idsOf(asRows(body.data))).to.deep.equal([5, 6, 7, 8]);
      expect(body.next_page_url).to.equal(users('page-size=4&page=3'));
    });

    it('both synonyms with the same value are fine', async function () {
      const body = await envelope('per-page=4&page-size=4');
      expect(body.per_page).to.equal(4);
    });

    it('the maximum, 100, is allowed', async function () {
      const body = await envelope('per-page=100');
      expect(asRows(body.data)).to.have.length(23);
      expect(body.last_page).to.equal(1);
    });

    it('above the maximum is PAGE_SIZE_TOO_LARGE naming the maximum', async function () {
      expectProblem(await h.get('/api/users?per-page=101'), { code: 'PAGE_SIZE_TOO_LARGE', parameter: 'per-page', allowed: 100 });
      expectProblem(await h.get('/api/users?page-size=1000'), { code: 'PAGE_SIZE_TOO_LARGE', parameter: 'page-size', allowed: 100 });
    });

    it('different synonyms are CONFLICTING_PARAMETERS', async function () {
      expectProblem(await h.get('/api/users?per-page=4&page-size=5'), { code: 'CONFLICTING_PARAMETERS' });
    });

    for (const value of ['0', '-1', 'abc', '1.5', '', '1e2']) {
      it(`per-page=${value} is MALFORMED_PARAMETER`, async function () {
        expectProblem(await h.get(`/api/users?per-page=${value}`), { code: 'MALFORMED_PARAMETER', parameter: 'per-page' });
      });
      it(`page=${value} is MALFORMED_PARAMETER`, async function () {
        expectProblem(await h.get(`/api/users?page=${value}`), { code: 'MALFORMED_PARAMETER', parameter: 'page' });
      });
    }

    it('repeated page keys are DUPLICATE_PARAMETER', async function () {
      expectProblem(await h.get('/api/users?page=1&page=2'), { code: 'DUPLICATE_PARAMETER', parameter: 'page' });
      expectProblem(await h.get('/api/users?per-page=5&per-page=5'), { code: 'DUPLICATE_PARAMETER', parameter: 'per-page' });
      expectProblem(await h.get('/api/users?page-size=5&page-size=6'), { code: 'DUPLICATE_PARAMETER', parameter: 'page-size' });
    });

    it('pages with limit or offset are CONFLICTING_PARAMETERS', async function () {
      expectProblem(await h.get('/api/users?page=1&limit=5'), { code: 'CONFLICTING_PARAMETERS' });
      expectProblem(await h.get('/api/users?per-page=5&offset=5'), { code: 'CONFLICTING_PARAMETERS' });
    });

    it('without page keys the response is a bare array', async function () {
      const res = await h.get('/api/users?filter[id]=1');
      expectOk(res);
      expect(res.body).to.be.an('array');
    });
  });

  describe('a custom configuration', function () {
    const custom = useApp({ pagination: { defaultPageSize: 4, maxPageSize: 10 } });

    it('uses the configured default size', async function () {
      const res = await custom.get('/api/users?page=2');
      expectOk(res);
      const body = objectOf(res);
      expect(body.per_page).to.equal(4);
      expect(body.last_page).to.equal(6);
      expect(idsOf(asRows(body.data))).to.deep.equal([5, 6, 7, 8]);
    });

    it('allows the configured maximum', async function () {
      const res = await custom.get('/api/users?per-page=10&page=3');
      expectOk(res);
      expect(idsOf(asRows(objectOf(res).data))).to.deep.equal([21, 22, 23]);
    });

    it('refuses above the configured maximum', async function () {
      expectProblem(await custom.get('/api/users?per-page=11'), { code: 'PAGE_SIZE_TOO_LARGE', parameter: 'per-page', allowed: 10 });
    });
  });

  describe('a custom prefix', function () {
    const prefixed = useApp({ prefix: '/v1' });

    it('serves the collections under it, and page URLs use it', async function () {
      const res = await prefixed.get('/v1/users?per-page=10&page=2');
      expectOk(res);
      const body = objectOf(res);
      expect(idsOf(asRows(body.data))).to.deep.equal(range(11, 20));
      expect(body.path).to.equal(`${prefixed.origin}/v1/users`);
      expect(body.next_page_url).to.equal(`${prefixed.origin}/v1/users?per-page=10&page=3`);
    });

    it('no longer answers under /api', async function () {
      expect((await prefixed.get('/api/users')).status).to.equal(404);
    });
  });
});
