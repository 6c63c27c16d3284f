// Owns the demo's Objection models (User, Post, Comment, Phone, Role) and their query-modifier declarations:
// which fields each modifier may use and which relations may be expanded.
import { Model, type RelationMappings } from 'objection';
import type { ExpandableRelation } from '../../plugin';

const ALL = ['*'];
const EVERYTHING = { projectable_fields: ALL, sortable_fields: ALL, filterable_fields: ALL };

// Properties use `declare` so that class-field semantics (ES2022) do not overwrite what Objection sets.
export class User extends Model {
  declare id: number;
  declare name: string;
  declare email: string;
  declare email_verified_at: Date | null;
  declare created_at: Date;
  declare updated_at: Date;
  declare status: string;
  declare role: string;
  declare score: string | null;
  declare is_admin: boolean;
  declare birthday: string | null;
  declare posts?: Post[];
  declare phone?: Phone | null;
  declare roles?: Role[];

  static override get tableName(): string {
    return 'users';
  }

  static getProjectableFields(): string[] {
    return ['id', 'name', 'email', 'email_verified_at', 'created_at', 'updated_at', 'status', 'role', 'score', 'is_admin', 'birthday'];
  }

  static getSortableFields(): string[] {
    return ['*'];
  }

  static getSearchableFields(): string[] {
    return ['name', 'email', 'status', 'role'];
  }

  static getFilterableFields(): string[] {
    return ['*'];
  }

  /** What the admin UI calls these fields; the others are shown humanised (`created_at` -> "Created at"). */
  static getFieldLabels(): Record<string, string> {
    return { is_admin: 'Administrator', email_verified_at: 'Email verified on' };
  }

  static getExpandableRelations(): Record<string, ExpandableRelation> {
    return {
      posts: { options: { ...EVERYTHING, searchable_fields: ['title', 'body'] }, table: 'posts', fk: 'user_id' },
      phone: { options: { ...EVERYTHING, searchable_fields: ['number', 'kind'] }, table: 'phones', fk: 'user_id' },
      roles: { options: { ...EVERYTHING, searchable_fields: ['name', 'description'] }, table: 'roles', fk: 'user_id' },
    };
  }

  static override get relationMappings(): RelationMappings {
    return {
      posts: {
        relation: Model.HasManyRelation,
        modelClass: Post,
        join: { from: 'users.id', to: 'posts.user_id' },
      },
      phone: {
        relation: Model.HasOneRelation,
        modelClass: Phone,
        join: { from: 'users.id', to: 'phones.user_id' },
      },
      roles: {
        relation: Model.ManyToManyRelation,
        modelClass: Role,
        join: {
          from: 'users.id',
          through: { from: 'user_roles.user_id', to: 'user_roles.role_id' },
          to: 'roles.id',
        },
      },
    };
  }
}

export class Post extends Model {
  declare id: number;
  declare user_id: number;
  declare title: string;
  declare body: string | null;
  declare status: 'draft' | 'published' | 'archived';
  declare views: number;
  declare created_at: Date;
  declare author?: User;
  declare comments?: Comment[];

  static override get tableName(): string {
    return 'posts';
  }

  static getSearchableFields(): string[] {
    return ['title', 'body', 'status'];
  }

  /** `match` searches titles (weight A) and bodies (weight B) in English; schema.ts creates the GIN index. */
  static getFullTextSearch(): { language: string; fields: Record<string, 'A' | 'B' | 'C' | 'D'> } {
    return { language: 'english', fields: { title: 'A', body: 'B' } };
  }

  static getExpandableRelations(): Record<string, ExpandableRelation> {
    return {
      author: {
        options: { ...EVERYTHING, searchable_fields: ['name', 'email'] },
        table: 'users',
        fk: 'user_id',
      },
      comments: {
        options: { ...EVERYTHING, searchable_fields: ['body'] },
        table: 'comments',
        fk: 'post_id',
      },
    };
  }

  static override get relationMappings(): RelationMappings {
    return {
      author: {
        relation: Model.BelongsToOneRelation,
        modelClass: User,
        join: { from: 'posts.user_id', to: 'users.id' },
      },
      comments: {
        relation: Model.HasManyRelation,
        modelClass: Comment,
        join: { from: 'posts.id', to: 'comments.post_id' },
      },
    };
  }
}

/** Reached only through `posts.comments` (not a collection of its own): nested expansion's worked example. */
export class Comment extends Model {
  declare id: number;
  declare post_id: number;
  declare author_id: number;
  declare body: string;
  declare created_at: Date;
  declare author?: User;

  static override get tableName(): string {
    return 'comments';
  }

  static getSearchableFields(): string[] {
    return ['body'];
  }

  static getExpandableRelations(): Record<string, ExpandableRelation> {
    return {
      author: {
        options: {
          projectable_fields: ['id', 'name', 'email', 'status', 'role'],
          sortable_fields: ['id', 'name'],
          searchable_fields: ['name', 'email'],
          filterable_fields: ['id', 'status', 'role'],
        },
        table: 'users',
        fk: 'author_id',
      },
    };
  }

  static override get relationMappings(): RelationMappings {
    return {
      author: {
        relation: Model.BelongsToOneRelation,
        modelClass: User,
        join: { from: 'comments.author_id', to: 'users.id' },
      },
    };
  }
}

export class Phone extends Model {
  declare id: number;
  declare user_id: number | null;
  declare number: string;
  declare kind: string | null;

  static override get tableName(): string {
    return 'phones';
  }
}

export class Role extends Model {
  declare id: number;
  declare name: string;
  declare description: string | null;
  declare users?: User[];

  static override get tableName(): string {
    return 'roles';
  }

  static getExpandableRelations(): Record<string, ExpandableRelation> {
    return {
      users: {
        options: {
          projectable_fields: ['id', 'name', 'email', 'status', 'role'],
          sortable_fields: ['id', 'name', 'email'],
          searchable_fields: ['name', 'email'],
          filterable_fields: ['*'],
        },
        table: 'users',
        fk: 'role_id',
      },
    };
  }

  static override get relationMappings(): RelationMappings {
    return {
      users: {
        relation: Model.ManyToManyRelation,
        modelClass: User,
        join: {
          from: 'roles.id',
          through: { from: 'user_roles.role_id', to: 'user_roles.user_id' },
          to: 'users.id',
        },
      },
    };
  }
}

/** The demo's collections, as `queryModifiers()` and `koa-query-modifiers indexes --models` take them. */
export const collections = { users: User, posts: Post, phones: Phone, roles: Role };
