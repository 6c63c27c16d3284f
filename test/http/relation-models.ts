// Models for the relation-condition suites (docs/query-language.md, "Relations in conditions"): the
// fixture's models with every relation kind declared for conditions, a relation `modify`, a join
// table `through.modify`, a self-relation, and a belongs-to whose foreign key may be NULL. The rows
// they need beyond the fixture are added by `addRelationRows`.

import type { Knex } from 'knex';
import { Model, type AnyQueryBuilder, type RelationMappings } from 'objection';
import { Phone, Post, Role, User } from '../support/fixture';

const all = { projectable_fields: ['*'], sortable_fields: ['*'], filterable_fields: ['*'] };

export class Member extends User {
  static override getExpandableRelations(): Record<string, unknown> {
    return {
      posts: { options: { ...all, sortable_fields: ['id', 'title', 'created_at'], searchable_fields: ['title'] } },
      phone: {
        options: {
          projectable_fields: ['id', 'number', 'kind'],
          sortable_fields: ['number', 'kind'],
          filterable_fields: ['kind', 'number'],
          searchable_fields: ['number'],
        },
      },
      roles: { options: { ...all, searchable_fields: ['name'] } },
      firstRole: { options: { ...all } },
      publishedPosts: { options: { ...all, sortable_fields: ['id'] } },
      firstRoleOnly: { options: { ...all } },
      mentees: { options: { projectable_fields: ['id', 'name', 'status'], filterable_fields: ['id', 'status'] } },
      mentor: {
        options: { projectable_fields: ['id', 'name', 'status'], sortable_fields: ['name', 'status'], filterable_fields: ['status'] },
      },
    };
  }

  static override get relationMappings(): RelationMappings {
    const roleJoin = { from: 'users.id', through: { from: 'role_user.user_id', to: 'role_user.role_id' }, to: 'roles.id' };
    return {
      posts: { relation: Model.HasManyRelation, modelClass: Post, join: { from: 'users.id', to: 'posts.user_id' } },
      phone: { relation: Model.HasOneRelation, modelClass: Handset, join: { from: 'users.id', to: 'phones.user_id' } },
      roles: { relation: Model.ManyToManyRelation, modelClass: Role, join: roleJoin },
      firstRole: { relation: Model.HasOneThroughRelation, modelClass: Role, join: roleJoin },
      publishedPosts: {
        relation: Model.HasManyRelation,
        modelClass: Post,
        join: { from: 'users.id', to: 'posts.user_id' },
        modify: (query: AnyQueryBuilder) => {
          query.where('posts.status', 'published');
        },
      },
      firstRoleOnly: {
        relation: Model.ManyToManyRelation,
        modelClass: Role,
        join: {
          ...roleJoin,
          through: {
            ...roleJoin.through,
            modify: (query: AnyQueryBuilder) => {
              query.where('role_user.role_id', 1);
            },
          },
        },
      },
      mentees: { relation: Model.HasManyRelation, modelClass: Member, join: { from: 'users.id', to: 'users.mentor_id' } },
      mentor: { relation: Model.BelongsToOneRelation, modelClass: Member, join: { from: 'users.mentor_id', to: 'users.id' } },
    };
  }
}

export class Handset extends Phone {
  static getExpandableRelations(): Record<string, unknown> {
    return {
      owner: {
        options: {
          projectable_fields: ['id', 'name', 'status'],
          sortable_fields: ['name', 'status'],
          filterable_fields: ['id', 'status'],
          searchable_fields: ['name'],
        },
      },
    };
  }

  static override get relationMappings(): RelationMappings {
    return { owner: { relation: Model.BelongsToOneRelation, modelClass: Member, join: { from: 'phones.user_id', to: 'users.id' } } };
  }
}

export class Article extends Post {
  static override getExpandableRelations(): Record<string, unknown> {
    return {
      author: {
        options: {
          projectable_fields: ['id', 'name', 'status'],
          sortable_fields: ['name', 'status', 'id'],
          filterable_fields: ['id', 'status'],
          searchable_fields: ['name'],
        },
      },
    };
  }

  static override get relationMappings(): RelationMappings {
    return { author: { relation: Model.BelongsToOneRelation, modelClass: Member, join: { from: 'posts.user_id', to: 'users.id' } } };
  }
}

export const relationCollections = { users: Member, posts: Article, phones: Handset, roles: Role };

/**
 * Beyond the fixture: phone 4 belongs to nobody (a NULL foreign key), phone 5 (user 4) has no kind;
 * users 3 (inactive) and 4 (active) are mentored by user 1, user 5 (pending) by user 2.
 */
export async function addRelationRows(knex: Knex): Promise<void> {
  await knex.raw('alter table phones alter column user_id drop not null, alter column kind drop not null');
  await knex.raw('alter table users add column mentor_id integer null references users(id)');
  await knex('phones').insert([
    { id: 4, user_id: null, number: '+0-000', kind: 'spare' },
    { id: 5, user_id: 4, number: '+1-555-0400', kind: null },
  ]);
  await knex('users').whereIn('id', [3, 4]).update({ mentor_id: 1 });
  await knex('users').where('id', 5).update({ mentor_id: 2 });
}
