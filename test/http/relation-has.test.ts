// `has[<relation>]=<alias>` and `has![<relation>]=<alias>`
// (docs/query-language.md, "has and has!: all conditions on one related record"): one related
// record satisfying all of the alias's conditions together, or none; the alias shared with
// `expand`, so the records shown are those that qualified; on every relation kind; hooks and
// `modify` inside.
//
// Fixture (see relation-paths.test.ts): user 1 has posts 1 "Hello World", 3, 11 (published) and
// 2 (draft); user 2 has 4 (published) and 5 (draft, 17 April); user 3 has 6 (archived); user 6 has
// 7, 8 "Hello Again" (published); user 8 has 9 (draft, 18 April); user 11 has 10 (published).

import { expect } from 'chai';
import type { Context } from 'koa';
import type { ModelQuery } from '../../plugin';
import { allUsersExcept, expectOk, idsOf, objectOf, relatedIds, useApp } from '../support/app';
import { expectProblem } from '../support/problems';
import { addRelationRows, relationCollections } from './relation-models';

describe('relation conditions: has and has!', function () {
  const h = useApp({ collections: relationCollections }, { prepare: addRelationRows });
  const users = (query: string) => h.userIds(`fields=id&${query}`);
  const ids = async (path: string) => idsOf(await h.rows(path));

  it('without an alias, or with an alias without conditions, any related record counts', async function () {
    expect(await users('has[posts]')).to.deep.equal([1, 2, 3, 6, 8, 11]);
    expect(await users('has[posts]=')).to.deep.equal([1, 2, 3, 6, 8, 11]);
    expect(await users('has![posts]')).to.deep.equal(allUsersExcept(1, 2, 3, 6, 8, 11));
    expect(await users('has[posts]=p&expand[posts]=p&p_fields=id')).to.deep.equal([1, 2, 3, 6, 8, 11]);
  });

  it("one related record must satisfy all of the alias's conditions together", async function () {
    // User 1 has a draft and a "Hello World" post, but they are two posts.
    expect(await users('filter[posts.status]=draft&filter[and posts.title]=Hello World')).to.deep.equal([1]);
    expect(await users('has[posts]=p&p_filter[status]=draft&p_filter[and title]=Hello World')).to.deep.equal([]);
    expect(await users('has[posts]=p&p_filter[status]=draft&p_filter[or title]=Hello World')).to.deep.equal([1, 2, 8]);
    // Posts 5 and 9 are drafts of 17 and 18 April.
    expect(await users('has[posts]=p&p_in[status]=draft&p_between[created_at]=2025-04-17,2025-04-18')).to.deep.equal([2, 8]);
    expect(await users('has[posts]=p&p_search[title]=hello&p_filter[status]=published')).to.deep.equal([1, 6]);
  });

  it('has! keeps the records with no such related record, those without any included', async function () {
    expect(await users('has![posts]=p&p_filter[status]=draft')).to.deep.equal(allUsersExcept(1, 2, 8));
    // Every post published: no post that is not.
    expect(await users('has![posts]=p&p_filter[status]=<>published')).to.deep.equal(allUsersExcept(1, 2, 3, 8));
  });

  it('is its own group, ANDed with the others', async function () {
    expect(await users('filter[id]=1&filter[or id]=8&filter[or id]=5&has[posts]=p&p_filter[status]=draft')).to.deep.equal([1, 8]);
    expect(await users('has[posts]&has![roles]')).to.deep.equal([11]);
    expect(await users('has[posts]=p&p_filter[status]=draft&has![posts]=q&q_filter[status]=published')).to.deep.equal([8]);
  });

  it('shares its alias with expand: the related records shown are the ones that qualified', async function () {
    const rows = await h.rows('/api/users?fields=id&has[posts]=p&expand[posts]=p&p_filter[status]=draft');
    expect(relatedIds(rows, 'posts')).to.deep.equal({ 1: [2], 2: [5], 8: [9] });
    const none = await h.rows('/api/users?fields=id&has![posts]=p&expand[posts]=p&p_filter[status]=draft&filter[id]=<4');
    expect(relatedIds(none, 'posts')).to.deep.equal({ 3: [] });
    // Declared first by expand, then by has: the same.
    const later = await h.rows(
      '/api/users?fields=id&expand[posts]=p&p_sort[id]=desc&p_filter[status]=published&has[posts]=p&filter[id]=<3',
    );
    expect(relatedIds(later, 'posts')).to.deep.equal({ 1: [11, 3, 1], 2: [4] });
  });

  it('every relation kind', async function () {
    expect(await users('has[roles]=r&r_filter[level]=>=5&r_filter[and name]=editor')).to.deep.equal([1, 2, 8]);
    expect(await users('has[phone]=ph&ph_filter[kind]=mobile')).to.deep.equal([1, 6]);
    expect(await users('has![phone]')).to.deep.equal(allUsersExcept(1, 2, 4, 6));
    expect(await users('has[firstRole]')).to.deep.equal([1, 2, 3, 6, 8]);
    expect(await users('has[firstRole]=f&f_filter[name]=viewer')).to.deep.equal([3, 8]);
    expect(await ids('/api/posts?fields=id&has[author]=a&a_filter[status]=inactive')).to.deep.equal([6]);
    // Phone 4's owner key is NULL: it has no owner.
    expect(await ids('/api/phones?fields=id&has![owner]')).to.deep.equal([4]);
    expect(await ids('/api/phones?fields=id&has[owner]=o&o_search[name]=alice')).to.deep.equal([1]);
  });

  it("the relation's modify, the join table's modify and a self-relation restrict what qualifies", async function () {
    expect(await users('has[publishedPosts]=p&p_filter[status]=draft')).to.deep.equal([]);
    expect(await users('has[firstRoleOnly]=r&r_filter[name]=editor')).to.deep.equal([]);
    expect(await users('has[mentees]=m&m_filter[status]=pending')).to.deep.equal([2]);
  });

  it("the envelope's total counts users, never posts", async function () {
    const res = await h.get('/api/users?fields=id&has[posts]&per-page=2&page=2');
    expectOk(res);
    expect(objectOf(res).total).to.equal(6);
  });

  describe('refused', function () {
    it('a relation that cannot be expanded is UNKNOWN_RELATION', async function () {
      expectProblem(await h.get('/api/users?has[nope]'), { code: 'UNKNOWN_RELATION', parameter: 'has[nope]' });
      expectProblem(await h.get('/api/users?has![posts.status]=p'), { code: 'UNKNOWN_RELATION', parameter: 'has![posts.status]' });
      expectProblem(await h.get('/api/users?has[__proto__]'), { code: 'UNKNOWN_RELATION', parameter: 'has[__proto__]' });
      expectProblem(await h.get('/api/roles?has[users]'), { code: 'UNKNOWN_RELATION', parameter: 'has[users]', allowed: [] });
    });

    it('an alias naming two relations, or has given twice, is DUPLICATE_PARAMETER', async function () {
      expectProblem(await h.get('/api/users?has[posts]=p&expand[roles]=p'), { code: 'DUPLICATE_PARAMETER', parameter: 'expand[roles]' });
      expectProblem(await h.get('/api/users?expand[roles]=p&has![posts]=p'), { code: 'DUPLICATE_PARAMETER', parameter: 'has![posts]' });
      expectProblem(await h.get('/api/users?has[posts]&has[posts]=p'), { code: 'DUPLICATE_PARAMETER', parameter: 'has[posts]' });
    });

    it('a bad alias, or shaping modifiers on an alias only has declares, is MALFORMED_PARAMETER', async function () {
      expectProblem(await h.get('/api/users?has[posts]=1x'), { code: 'MALFORMED_PARAMETER', parameter: 'has[posts]' });
      expectProblem(await h.get('/api/users?has[]'), { code: 'MALFORMED_PARAMETER', parameter: 'has[]' });
      expectProblem(await h.get('/api/users?has[posts]=p&p_sort[id]=desc'), { code: 'MALFORMED_PARAMETER', parameter: 'p_sort[id]' });
      expectProblem(await h.get('/api/users?has[posts]=p&p_fields=id'), { code: 'MALFORMED_PARAMETER', parameter: 'p_fields' });
      expectProblem(await h.get('/api/users?has[posts]=p&p_page=2'), { code: 'MALFORMED_PARAMETER', parameter: 'p_page' });
    });

    it("alias conditions follow the relation's lists and types; an undeclared alias is UNKNOWN_ALIAS", async function () {
      expectProblem(await h.get('/api/users?has[posts]=p&p_filter[id]=x'), { code: 'INVALID_VALUE', parameter: 'p_filter[id]' });
      expectProblem(await h.get('/api/users?has[posts]=p&p_search[status]=x'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'p_search[status]',
        allowed: ['title'],
      });
      expectProblem(await h.get('/api/users?has[posts]&p_filter[id]=1'), { code: 'UNKNOWN_ALIAS', parameter: 'p_filter[id]' });
    });

    it('each has counts as a clause for limits.maxClauses (50)', async function () {
      const clauses = Array.from({ length: 48 }, (_, i) => `filter[or id]=${i}`).join('&');
      expectOk(await h.get(`/api/users?${clauses}&has[posts]&has![roles]`));
      expectProblem(await h.get(`/api/users?${clauses}&has[posts]&has![roles]&has[phone]`), { code: 'LIMIT_EXCEEDED' });
    });
  });
});

describe("relation conditions: has under the host's hooks", function () {
  const scope = (ctx: Context, label: string, query: ModelQuery): void => {
    if (label === 'users.posts') query.where('posts.status', '<>', 'draft');
  };
  const h = useApp({ collections: relationCollections, scope }, { prepare: addRelationRows });

  it('a related record the scope hook hides never qualifies, and is not shown', async function () {
    expect(await h.userIds('fields=id&has[posts]=p&p_filter[status]=draft')).to.deep.equal([]);
    expect(await h.userIds('fields=id&has[posts]')).to.deep.equal([1, 2, 3, 6, 11]);
    const rows = await h.rows('/api/users?fields=id&has[posts]=p&expand[posts]=p&filter[id]=<3');
    expect(relatedIds(rows, 'posts')).to.deep.equal({ 1: [1, 3, 11], 2: [4] });
  });
});
