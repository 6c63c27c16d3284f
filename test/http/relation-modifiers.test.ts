// A relation mapping's own `modify` (and a join table's `through.modify`) restricts what an
// expansion returns, exactly as it restricts Objection's own relation queries: a host that maps
// `publishedPosts` must never see drafts through expand[publishedPosts].

import { expect } from 'chai';
import { Model, type AnyQueryBuilder, type RelationMappings } from 'objection';
import { relatedIds, useApp } from '../support/app';
import { Phone, Post, Role, User } from '../support/fixture';

class Author extends User {
  static override getExpandableRelations(): Record<string, unknown> {
    return {
      publishedPosts: { options: { projectable_fields: ['id', 'title', 'status'], sortable_fields: ['id'] } },
      seniorRoles: { options: { projectable_fields: ['id', 'name', 'level'] } },
      firstRoleOnly: { options: { projectable_fields: ['id', 'name'] } },
    };
  }

  static override get relationMappings(): RelationMappings {
    return {
      publishedPosts: {
        relation: Model.HasManyRelation,
        modelClass: Post,
        join: { from: 'users.id', to: 'posts.user_id' },
        modify: (query: AnyQueryBuilder) => {
          query.where('posts.status', 'published');
        },
      },
      seniorRoles: {
        relation: Model.ManyToManyRelation,
        modelClass: Role,
        join: { from: 'users.id', through: { from: 'role_user.user_id', to: 'role_user.role_id' }, to: 'roles.id' },
        modify: (query: AnyQueryBuilder) => {
          query.where('roles.level', '>=', 5);
        },
      },
      firstRoleOnly: {
        relation: Model.ManyToManyRelation,
        modelClass: Role,
        join: {
          from: 'users.id',
          through: {
            from: 'role_user.user_id',
            to: 'role_user.role_id',
            modify: (query: AnyQueryBuilder) => {
              query.where('role_user.role_id', 1);
            },
          },
          to: 'roles.id',
        },
      },
    };
  }
}

describe('relation mapping modifiers', function () {
  const h = useApp({ collections: { users: Author, posts: Post, phones: Phone, roles: Role } });

  it('a has-many relation with `modify` returns only the rows it allows', async function () {
    // User 1 has posts 1, 2 (draft), 3 and 11; user 2 has 4 and 5 (draft).
    const res = await h.rows('/api/users?in[id]=1,2&expand[publishedPosts]=p&p_sort[id]=asc');
    expect(relatedIds(res, 'publishedPosts')).to.deep.equal({ 1: [1, 3, 11], 2: [4] });
  });

  it('a many-to-many relation with `modify` filters the related rows', async function () {
    // role_user: user 1 -> admin(10), editor(5); user 6 -> admin, auditor(3); user 3 -> viewer(1).
    const res = await h.rows('/api/users?in[id]=1,3,6&expand[seniorRoles]=r');
    expect(relatedIds(res, 'seniorRoles')).to.deep.equal({ 1: [1, 2], 3: [], 6: [1] });
  });

  it('a join table `through.modify` filters the join rows', async function () {
    const res = await h.rows('/api/users?in[id]=1,2,6&expand[firstRoleOnly]=r');
    expect(relatedIds(res, 'firstRoleOnly')).to.deep.equal({ 1: [1], 2: [], 6: [1] });
  });
});
