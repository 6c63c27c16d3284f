// The host's own models. Account keeps its uuid key and password hash private and masks the
// e-mail address in its own JSON, declaring nothing else (every list is '*'). User and Post are the
// README's example.
import { Model, snakeCaseMappers, type Pojo } from 'objection';

export class Account extends Model {
  static override tableName = 'accounts';

  static override get columnNameMappers() {
    return snakeCaseMappers();
  }

  override $formatJson(json: Pojo) {
    const formatted = super.$formatJson(json);
    delete formatted.id;
    delete formatted.passwordHash;
    if (typeof formatted.email === 'string') formatted.email = formatted.email.replace(/^(.)[^@]*/, '$1***');
    return formatted;
  }
}

export class User extends Model {
  static override tableName = 'users';
  static getProjectableFields() {
    return ['id', 'name', 'email', 'status', 'role', 'created_at'];
  }
  static getSearchableFields() {
    return ['name', 'email'];
  }
  static getExpandableRelations() {
    return { posts: { options: { projectable_fields: ['*'], sortable_fields: ['*'], filterable_fields: ['status'] } } };
  }
  static override get relationMappings() {
    return { posts: { relation: Model.HasManyRelation, modelClass: Post, join: { from: 'users.id', to: 'posts.user_id' } } };
  }
}

export class Post extends Model {
  static override tableName = 'posts';
}
