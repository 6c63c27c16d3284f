// Per-parent windows (docs/query-language.md, "Per-parent windows"): `<alias>_limit` /
// `<alias>_offset` pick each parent's related records in the alias's order with the primary-key
// tie-breaker, on has-many and many-to-many at any depth, ties and NULL sort keys included; refused
// on to-one relations. Run twice: as statement text (no hook) and through Objection builders (a
// scope hook that restricts nothing).

import { expect } from 'chai';
import { asRow, asRows, Harness, idsOf, relatedIds, Row, useApp } from '../support/app';
import { expectProblem } from '../support/problems';

/** `{parent id: [related ids]}` for the parents that have any, as the fixture reads. */
function nonEmpty(rows: readonly Row[], relation: string): Record<number, number[]> {
  return Object.fromEntries(Object.entries(relatedIds(rows, relation)).filter(([, ids]) => ids.length > 0));
}

function commentIdsOfPost(rows: readonly Row[]): number[] {
  return idsOf(asRows(asRow(rows[0]).comments));
}

function windowCases(h: Harness): void {
  describe('has-many', function () {
    it("p_limit takes each parent's first records in primary-key order, every parent kept", async function () {
      const rows = await h.rows('/api/users?fields=id&expand[posts]=p&p_fields=id&p_limit=2');
      expect(rows).to.have.length(23);
      expect(nonEmpty(rows, 'posts')).to.deep.equal({ 1: [1, 2], 2: [4, 5], 3: [6], 6: [7, 8], 8: [9], 11: [10] });
    });

    it('in the alias sort order, from the offset', async function () {
      const top = await h.rows('/api/users?fields=id&expand[posts]=p&p_fields=id&p_sort[created_at]=desc&p_limit=2');
      expect(nonEmpty(top, 'posts')).to.deep.equal({ 1: [3, 11], 2: [5, 4], 3: [6], 6: [8, 7], 8: [9], 11: [10] });
      const next = await h.rows('/api/users?fields=id&expand[posts]=p&p_fields=id&p_sort[created_at]=desc&p_limit=2&p_offset=1');
      expect(nonEmpty(next, 'posts')).to.deep.equal({ 1: [11, 2], 2: [4], 6: [7] });
    });

    it('after the alias conditions', async function () {
      const rows = await h.rows('/api/users?fields=id&expand[posts]=p&p_fields=id&p_filter[status]=published&p_limit=1&p_offset=1');
      expect(nonEmpty(rows, 'posts')).to.deep.equal({ 1: [3], 6: [8] });
    });

    it('ties are broken by the primary key, ascending in either direction', async function () {
      // Comments 2 and 3 share a date, and so do 6 and 7.
      const asc = await h.rows('/api/posts?filter[id]=1&fields=id&expand[comments]=c&c_fields=id&c_sort[created_at]&c_offset=1&c_limit=2');
      expect(commentIdsOfPost(asc)).to.deep.equal([2, 3]);
      const desc = await h.rows('/api/posts?filter[id]=3&fields=id&expand[comments]=c&c_fields=id&c_sort[created_at]=desc&c_limit=1');
      expect(commentIdsOfPost(desc)).to.deep.equal([6]);
    });

    it('NULL sort keys come last ascending and first descending, as at the root', async function () {
      const asc = await h.rows(
        '/api/posts?filter[id]=1&fields=id&expand[comments]=c&c_fields=id&c_sort[created_at]=asc&c_offset=2&c_limit=3',
      );
      expect(commentIdsOfPost(asc)).to.deep.equal([3, 5, 4]);
      const desc = await h.rows('/api/posts?filter[id]=1&fields=id&expand[comments]=c&c_fields=id&c_sort[created_at]=desc&c_limit=2');
      expect(commentIdsOfPost(desc)).to.deep.equal([4, 5]);
    });

    it('an offset past the end gives empty lists, p_limit=0 too, and an offset alone skips', async function () {
      const past = await h.rows('/api/users?fields=id&expand[posts]=p&p_offset=10&p_limit=5');
      expect(past).to.have.length(23);
      expect(nonEmpty(past, 'posts')).to.deep.equal({});
      const zero = await h.rows('/api/users?fields=id&expand[posts]=p&p_limit=0');
      expect(nonEmpty(zero, 'posts')).to.deep.equal({});
      const skipped = await h.rows('/api/users?fields=id&expand[posts]=p&p_fields=id&p_offset=2');
      expect(nonEmpty(skipped, 'posts')).to.deep.equal({ 1: [3, 11] });
    });
  });

  describe('many-to-many, through the join table', function () {
    it("windows each parent's related records", async function () {
      const top = await h.rows('/api/users?fields=id&expand[roles]=r&r_fields=id&r_sort[level]=desc&r_limit=1');
      expect(nonEmpty(top, 'roles')).to.deep.equal({ 1: [1], 2: [2], 3: [3], 6: [1], 8: [2] });
      const second = await h.rows('/api/users?fields=id&expand[roles]=r&r_fields=name&r_sort[name]&r_limit=1&r_offset=1');
      expect(second.filter((u) => asRows(u.roles).length > 0)).to.deep.equal([
        { id: 1, roles: [{ name: 'editor' }] },
        { id: 6, roles: [{ name: 'auditor' }] },
        { id: 8, roles: [{ name: 'viewer' }] },
      ]);
    });
  });

  describe('nested', function () {
    it('a window at depth 2 applies per post, not per user', async function () {
      const rows = await h.rows(
        '/api/users?filter[id]=1&fields=id&expand[posts]=p&p_fields=id&p_expand[comments]=c&c_fields=id' +
          '&c_sort[created_at]=desc&c_limit=1',
      );
      expect(asRows(asRow(rows[0]).posts).map((p) => idsOf(asRows(p.comments)))).to.deep.equal([[4], [], [6], [12]]);
    });

    it('windows at depth 2 and 3 together', async function () {
      const rows = await h.rows(
        '/api/posts?filter[id]=3&fields=id&expand[comments]=c&c_fields=id&c_limit=2&c_expand[author]=a&a_fields=id' +
          '&a_expand[posts]=q&q_fields=id&q_sort[created_at]=desc&q_limit=1',
      );
      expect(rows).to.deep.equal([
        {
          id: 3,
          comments: [
            { id: 6, author: { id: 8, posts: [{ id: 9 }] } },
            { id: 7, author: { id: 2, posts: [{ id: 5 }] } },
          ],
        },
      ]);
    });

    it('a window on a to-many relation under a parent window', async function () {
      const rows = await h.rows(
        '/api/users?in[id]=1,2&fields=id&expand[posts]=p&p_fields=id&p_sort[created_at]=desc&p_limit=2' +
          '&p_expand[comments]=c&c_fields=id&c_limit=1',
      );
      expect(rows).to.deep.equal([
        {
          id: 1,
          posts: [
            { id: 3, comments: [{ id: 6 }] },
            { id: 11, comments: [{ id: 12 }] },
          ],
        },
        {
          id: 2,
          posts: [
            { id: 5, comments: [] },
            { id: 4, comments: [{ id: 8 }] },
          ],
        },
      ]);
    });
  });

  describe('errors', function () {
    it('on a to-one relation each window key is MALFORMED_PARAMETER', async function () {
      expectProblem(await h.get('/api/users?expand[phone]=ph&ph_limit=1'), { code: 'MALFORMED_PARAMETER', parameter: 'ph_limit' });
      expectProblem(await h.get('/api/users?expand[posts]=p&p_expand[author]=a&a_offset=1&a_limit=1'), {
        code: 'MALFORMED_PARAMETER',
        parameter: 'a_offset',
        errors: [
          { code: 'MALFORMED_PARAMETER', parameter: 'a_offset' },
          { code: 'MALFORMED_PARAMETER', parameter: 'a_limit' },
        ],
      });
    });

    it('a value that is not a non-negative whole number is MALFORMED_PARAMETER', async function () {
      for (const value of ['-1', 'abc', '1.5', '', '99999999999999999999']) {
        expectProblem(await h.get(`/api/users?expand[posts]=p&p_limit=${value}`), { code: 'MALFORMED_PARAMETER', parameter: 'p_limit' });
      }
    });

    it('given twice is DUPLICATE_PARAMETER; behind an undeclared alias UNKNOWN_ALIAS', async function () {
      expectProblem(await h.get('/api/users?expand[posts]=p&p_offset=1&p_offset=2'), {
        code: 'DUPLICATE_PARAMETER',
        parameter: 'p_offset',
      });
      expectProblem(await h.get('/api/users?expand[posts]=p&q_limit=1'), { code: 'UNKNOWN_ALIAS', parameter: 'q_limit' });
    });

    it('the root limit and offset keep their meaning beside a window', async function () {
      const rows = await h.rows('/api/users?fields=id&limit=2&offset=1&expand[posts]=p&p_fields=id&p_limit=1');
      expect(rows).to.deep.equal([
        { id: 2, posts: [{ id: 4 }] },
        { id: 3, posts: [{ id: 6 }] },
      ]);
    });
  });
}

describe('per-parent windows', function () {
  describe('as statement text', function () {
    windowCases(useApp());
  });

  describe('through Objection builders (a scope hook)', function () {
    windowCases(useApp({ scope: () => undefined }));
  });
});
