// Dot paths in conditions (docs/query-language.md, "Relations in conditions"):
// `filter[posts.status]`, `in[roles.name]`, `between[posts.created_at]`, `search[name,posts.title]`
// on every relation kind, with logical prefixes and negation, NULL foreign keys, values checked
// against the related column, and the relation's `modify`, the join table's `modify` and a
// self-relation inside the subquery.
//
// Fixture (test/support/fixture.ts, plus relation-models.ts): user 1 has posts 1, 3, 11 (published)
// and 2 (draft); user 2 has 4 (published), 5 (draft); user 3 has 6 (archived);
// user 6 has 7, 8 (published); user 8 has 9 (draft); user 11 has 10 (published). Roles: user 1 admin
// + editor, 2 editor, 3 viewer, 6 admin + auditor, 8 editor + viewer. Phones: 1 (user 1, mobile),
// 2 (user 2, home), 3 (user 6, mobile), 4 (no user), 5 (user 4, no kind).

import { expect } from 'chai';
import type { Context } from 'koa';
import type { ModelClass } from '../../plugin/schema';
import type { ModelQuery } from '../../plugin';
import { allUsersExcept, idsOf, objectOf, useApp, expectOk } from '../support/app';
import { expectProblem } from '../support/problems';
import { addRelationRows, relationCollections } from './relation-models';

describe('relation conditions: dot paths', function () {
  const h = useApp({ collections: relationCollections, admin: {} }, { prepare: addRelationRows });
  const users = (query: string) => h.userIds(`fields=id&${query}`);
  const ids = async (path: string) => idsOf(await h.rows(path));

  describe('has-many (users.posts)', function () {
    it('filter, in, between and search keep users with at least one such post', async function () {
      expect(await users('filter[posts.status]=draft')).to.deep.equal([1, 2, 8]);
      expect(await users('in[posts.status]=archived,draft')).to.deep.equal([1, 2, 3, 8]);
      // Posts 3, 5 (17 April, 23:59:59.999999), 7 and 9 (18 April): whole days
      // (docs/query-language.md, "Dates against timestamp columns").
      expect(await users('between[posts.created_at]=2025-04-17,2025-04-18')).to.deep.equal([1, 2, 6, 8]);
      expect(await users('search[posts.title]=hello')).to.deep.equal([1, 6]);
    });

    it('<> and null apply to the related record: a user without posts has none that differs', async function () {
      expect(await users('filter[posts.status]=<>draft')).to.deep.equal([1, 2, 3, 6, 11]);
      expect(await users('filter[posts.status]=null')).to.deep.equal([]);
      expect(await users('filter[posts.status]=<>null')).to.deep.equal([1, 2, 3, 6, 8, 11]);
    });

    it('negated means no such post, so users without posts are kept', async function () {
      expect(await users('filter[and! posts.status]=draft')).to.deep.equal(allUsersExcept(1, 2, 8));
      expect(await users('in[and! posts.status]=draft,archived')).to.deep.equal(allUsersExcept(1, 2, 3, 8));
    });

    it('"every post is published" is "no post is not published" (users without posts included)', async function () {
      expect(await users('filter[and! posts.status]=<>published')).to.deep.equal(allUsersExcept(1, 2, 3, 8));
    });

    it('each clause is its own EXISTS: two clauses may be met by two different posts', async function () {
      // User 1's draft is post 2, its "Hello World" post 1.
      expect(await users('filter[posts.status]=draft&filter[and posts.title]=Hello World')).to.deep.equal([1]);
    });

    it("takes its place in its family's group with every logical prefix", async function () {
      expect(await users('filter[id]=<3&filter[or posts.status]=archived')).to.deep.equal([1, 2, 3]);
      expect(await users('filter[posts.status]=draft&filter[and! posts.status]=published')).to.deep.equal([8]);
      expect(await users('filter[posts.status]=draft&filter[and id]=>1')).to.deep.equal([2, 8]);
      // or! : user 1, or users with no post that is not a draft.
      expect(await users('filter[id]=1&filter[or! posts.status]=<>draft')).to.deep.equal(allUsersExcept(2, 3, 6, 11));
      // The word on a group's first clause is ignored; its `!` is not
      // (docs/query-language.md, "Logical prefixes and how clauses group").
      expect(await users('filter[or! posts.status]=draft&filter[and id]=<5')).to.deep.equal([3, 4]);
      expect(await users('in[posts.status]=draft&in[or roles.name]=auditor')).to.deep.equal([1, 2, 6, 8]);
    });

    it("a search may mix the collection's fields and related fields: any of them matches", async function () {
      expect(await users('search[name,posts.title]=hello')).to.deep.equal([1, 6]);
      expect(await users('search[name,posts.title]=bob')).to.deep.equal([2]);
      expect(await users('search[posts.title,roles.name]=audit')).to.deep.equal([6]);
      // Several searches are ANDed.
      expect(await users('search[posts.title]=hello&search[name]=dave')).to.deep.equal([6]);
    });

    it("the envelope's total counts users, never posts", async function () {
      const res = await h.get('/api/users?fields=id&filter[posts.status]=published&per-page=2&page=2');
      expectOk(res);
      const body = objectOf(res);
      expect(body.total).to.equal(4);
      expect(idsOf(body.data as Record<string, unknown>[])).to.deep.equal([6, 11]);
    });
  });

  describe('many-to-many (users.roles)', function () {
    it('every family, through the join table', async function () {
      expect(await users('filter[roles.level]=>=5')).to.deep.equal([1, 2, 6, 8]);
      expect(await users('in[roles.name]=viewer,auditor')).to.deep.equal([3, 6, 8]);
      expect(await users('between[roles.level]=2,4')).to.deep.equal([6]);
      expect(await users('search[roles.name]=*or')).to.deep.equal([1, 2, 6, 8]);
      expect(await users('filter[and! roles.name]=admin')).to.deep.equal(allUsersExcept(1, 6));
    });
  });

  describe('has-one (users.phone) and has-one-through (users.firstRole)', function () {
    it('a has-one relation: at least one phone satisfies it', async function () {
      expect(await users('filter[phone.kind]=mobile')).to.deep.equal([1, 6]);
      expect(await users('filter[and! phone.kind]=mobile')).to.deep.equal(allUsersExcept(1, 6));
      expect(await users('search[phone.number]=%2B1*')).to.deep.equal([1, 2, 4]);
    });

    it('null means a phone whose kind is NULL, not "no phone"', async function () {
      expect(await users('filter[phone.kind]=null')).to.deep.equal([4]);
      expect(await users('filter[phone.kind]=<>null')).to.deep.equal([1, 2, 6]);
    });

    it('a has-one-through relation goes through the join table', async function () {
      expect(await users('filter[firstRole.name]=auditor')).to.deep.equal([6]);
      expect(await users('in[firstRole.level]=1,3')).to.deep.equal([3, 6, 8]);
      expect(await users('between[and! firstRole.level]=1,100')).to.deep.equal(allUsersExcept(1, 2, 3, 6, 8));
    });
  });

  describe('belongs-to (posts.author, phones.owner)', function () {
    it('every family on the record the foreign key points to', async function () {
      expect(await ids('/api/posts?fields=id&filter[author.status]=inactive')).to.deep.equal([6]);
      expect(await ids('/api/posts?fields=id&in[author.id]=2,11')).to.deep.equal([4, 5, 10]);
      expect(await ids('/api/posts?fields=id&between[author.id]=3,8')).to.deep.equal([6, 7, 8, 9]);
      expect(await ids('/api/posts?fields=id&search[title,author.name]=o*')).to.deep.equal([]);
      // Names ending in n: Alice Martin (1), Smith, John (3), Dave O'Brien (6).
      expect(await ids('/api/posts?fields=id&search[title,author.name]=*n')).to.deep.equal([1, 2, 3, 6, 7, 8, 11]);
    });

    it('a NULL foreign key points to no record: it satisfies no clause, so every negated one', async function () {
      expect(await ids('/api/phones?fields=id&filter[owner.status]=active')).to.deep.equal([1, 2, 3, 5]);
      expect(await ids('/api/phones?fields=id&filter[and! owner.status]=active')).to.deep.equal([4]);
      expect(await ids('/api/phones?fields=id&filter[owner.status]=null')).to.deep.equal([]);
      expect(await ids('/api/phones?fields=id&filter[and! owner.id]=>0')).to.deep.equal([4]);
    });
  });

  describe('what restricts the relation restricts its subquery', function () {
    it("the relation mapping's modify: publishedPosts never holds a draft", async function () {
      expect(await users('filter[publishedPosts.status]=draft')).to.deep.equal([]);
      expect(await users('filter[and! publishedPosts.id]=>0')).to.deep.equal(allUsersExcept(1, 2, 6, 11));
    });

    it("the join table's through.modify: firstRoleOnly reaches role 1 only", async function () {
      expect(await users('filter[firstRoleOnly.name]=editor')).to.deep.equal([]);
      expect(await users('filter[firstRoleOnly.name]=admin')).to.deep.equal([1, 6]);
    });

    it('a self-relation correlates the related user, not the parent', async function () {
      // User 1 mentors 3 (inactive) and 4 (active); user 2 mentors 5 (pending).
      expect(await users('filter[mentees.status]=pending')).to.deep.equal([2]);
      expect(await users('filter[mentees.id]=>0')).to.deep.equal([1, 2]);
      expect(await users('filter[mentor.status]=active')).to.deep.equal([3, 4, 5]);
      expect(await users('filter[and! mentees.status]=<>active&filter[and mentees.id]=>0')).to.deep.equal([]);
    });
  });

  it('_meta lists exactly the dot paths, has and count relations the API accepts', async function () {
    const related = objectOf(await h.get('/api/_meta/users')).related as Record<string, string[]>;
    expect(related.sortable).to.deep.equal([
      'phone.number',
      'phone.kind',
      'firstRole.id',
      'firstRole.name',
      'firstRole.level',
      'mentor.name',
      'mentor.status',
    ]);
    expect(related.searchable).to.deep.equal(['posts.title', 'phone.number', 'roles.name']);
    expect(related.countable).to.deep.equal(['posts', 'roles', 'publishedPosts', 'firstRoleOnly', 'mentees']);
    expect(related.has).to.have.length(8);
    for (const path of related.filterable ?? []) expectOk(await h.get(`/api/users?fields=id&filter[${path}]=null`));
    for (const path of related.sortable ?? []) expectOk(await h.get(`/api/users?fields=id&sort[${path}]`));
    for (const path of related.searchable ?? []) expectOk(await h.get(`/api/users?fields=id&search[${path}]=x`));
    for (const name of related.countable ?? []) expectOk(await h.get(`/api/users?fields=id&count[${name}]`));
    for (const name of related.has ?? []) expectOk(await h.get(`/api/users?fields=id&has![${name}]`));
    expectProblem(await h.get('/api/users?filter[posts.secret_note]=null'), {
      code: 'FIELD_NOT_ALLOWED',
      parameter: 'filter[posts.secret_note]',
    });
    expect(related.filterable).to.not.include('posts.secret_note');
  });

  describe('refused', function () {
    it("values are checked against the related column's type", async function () {
      expectProblem(await h.get('/api/users?filter[posts.id]=abc'), { code: 'INVALID_VALUE', parameter: 'filter[posts.id]' });
      expectProblem(await h.get('/api/users?between[roles.level]=1,x'), { code: 'INVALID_VALUE', parameter: 'between[roles.level]' });
      expectProblem(await h.get('/api/users?filter[posts.created_at]=>null'), {
        code: 'INVALID_VALUE',
        parameter: 'filter[posts.created_at]',
      });
    });

    it("a field outside the relation's list names that relation's dot paths", async function () {
      expectProblem(await h.get('/api/users?search[posts.status]=x'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'search[posts.status]',
        allowed: ['posts.title'],
      });
      expectProblem(await h.get('/api/users?filter[phone.id]=1'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'filter[phone.id]',
        allowed: ['phone.kind', 'phone.number'],
      });
      expectProblem(await h.get('/api/posts?filter[author.name]=x'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'filter[author.name]',
        allowed: ['author.id', 'author.status'],
      });
    });

    it('an unknown relation, two levels, a relation that is not expandable: FIELD_NOT_ALLOWED', async function () {
      for (const key of ['filter[nope.id]', 'filter[posts.author.status]', 'in[posts.]', 'filter[.id]']) {
        const res = await h.get(`/api/users?${key}=1`);
        expectProblem(res, { code: 'FIELD_NOT_ALLOWED', parameter: key });
      }
      expectProblem(await h.get('/api/roles?filter[users.id]=1'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'filter[users.id]',
        allowed: [],
      });
    });

    it('alias modifiers and fields take no dot paths', async function () {
      expectProblem(await h.get('/api/users?expand[posts]=p&p_filter[posts.id]=1'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'p_filter[posts.id]',
      });
      expectProblem(await h.get('/api/posts?expand[author]=a&a_filter[author.status]=active'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'a_filter[author.status]',
      });
      expectProblem(await h.get('/api/users?fields=id,posts.title'), { code: 'FIELD_NOT_ALLOWED', parameter: 'fields' });
    });

    it('each relation a clause or search reaches counts for limits.maxClauses (50)', async function () {
      const clauses = Array.from({ length: 48 }, (_, i) => `filter[or posts.id]=${i}`).join('&');
      expectOk(await h.get(`/api/users?${clauses}&search[name,email]=x`));
      expectProblem(await h.get(`/api/users?${clauses}&search[name,posts.title,roles.name]=x`), { code: 'LIMIT_EXCEEDED' });
    });
  });
});

describe("relation conditions: the host's hooks restrict every subquery", function () {
  const labels: string[] = [];
  const scope = (ctx: Context, label: string, query: ModelQuery): void => {
    labels.push(label);
    if (label === 'users.posts') query.where('posts.status', '<>', 'draft');
    // Names the related table by its name, as the docs say: inside a self-relation's subquery that is the mentee.
    if (label === 'users.mentees') query.where('users.status', 'active');
  };
  const scopeModel = async (ctx: Context, model: ModelClass, query: ModelQuery): Promise<void> => {
    await new Promise((resolveSoon) => setTimeout(resolveSoon, 1));
    // The admin role is hidden wherever roles are read.
    if (model.tableName === 'roles') query.where('roles.level', '<', 10);
  };
  const h = useApp({ collections: relationCollections, scope, scopeModel }, { prepare: addRelationRows });
  const users = (query: string) => h.userIds(`fields=id&${query}`);

  beforeEach(function () {
    labels.length = 0;
  });

  it('the scope hook for <collection>.<relation>: a hidden post never qualifies a user', async function () {
    expect(await users('filter[posts.status]=draft')).to.deep.equal([]);
    expect(labels).to.deep.equal(['users.posts', 'users']);
    // User 8's only post is a draft: it has no visible post, so "no post" holds.
    expect(await users('filter[and! posts.id]=>0')).to.deep.equal(allUsersExcept(1, 2, 3, 6, 11));
    expect(await users('search[name,posts.title]=draft')).to.deep.equal([]);
  });

  it('scopeModel: a role hidden everywhere is hidden inside conditions too', async function () {
    expect(await users('filter[roles.name]=admin')).to.deep.equal([]);
    expect(await users('filter[firstRole.name]=admin')).to.deep.equal([]);
    expect(await users('in[roles.name]=admin,auditor')).to.deep.equal([6]);
    expect(await users('filter[and! roles.level]=>0')).to.deep.equal(allUsersExcept(1, 2, 3, 6, 8));
  });

  it('a hook naming the related table restricts the related users of a self-relation, not the parent', async function () {
    // Mentees: 3 (inactive) and 4 (active) of user 1, 5 (pending) of user 2; only 4 is visible.
    expect(await users('filter[mentees.id]=>0')).to.deep.equal([1]);
    expect(await users('filter[mentees.status]=inactive')).to.deep.equal([]);
  });

  it('the count behind the envelope is restricted the same way', async function () {
    const res = await h.get('/api/users?fields=id&filter[roles.level]=>0&per-page=1&page=2');
    expectOk(res);
    // Admins hidden: users 1 (editor), 2 (editor), 3 (viewer), 6 (auditor), 8 (editor, viewer).
    expect(objectOf(res).total).to.equal(5);
  });
});
