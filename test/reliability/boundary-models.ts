// The differential app's host models that keep fields private in their own JSON
// (docs/configuration.md, "What your model's JSON hides or masks"): over the users table a member
// whose password hash is removed and e-mail masked, over the posts table an article whose secret
// note is removed and title masked, each relating to the other and declaring '*' everywhere, so
// only their JSON keeps those fields from the modifiers.

import { Model, type Pojo, type RelationMappings } from 'objection';

const every = { projectable_fields: ['*'], sortable_fields: ['*'], searchable_fields: ['*'], filterable_fields: ['*'] };

export class Member extends Model {
  static override tableName = 'users';

  override $formatJson(json: Pojo): Pojo {
    const formatted = super.$formatJson(json);
    delete formatted.password_hash;
    if (typeof formatted.email === 'string') formatted.email = formatted.email.replace(/^(.)[^@]*/, '$1***');
    return formatted;
  }

  static getExpandableRelations(): Record<string, unknown> {
    return { posts: { options: every } };
  }

  static override get relationMappings(): RelationMappings {
    return { posts: { relation: Model.HasManyRelation, modelClass: Article, join: { from: 'users.id', to: 'posts.user_id' } } };
  }
}

export class Article extends Model {
  static override tableName = 'posts';

  override $formatJson(json: Pojo): Pojo {
    const formatted = super.$formatJson(json);
    delete formatted.secret_note;
    if (typeof formatted.title === 'string') formatted.title = `${formatted.title.slice(0, 3)}…`;
    return formatted;
  }

  static getExpandableRelations(): Record<string, unknown> {
    return { author: { options: every } };
  }

  static override get relationMappings(): RelationMappings {
    return { author: { relation: Model.BelongsToOneRelation, modelClass: Member, join: { from: 'posts.user_id', to: 'users.id' } } };
  }
}

export const boundaryCollections = { members: Member, articles: Article };
