// `sort[<relation>.<field>]` on to-one relations
// (docs/query-language.md, "Sorting by a related record"): belongs-to, has-one and has-one-through,
// a record without a related record (or whose related record a hook hides) sorting as NULL, the
// primary-key tie-breaker after it, and never a repeated or lost record.
//
// Fixture (see relation-paths.test.ts): posts 1, 2, 3, 11 by user 1 (Alice Martin), 4, 5 by 2 (Bob
// Stone), 6 by 3 (Smith, John), 7, 8 by 6 (Dave O'Brien), 9 by 8 (Frank_Under), 10 by 11 (Ivan
// Petrov). Phones: 1 (user 1, mobile), 2 (user 2, home), 3 (user 6, mobile), 4 (no user), 5 (user
// 4, no kind). Roles (level): user 1 admin (10) + editor (5), 2 editor, 3 viewer (1), 6 admin +
// auditor (3), 8 editor + viewer; the first role of a user is the one with the lowest id.

import { expect } from 'chai';
import type { Context } from 'koa';
import type { ModelQuery } from '../../plugin';
import type { ModelClass } from '../../plugin/schema';
import { allUsersExcept, expectOk, idsOf, objectOf, useApp } from '../support/app';
import { walkBack, walkForward } from '../support/cursor-walk';
import { expectProblem } from '../support/problems';
import { addRelationRows, relationCollections } from './relation-models';

const others = (...first: number[]): number[] => allUsersExcept(...first);

describe('relation sort: a field of a to-one relation', function () {
  const h = useApp({ collections: relationCollections }, { prepare: addRelationRows });
  const ids = async (path: string) => idsOf(await h.rows(path));

  it("belongs-to: posts by their author's field, the primary key breaking ties", async function () {
    expect(await ids('/api/posts?fields=id&sort[author.id]=desc')).to.deep.equal([10, 9, 7, 8, 6, 4, 5, 1, 2, 3, 11]);
    expect(await ids('/api/posts?fields=id&sort[author.name]')).to.deep.equal([1, 2, 3, 11, 4, 5, 7, 8, 9, 10, 6]);
    expect(await ids('/api/posts?fields=id&sort[author.status]=desc&sort[id]=desc')).to.deep.equal([6, 11, 10, 9, 8, 7, 5, 4, 3, 2, 1]);
  });

  it('a record without a related record sorts as NULL: last ascending, first descending', async function () {
    // Phone 4 has no owner.
    expect(await ids('/api/phones?fields=id&sort[owner.name]')).to.deep.equal([1, 2, 3, 5, 4]);
    expect(await ids('/api/phones?fields=id&sort[owner.name]=desc')).to.deep.equal([4, 5, 3, 2, 1]);
    // Users without a phone, and user 4 whose phone has no kind, are NULL.
    expect(await h.userIds('fields=id&sort[phone.kind]')).to.deep.equal([2, 1, 6, ...others(1, 2, 6)]);
    expect(await h.userIds('fields=id&sort[phone.kind]=desc')).to.deep.equal([...others(1, 2, 6), 1, 6, 2]);
  });

  it('cursor pages follow the same order forward and back, NULLs included', async function () {
    for (const query of [
      '/api/phones?fields=id&sort[owner.name]=desc',
      '/api/users?fields=id&sort[phone.kind]',
      '/api/posts?fields=id&sort[author.name]',
    ]) {
      const all = await h.rows(`${query}&limit=1000`);
      const forward = await walkForward((p) => h.get(p), `${query}&per-page=2&cursor=`);
      expect(forward.records, query).to.deep.equal(all);
      const last = forward.pages[forward.pages.length - 1];
      if (last === undefined) return expect.fail('no page');
      expect((await walkBack((p) => h.get(p), last)).records, `${query}, back`).to.deep.equal(all);
    }
  });

  it('has-one-through: the first related record (lowest id), as expand shows it', async function () {
    expect(await h.userIds('fields=id&sort[firstRole.level]')).to.deep.equal([3, 2, 8, 1, 6, ...others(1, 2, 3, 6, 8)]);
    const rows = await h.rows('/api/users?fields=id&in[id]=1,8&expand[firstRole]=f&f_fields=name');
    expect(rows).to.deep.equal([
      { id: 1, firstRole: { name: 'admin' } },
      { id: 8, firstRole: { name: 'editor' } },
    ]);
  });

  it("a self-relation: users by their mentor's name", async function () {
    expect(await h.userIds('fields=id&sort[mentor.name]')).to.deep.equal([3, 4, 5, ...others(3, 4, 5)]);
  });

  it('pages hold every record once, and the total counts records', async function () {
    const pages: number[] = [];
    for (const page of [1, 2, 3, 4]) {
      const res = await h.get(`/api/posts?fields=id&sort[author.name]=desc&per-page=3&page=${page}`);
      expectOk(res);
      const body = objectOf(res);
      expect(body.total).to.equal(11);
      pages.push(...idsOf(body.data as Record<string, unknown>[]));
    }
    expect(pages).to.deep.equal([6, 10, 9, 7, 8, 4, 5, 1, 2, 3, 11]);
  });

  describe('refused', function () {
    it("a field outside the relation's sortable list lists the sortable dot paths", async function () {
      expectProblem(await h.get('/api/posts?sort[author.email]'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'sort[author.email]',
        allowed: ['author.name', 'author.status', 'author.id'],
      });
    });

    it('a to-many relation sorts by its count, not by a field', async function () {
      expectProblem(await h.get('/api/users?sort[posts.id]'), { code: 'FIELD_NOT_ALLOWED', parameter: 'sort[posts.id]', allowed: [] });
      expectProblem(await h.get('/api/users?sort[roles.name]=desc'), { code: 'FIELD_NOT_ALLOWED', parameter: 'sort[roles.name]' });
    });

    it('an alias sort takes no dot path; a repeated sort key is DUPLICATE_PARAMETER', async function () {
      expectProblem(await h.get('/api/users?expand[posts]=p&p_sort[author.name]'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'p_sort[author.name]',
      });
      expectProblem(await h.get('/api/posts?sort[author.name]&sort[author.name]=desc'), {
        code: 'DUPLICATE_PARAMETER',
        parameter: 'sort[author.name]',
      });
      expectProblem(await h.get('/api/posts?sort[nope.name]'), { code: 'FIELD_NOT_ALLOWED', parameter: 'sort[nope.name]' });
    });
  });
});

describe('relation sort: a related record the hooks hide sorts as NULL', function () {
  const scope = (ctx: Context, label: string, query: ModelQuery): void => {
    if (label === 'posts.author') query.where('users.status', '<>', 'inactive');
  };
  const scopeModel = (ctx: Context, model: ModelClass, query: ModelQuery): void => {
    if (model.tableName === 'roles') query.where('roles.level', '<', 10);
  };
  const h = useApp({ collections: relationCollections, scope, scopeModel }, { prepare: addRelationRows });

  it("the scope hook for posts.author: post 6's author (inactive) is hidden", async function () {
    expect(idsOf(await h.rows('/api/posts?fields=id&sort[author.id]'))).to.deep.equal([1, 2, 3, 11, 4, 5, 7, 8, 9, 10, 6]);
  });

  it('scopeModel: with admin roles hidden, the first visible role decides', async function () {
    // User 1: editor (5); user 6: auditor (3).
    expect(await h.userIds('fields=id&sort[firstRole.level]')).to.deep.equal([3, 6, 1, 2, 8, ...others(1, 2, 3, 6, 8)]);
  });
});
