// Nested expansion (docs/query-language.md, "Nested expansion"):
// `<alias>_expand[<relation>]=<alias2>` at depth 2 and 3 for every relation kind, alias modifiers
// at every depth, aliases unique across levels, the depth and expansion caps, and the scope hooks
// called with the relation's path at every depth.

import { expect } from 'chai';
import { Context } from 'koa';
import { Model } from 'objection';
import { ModelQuery } from '../../plugin';
import { asRow, asRows, idsOf, Row, useApp } from '../support/app';
import { expectProblem } from '../support/problems';

const COMMENTS: Record<number, Row> = {
  1: { id: 1, post_id: 1, author_id: 2, body: 'First!', created_at: '2025-04-03T00:00:00.000000Z' },
  2: { id: 2, post_id: 1, author_id: 3, body: 'Nice post', created_at: '2025-04-04T00:00:00.000000Z' },
  3: { id: 3, post_id: 1, author_id: 2, body: 'Agreed', created_at: '2025-04-04T00:00:00.000000Z' },
  4: { id: 4, post_id: 1, author_id: 6, body: 'No date', created_at: null },
  5: { id: 5, post_id: 1, author_id: 1, body: 'Thanks all', created_at: '2025-04-05T00:00:00.000000Z' },
  6: { id: 6, post_id: 3, author_id: 8, body: 'Helm or kustomize?', created_at: '2025-04-18T00:00:00.000000Z' },
  7: { id: 7, post_id: 3, author_id: 2, body: 'Helm', created_at: '2025-04-18T00:00:00.000000Z' },
  12: { id: 12, post_id: 11, author_id: 3, body: 'Zzz', created_at: '2025-04-16T12:00:00.000000Z' },
};

const AUTHORS: Record<number, Row> = {
  1: { id: 1, name: 'Alice Martin', status: 'active' },
  2: { id: 2, name: 'Bob Stone', status: 'active' },
  3: { id: 3, name: 'Smith, John', status: 'inactive' },
  6: { id: 6, name: "Dave O'Brien", status: 'active' },
  8: { id: 8, name: 'Frank_Under', status: 'active' },
};

describe('nested expansion', function () {
  const h = useApp();

  describe('depth 2', function () {
    it('has-many under has-many: users.posts.comments, in primary-key order', async function () {
      const rows = await h.rows('/api/users?filter[id]=1&fields=id&expand[posts]=p&p_fields=id&p_expand[comments]=c');
      const posts = asRows(asRow(rows[0]).posts);
      expect(idsOf(posts)).to.deep.equal([1, 2, 3, 11]);
      expect(posts.map((p) => p.comments)).to.deep.equal([
        [COMMENTS[1], COMMENTS[2], COMMENTS[3], COMMENTS[4], COMMENTS[5]],
        [],
        [COMMENTS[6], COMMENTS[7]],
        [COMMENTS[12]],
      ]);
    });

    it('belongs-to under has-many: users.posts.author', async function () {
      const rows = await h.rows('/api/users?filter[id]=2&fields=id&expand[posts]=p&p_fields=title&p_expand[author]=a&a_fields=name');
      expect(rows).to.deep.equal([
        {
          id: 2,
          posts: [
            { title: "Bob's Recipes", author: { name: 'Bob Stone' } },
            { title: 'Draft Ideas', author: { name: 'Bob Stone' } },
          ],
        },
      ]);
    });

    it('has-many under belongs-to: posts.author.posts', async function () {
      const rows = await h.rows('/api/posts?in[id]=7,9&fields=id&expand[author]=a&a_fields=id&a_expand[posts]=q&q_fields=id');
      expect(rows).to.deep.equal([
        { id: 7, author: { id: 6, posts: [{ id: 7 }, { id: 8 }] } },
        { id: 9, author: { id: 8, posts: [{ id: 9 }] } },
      ]);
    });

    it('has-one under belongs-to: posts.author.phone (null when there is none)', async function () {
      const rows = await h.rows('/api/posts?in[id]=1,6&fields=id&expand[author]=a&a_fields=id&a_expand[phone]');
      expect(rows).to.deep.equal([
        { id: 1, author: { id: 1, phone: { id: 1, number: '+1-555-0100' } } },
        { id: 6, author: { id: 3, phone: null } },
      ]);
    });

    it('many-to-many under belongs-to: posts.author.roles, through the join table', async function () {
      const rows = await h.rows('/api/posts?in[id]=1,4,6,10&fields=id&expand[author]=a&a_fields=id&a_expand[roles]=r&r_fields=name');
      expect(rows).to.deep.equal([
        { id: 1, author: { id: 1, roles: [{ name: 'admin' }, { name: 'editor' }] } },
        { id: 4, author: { id: 2, roles: [{ name: 'editor' }] } },
        { id: 6, author: { id: 3, roles: [{ name: 'viewer' }] } },
        { id: 10, author: { id: 11, roles: [] } },
      ]);
    });

    it('the same related record under several parents carries its nested records in each', async function () {
      // Comments 1 and 3 have the same author (2): one row, shown under both comments.
      const rows = await h.rows(
        '/api/posts?filter[id]=1&fields=id&expand[comments]=c&c_fields=id&c_in[id]=1,3' +
          '&c_expand[author]=a&a_fields=id&a_expand[posts]=q&q_fields=id',
      );
      expect(rows).to.deep.equal([
        {
          id: 1,
          comments: [
            { id: 1, author: { id: 2, posts: [{ id: 4 }, { id: 5 }] } },
            { id: 3, author: { id: 2, posts: [{ id: 4 }, { id: 5 }] } },
          ],
        },
      ]);
    });
  });

  describe('depth 3', function () {
    it('belongs-to under has-many under has-many: users.posts.comments.author', async function () {
      const rows = await h.rows(
        '/api/users?filter[id]=1&fields=id&expand[posts]=p&p_fields=id&p_expand[comments]=c&c_fields=id' + '&c_expand[author]=a',
      );
      const posts = asRows(asRow(rows[0]).posts);
      expect(posts.map((p) => asRows(p.comments).map((c) => c.author))).to.deep.equal([
        [AUTHORS[2], AUTHORS[3], AUTHORS[2], AUTHORS[6], AUTHORS[1]],
        [],
        [AUTHORS[8], AUTHORS[2]],
        [AUTHORS[3]],
      ]);
    });

    it('has-many at depth 3: posts.comments.author.posts', async function () {
      const rows = await h.rows(
        '/api/posts?filter[id]=3&fields=id&expand[comments]=c&c_fields=id&c_expand[author]=a&a_fields=id' +
          '&a_expand[posts]=q&q_fields=id',
      );
      expect(rows).to.deep.equal([
        {
          id: 3,
          comments: [
            { id: 6, author: { id: 8, posts: [{ id: 9 }] } },
            { id: 7, author: { id: 2, posts: [{ id: 4 }, { id: 5 }] } },
          ],
        },
      ]);
    });

    it('has-one at depth 3: posts.comments.author.phone', async function () {
      const rows = await h.rows(
        '/api/posts?filter[id]=3&fields=id&expand[comments]=c&c_fields=id&c_expand[author]=a&a_fields=id' + '&a_expand[phone]=ph',
      );
      expect(rows).to.deep.equal([
        {
          id: 3,
          comments: [
            { id: 6, author: { id: 8, phone: null } },
            { id: 7, author: { id: 2, phone: { id: 2, number: '+1-555-0200' } } },
          ],
        },
      ]);
    });

    it('many-to-many at depth 3: posts.comments.author.roles', async function () {
      const rows = await h.rows(
        '/api/posts?filter[id]=1&fields=id&expand[comments]=c&c_fields=id&c_expand[author]=a&a_fields=id' +
          '&a_expand[roles]=r&r_fields=id&r_sort[level]=desc',
      );
      const comments = asRows(asRow(rows[0]).comments);
      expect(comments.map((c) => [c.id, asRow(c.author).id, idsOf(asRows(asRow(c.author).roles))])).to.deep.equal([
        [1, 2, [2]],
        [2, 3, [3]],
        [3, 2, [2]],
        [4, 6, [1, 4]],
        [5, 1, [1, 2]],
      ]);
    });
  });

  describe('alias modifiers at every depth', function () {
    it('filter, sort and fields of a depth-2 alias choose its records, never the parents', async function () {
      const rows = await h.rows(
        '/api/users?in[id]=1,2&fields=id&expand[posts]=p&p_fields=id&p_expand[comments]=c' +
          '&c_fields=body&c_sort[created_at]=desc&c_filter[body]=<>Agreed',
      );
      expect(rows).to.deep.equal([
        {
          id: 1,
          posts: [
            // NULL first when descending; Nice post (4 April) before First! (3 April).
            { id: 1, comments: [{ body: 'No date' }, { body: 'Thanks all' }, { body: 'Nice post' }, { body: 'First!' }] },
            { id: 2, comments: [] },
            { id: 3, comments: [{ body: 'Helm or kustomize?' }, { body: 'Helm' }] },
            { id: 11, comments: [{ body: 'Zzz' }] },
          ],
        },
        {
          id: 2,
          posts: [
            { id: 4, comments: [{ body: 'Tasty' }] },
            { id: 5, comments: [] },
          ],
        },
      ]);
    });

    it('a depth-3 alias filters by its own relation options (comments.author allows status)', async function () {
      const rows = await h.rows(
        '/api/users?filter[id]=1&fields=id&expand[posts]=p&p_fields=id&p_in[id]=1&p_expand[comments]=c' +
          '&c_fields=id&c_expand[author]=a&a_fields=name&a_filter[status]=inactive',
      );
      expect(asRows(asRow(rows[0]).posts)[0]?.comments).to.deep.equal([
        { id: 1, author: null },
        { id: 2, author: { name: 'Smith, John' } },
        { id: 3, author: null },
        { id: 4, author: null },
        { id: 5, author: null },
      ]);
    });

    it('a nested alias checks fields against the nested relation options', async function () {
      // Comment.author shows id, name and status only: email is hidden there, though users show it.
      expectProblem(await h.get('/api/posts?expand[comments]=c&c_expand[author]=a&a_fields=email'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'a_fields',
        allowed: ['id', 'name', 'status'],
      });
      expectProblem(await h.get('/api/posts?expand[comments]=c&c_expand[author]=a&a_sort[status]'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'a_sort[status]',
        allowed: ['name'],
      });
    });

    it('join keys needed only by a nested expansion are not shown', async function () {
      const rows = await h.rows('/api/users?filter[id]=2&fields=name&expand[posts]=p&p_fields=title&p_expand[comments]=c&c_fields=body');
      expect(rows).to.deep.equal([
        {
          name: 'Bob Stone',
          posts: [
            { title: "Bob's Recipes", comments: [{ body: 'Tasty' }] },
            { title: 'Draft Ideas', comments: [] },
          ],
        },
      ]);
    });
  });

  describe('errors', function () {
    it('a nested relation the expanded model does not declare is UNKNOWN_RELATION listing its own', async function () {
      expectProblem(await h.get('/api/users?expand[posts]=p&p_expand[phone]=x'), {
        code: 'UNKNOWN_RELATION',
        parameter: 'p_expand[phone]',
        allowed: ['author', 'comments'],
      });
    });

    it('an alias is unique across levels: DUPLICATE_PARAMETER', async function () {
      expectProblem(await h.get('/api/users?expand[posts]=p&p_expand[comments]=p'), {
        code: 'DUPLICATE_PARAMETER',
        parameter: 'p_expand[comments]',
      });
      expectProblem(await h.get('/api/users?expand[posts]=p&p_expand[comments]=c&expand[roles]=c'), {
        code: 'DUPLICATE_PARAMETER',
        parameter: 'expand[roles]',
      });
      expectProblem(await h.get('/api/users?expand[posts]=p&p_expand[comments]=c&p_expand[author]=c'), {
        code: 'DUPLICATE_PARAMETER',
        parameter: 'p_expand[author]',
      });
    });

    it('the same nested key twice is DUPLICATE_PARAMETER', async function () {
      expectProblem(await h.get('/api/users?expand[posts]=p&p_expand[comments]=c&p_expand[comments]=d'), {
        code: 'DUPLICATE_PARAMETER',
        parameter: 'p_expand[comments]',
      });
    });

    it('an _expand behind an undeclared alias is UNKNOWN_ALIAS, even when two aliases declare each other', async function () {
      expectProblem(await h.get('/api/users?p_expand[comments]=c'), { code: 'UNKNOWN_ALIAS', parameter: 'p_expand[comments]' });
      expectProblem(await h.get('/api/users?expand[posts]&p_expand[comments]=c&c_fields=id'), {
        code: 'UNKNOWN_ALIAS',
        parameter: 'p_expand[comments]',
        errors: [
          { code: 'UNKNOWN_ALIAS', parameter: 'p_expand[comments]' },
          { code: 'UNKNOWN_ALIAS', parameter: 'c_fields' },
        ],
      });
      expectProblem(await h.get('/api/users?a_expand[posts]=b&b_expand[author]=a'), {
        code: 'UNKNOWN_ALIAS',
        parameter: 'a_expand[posts]',
        errors: [
          { code: 'UNKNOWN_ALIAS', parameter: 'a_expand[posts]' },
          { code: 'UNKNOWN_ALIAS', parameter: 'b_expand[author]' },
        ],
      });
    });

    it('a fourth level is LIMIT_EXCEEDED naming its key, with the depth allowed', async function () {
      expectProblem(await h.get('/api/users?expand[posts]=p&p_expand[comments]=c&c_expand[author]=a&a_expand[posts]=q'), {
        code: 'LIMIT_EXCEEDED',
        parameter: 'a_expand[posts]',
        allowed: 3,
      });
    });

    it('expansions at every depth count towards maxExpansions (5)', async function () {
      expectProblem(
        await h.get('/api/users?expand[posts]=p&p_expand[comments]=c&c_expand[author]=a&expand[phone]&expand[roles]' + '&p_expand[author]'),
        { code: 'LIMIT_EXCEEDED', parameter: 'p_expand[author]', allowed: 5 },
      );
    });
  });
});

describe('nested expansion: depth cap option and hooks at every depth', function () {
  const labels: string[] = [];
  const models: string[] = [];
  const scope = (_ctx: Context, label: string, query: ModelQuery): void => {
    labels.push(label);
    if (label === 'users.posts.comments') query.whereNot('comments.body', 'Agreed');
    if (label === 'users.posts.comments.author') query.where('users.status', 'active');
  };
  const scopeModel = (_ctx: Context, model: typeof Model, query: ModelQuery, label: string): void => {
    models.push(`${model.tableName}@${label}`);
    if (model.tableName === 'comments') query.whereNot('comments.body', 'First!');
  };
  const h = useApp({ scope, scopeModel, limits: { maxExpandDepth: 2 } });

  beforeEach(function () {
    labels.length = 0;
    models.length = 0;
  });

  it('calls scope with the path of each nested relation, and scopeModel at every depth', async function () {
    const rows = await h.rows('/api/users?filter[id]=1&fields=id&expand[posts]=p&p_fields=id&p_in[id]=1&p_expand[comments]=c&c_fields=id');
    expect(asRows(asRow(rows[0]).posts)[0]?.comments).to.deep.equal([{ id: 2 }, { id: 4 }, { id: 5 }]);
    expect(labels).to.deep.equal(['users', 'users.posts', 'users.posts.comments']);
    expect(models).to.deep.equal(['users@users', 'posts@users.posts', 'comments@users.posts.comments']);
  });

  it('limits.maxExpandDepth sets the cap', async function () {
    expectProblem(await h.get('/api/users?expand[posts]=p&p_expand[comments]=c&c_expand[author]=a'), {
      code: 'LIMIT_EXCEEDED',
      parameter: 'c_expand[author]',
      allowed: 2,
    });
  });
});
