// Models over the fixture's tables whose own JSON removes one field and masks another
// (docs/configuration.md, "What your model's JSON hides or masks"), as a host redacts a password
// hash and an e-mail address, and a table whose uuid key the model's JSON removes. Every list is
// `'*'` or names the fields outright, so nothing but the model's JSON keeps them from the
// modifiers.

import type { Knex } from 'knex';
import { Model, type Pojo, type RelationMappings } from 'objection';

const every = { projectable_fields: ['*'], sortable_fields: ['*'], searchable_fields: ['*'], filterable_fields: ['*'] };

/** `alice@example.com` -> `a***@example.com`. */
export const maskEmail = (email: string): string => email.replace(/^(.)[^@]*/, '$1***');

/** `Hello World` -> `Hel…`. */
export const maskTitle = (title: string): string => `${title.slice(0, 3)}…`;

export class SecretUser extends Model {
  static override tableName = 'users';

  override $formatJson(json: Pojo): Pojo {
    const formatted = super.$formatJson(json);
    delete formatted.password_hash;
    if (typeof formatted.email === 'string') formatted.email = maskEmail(formatted.email);
    return formatted;
  }

  static getExpandableRelations(): Record<string, unknown> {
    return { posts: { options: every } };
  }

  static override get relationMappings(): RelationMappings {
    return { posts: { relation: Model.HasManyRelation, modelClass: SecretPost, join: { from: 'users.id', to: 'posts.user_id' } } };
  }
}

export class SecretPost extends Model {
  static override tableName = 'posts';

  override $formatJson(json: Pojo): Pojo {
    const formatted = super.$formatJson(json);
    delete formatted.secret_note;
    if (typeof formatted.title === 'string') formatted.title = maskTitle(formatted.title);
    return formatted;
  }

  static getExpandableRelations(): Record<string, unknown> {
    return { author: { options: every } };
  }

  static override get relationMappings(): RelationMappings {
    return { author: { relation: Model.BelongsToOneRelation, modelClass: SecretUser, join: { from: 'posts.user_id', to: 'users.id' } } };
  }
}

/** Keys sorted: ...01 < ...02 < ...; `n` is shown, the key never. */
export const tokenRows: readonly { readonly id: string; readonly label: string; readonly n: number }[] = [
  { id: '00000000-0000-4000-8000-000000000005', label: 'a', n: 1 },
  { id: '00000000-0000-4000-8000-000000000002', label: 'b', n: 2 },
  { id: '00000000-0000-4000-8000-000000000004', label: 'a', n: 3 },
  { id: '00000000-0000-4000-8000-000000000001', label: 'b', n: 4 },
  { id: '00000000-0000-4000-8000-000000000003', label: 'a', n: 5 },
];

/** A uuid key the model's JSON removes: the sort's tie-breaker, never shown. */
export class Token extends Model {
  static override tableName = 'tokens';

  override $formatJson(json: Pojo): Pojo {
    const formatted = super.$formatJson(json);
    delete formatted.id;
    return formatted;
  }
}

export async function createTokens(knex: Knex): Promise<void> {
  await knex.raw('create table tokens (id uuid primary key, label text not null, n integer not null)');
  await knex('tokens').insert([...tokenRows].reverse());
}

export const secretCollections = { users: SecretUser, posts: SecretPost, tokens: Token };
