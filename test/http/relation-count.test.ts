// `count[<relation>]` and `count[<relation>]=<alias>`
// (docs/query-language.md, "Counting related records"): `<relation>_count` after a record's fields
// and before its expansions, of the related records satisfying the alias's conditions; usable in
// sort and as an integer field in filter, in and between in the same request; restricted by modify
// and the hooks; refused on to-one relations; checked at start-up.
//
// Fixture (see relation-paths.test.ts): posts per user: 1 -> 4 (one draft), 2 -> 2 (one draft),
// 3 -> 1 (archived), 6 -> 2, 8 -> 1 (draft), 11 -> 1, every other user none. Roles: user 1 admin +
// editor, 2 editor, 3 viewer, 6 admin + auditor, 8 editor + viewer. Mentees: user 1 -> 3 and 4, 2 -> 5.

import { expect } from 'chai';
import type { Context } from 'koa';
import { queryModifiers, type ModelQuery } from '../../plugin';
import type { ModelClass } from '../../plugin/schema';
import { allUsersExcept, expectOk, idsOf, objectOf, useApp } from '../support/app';
import { expectProblem } from '../support/problems';
import { addRelationRows, Member, relationCollections } from './relation-models';

type Counts = Record<number, unknown>;

/** id -> the named count of every record. */
function countsOf(rows: readonly Record<string, unknown>[], name: string): Counts {
  return Object.fromEntries(rows.map((row) => [Number(row.id), row[name]]));
}

const zeros = (except: readonly number[]): Counts => Object.fromEntries(allUsersExcept(...except).map((id) => [id, 0]));

describe('relation counts', function () {
  const h = useApp({ collections: relationCollections }, { prepare: addRelationRows });

  it('adds <relation>_count after the fields and before the expansions', async function () {
    const rows = await h.rows('/api/users?fields=name,id&count[posts]&expand[phone]=ph&ph_fields=kind&filter[id]=<3');
    expect(rows).to.deep.equal([
      { name: 'Alice Martin', id: 1, posts_count: 4, phone: { kind: 'mobile' } },
      { name: 'Bob Stone', id: 2, posts_count: 2, phone: { kind: 'home' } },
    ]);
    const all = await h.rows('/api/users?fields=id&count[posts]&count[roles]');
    expect(countsOf(all, 'posts_count')).to.deep.equal({ ...zeros([1, 2, 3, 6, 8, 11]), 1: 4, 2: 2, 3: 1, 6: 2, 8: 1, 11: 1 });
    expect(countsOf(all, 'roles_count')).to.deep.equal({ ...zeros([1, 2, 3, 6, 8]), 1: 2, 2: 1, 3: 1, 6: 2, 8: 2 });
    expect(Object.keys(all[0] ?? {})).to.deep.equal(['id', 'posts_count', 'roles_count']);
  });

  it('with an alias counts the related records satisfying its conditions', async function () {
    const rows = await h.rows('/api/users?fields=id&count[posts]=p&p_filter[status]=published&in[id]=1,2,3,4');
    expect(countsOf(rows, 'posts_count')).to.deep.equal({ 1: 3, 2: 1, 3: 0, 4: 0 });
    const searched = await h.rows('/api/users?fields=id&count[posts]=p&p_search[title]=hello&in[id]=1,6');
    expect(countsOf(searched, 'posts_count')).to.deep.equal({ 1: 1, 6: 1 });
  });

  it('shares its alias with expand and has: the count is the number of records shown', async function () {
    const rows = await h.rows('/api/users?fields=id&count[posts]=p&expand[posts]=p&p_filter[status]=draft&has[posts]=p');
    expect(rows.map((r) => [r.id, r.posts_count, (r.posts as unknown[]).length])).to.deep.equal([
      [1, 1, 1],
      [2, 1, 1],
      [8, 1, 1],
    ]);
  });

  it('sorts by a count, the primary key breaking ties', async function () {
    expect(await h.userIds('fields=id&count[posts]&sort[posts_count]=desc')).to.deep.equal([
      1,
      2,
      6,
      3,
      8,
      11,
      ...allUsersExcept(1, 2, 3, 6, 8, 11),
    ]);
    expect(await h.userIds('fields=id&count[roles]&sort[roles_count]&sort[id]=desc&filter[id]=<9')).to.deep.equal([7, 5, 4, 3, 2, 8, 6, 1]);
  });

  it('filters on a count as an integer field, with every family and prefix', async function () {
    expect(await h.userIds('fields=id&count[posts]&filter[posts_count]=>=2')).to.deep.equal([1, 2, 6]);
    expect(await h.userIds('fields=id&count[posts]&in[posts_count]=1,4')).to.deep.equal([1, 3, 8, 11]);
    expect(await h.userIds('fields=id&count[posts]&between[posts_count]=1,2')).to.deep.equal([2, 3, 6, 8, 11]);
    expect(await h.userIds('fields=id&count[posts]&filter[id]=<3&filter[or posts_count]=1')).to.deep.equal([1, 2, 3, 8, 11]);
    expect(await h.userIds('fields=id&count[posts]&filter[and! posts_count]=0')).to.deep.equal([1, 2, 3, 6, 8, 11]);
    expect(await h.userIds('fields=id&count[posts]&filter[posts_count]=null')).to.deep.equal([]);
    // A count with alias conditions filters on that count.
    expect(await h.userIds('fields=id&count[posts]=p&p_filter[status]=draft&filter[posts_count]=1')).to.deep.equal([1, 2, 8]);
  });

  it("the envelope's total counts the records its filter keeps", async function () {
    const res = await h.get('/api/users?fields=id&count[posts]&filter[posts_count]=>0&sort[posts_count]=desc&per-page=2&page=2');
    expectOk(res);
    const body = objectOf(res);
    expect(body.total).to.equal(6);
    expect(idsOf(body.data as Record<string, unknown>[])).to.deep.equal([6, 3]);
  });

  it('modify, through.modify and a self-relation restrict what is counted', async function () {
    const rows = await h.rows('/api/users?fields=id&count[publishedPosts]&count[firstRoleOnly]&count[mentees]&in[id]=1,2,6');
    expect(rows).to.deep.equal([
      { id: 1, publishedPosts_count: 3, firstRoleOnly_count: 1, mentees_count: 2 },
      { id: 2, publishedPosts_count: 1, firstRoleOnly_count: 0, mentees_count: 1 },
      { id: 6, publishedPosts_count: 2, firstRoleOnly_count: 1, mentees_count: 0 },
    ]);
  });

  describe('refused', function () {
    it('count of a to-one relation is MALFORMED_PARAMETER; of an unknown one UNKNOWN_RELATION', async function () {
      for (const key of ['count[phone]', 'count[firstRole]', 'count[mentor]']) {
        expectProblem(await h.get(`/api/users?${key}`), { code: 'MALFORMED_PARAMETER', parameter: key });
      }
      expectProblem(await h.get('/api/posts?count[author]'), { code: 'MALFORMED_PARAMETER', parameter: 'count[author]' });
      expectProblem(await h.get('/api/users?count[nope]'), { code: 'UNKNOWN_RELATION', parameter: 'count[nope]' });
    });

    it('<relation>_count without count[<relation>] is FIELD_NOT_ALLOWED, and it is not a field for fields or search', async function () {
      expectProblem(await h.get('/api/users?filter[posts_count]=1'), { code: 'FIELD_NOT_ALLOWED', parameter: 'filter[posts_count]' });
      expectProblem(await h.get('/api/users?count[roles]&sort[posts_count]'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'sort[posts_count]',
      });
      expectProblem(await h.get('/api/users?count[posts]&search[posts_count]=1'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'search[posts_count]',
      });
      expectProblem(await h.get('/api/users?count[posts]&fields=id,posts_count'), { code: 'FIELD_NOT_ALLOWED', parameter: 'fields' });
      const res = await h.get('/api/users?count[posts]&filter[nope]=1');
      expect(objectOf(res).allowed).to.include('posts_count');
    });

    it('a count is an integer: other values are INVALID_VALUE', async function () {
      expectProblem(await h.get('/api/users?count[posts]&filter[posts_count]=many'), {
        code: 'INVALID_VALUE',
        parameter: 'filter[posts_count]',
      });
      expectProblem(await h.get('/api/users?count[posts]&between[posts_count]=1,2.5'), {
        code: 'INVALID_VALUE',
        parameter: 'between[posts_count]',
      });
    });

    it('repeated, or an alias naming another relation, is DUPLICATE_PARAMETER; shaping a count alias is MALFORMED_PARAMETER', async function () {
      expectProblem(await h.get('/api/users?count[posts]&count[posts]=p'), { code: 'DUPLICATE_PARAMETER', parameter: 'count[posts]' });
      expectProblem(await h.get('/api/users?count[posts]=p&count[roles]=p'), { code: 'DUPLICATE_PARAMETER', parameter: 'count[roles]' });
      expectProblem(await h.get('/api/users?count[posts]=p&p_sort[id]'), { code: 'MALFORMED_PARAMETER', parameter: 'p_sort[id]' });
    });
  });
});

describe("relation counts under the host's hooks", function () {
  const scope = (ctx: Context, label: string, query: ModelQuery): void => {
    if (label === 'users.posts') query.where('posts.status', '<>', 'draft');
  };
  const scopeModel = (ctx: Context, model: ModelClass, query: ModelQuery): void => {
    if (model.tableName === 'roles') query.where('roles.level', '<', 10);
  };
  const h = useApp({ collections: relationCollections, scope, scopeModel }, { prepare: addRelationRows });

  it('a related record a hook hides is never counted, in the value, the filter and the total', async function () {
    const rows = await h.rows('/api/users?fields=id&count[posts]&count[roles]&in[id]=1,6,8');
    expect(rows).to.deep.equal([
      { id: 1, posts_count: 3, roles_count: 1 },
      { id: 6, posts_count: 2, roles_count: 1 },
      { id: 8, posts_count: 0, roles_count: 2 },
    ]);
    const res = await h.get('/api/users?fields=id&count[posts]&filter[posts_count]=>0&per-page=2&page=2');
    expectOk(res);
    expect(objectOf(res).total).to.equal(5);
  });
});

describe('relation counts: start-up', function () {
  const h = useApp({ collections: relationCollections }, { prepare: addRelationRows });

  it('a to-many relation whose count would collide with a field fails at start-up', async function () {
    class Clashing extends Member {
      static override virtualAttributes = ['posts_count'];
    }
    let failure: unknown;
    try {
      await queryModifiers({ knex: h.db.knex, collections: { users: Clashing } });
    } catch (error) {
      failure = error;
    }
    expect(String(failure)).to.contain('count[posts] would add "posts_count", which is already a field of Clashing');
  });
});
