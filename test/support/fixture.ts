// The HTTP suites' own small, hand-written fixture: tables, rows and Objection models.
// Values are chosen so every expected result in the tests can be worked out by reading this file.

import { Knex } from 'knex';
import { Model, RelationMappings } from 'objection';

/** Column order of `users` on purpose differs from the projectable list's order (docs/query-language.md, "fields and fields!"). */
const schema: readonly string[] = [
  `create table users (
     id serial primary key,
     name text not null,
     email text not null,
     password_hash text not null,
     email_verified_at timestamptz null,
     created_at timestamptz not null,
     updated_at timestamptz not null,
     status text null,
     role text null,
     score numeric(6,2) null,
     active boolean null,
     birthday date null,
     visits bigint not null default 0
   )`,
  `create table posts (
     id serial primary key,
     user_id integer not null references users(id),
     title text not null,
     status text not null,
     created_at timestamptz not null,
     secret_note text null
   )`,
  `create table comments (
     id serial primary key,
     post_id integer not null references posts(id),
     author_id integer not null references users(id),
     body text not null,
     created_at timestamptz null
   )`,
  `create table phones (
     id serial primary key,
     user_id integer not null references users(id),
     number text not null,
     kind text not null
   )`,
  `create table roles (
     id serial primary key,
     name text not null,
     level integer not null
   )`,
  `create table role_user (
     user_id integer not null references users(id),
     role_id integer not null references roles(id),
     primary key (user_id, role_id)
   )`,
];

interface UserRow {
  id: number;
  name: string;
  email: string;
  password_hash: string;
  email_verified_at: string | null;
  created_at: string;
  updated_at: string;
  status: string | null;
  role: string | null;
  score: string | null;
  active: boolean | null;
  birthday: string | null;
  visits: string;
}

type UserTuple = [
  number,
  string,
  string,
  string | null,
  string,
  string | null,
  string | null,
  string | null,
  boolean | null,
  string | null,
  string,
];

const UPDATED = '2025-05-10T00:00:00Z';

// id, name, email, email_verified_at, created_at, status, role, score, active, birthday, visits
const userTuples: readonly UserTuple[] = [
  [
    1,
    'Alice Martin',
    'alice@example.com',
    '2025-04-17T01:19:49.123456Z',
    '2025-04-01T08:00:00Z',
    'active',
    'admin',
    '95.50',
    true,
    '1990-01-15',
    '120',
  ],
  [2, 'Bob Stone', 'bob@example.com', null, '2025-04-05T12:00:00Z', 'active', 'editor', '72.25', true, '1985-06-30', '45'],
  [
    3,
    'Smith, John',
    'john.smith@example.com',
    '2025-03-01T00:00:00.000001Z',
    '2025-04-10T09:30:00Z',
    'inactive',
    'viewer',
    '50.00',
    false,
    null,
    '0',
  ],
  [4, 'Jane "JJ" Doe', 'jane@example.com', null, '2025-04-16T23:59:59.999999Z', 'active', 'viewer', null, true, '2000-02-29', '7'],
  [
    5,
    'carol king',
    'CAROL@Example.COM',
    '2025-04-17T00:00:00Z',
    '2025-04-17T00:00:00Z',
    'pending',
    'editor',
    '88.75',
    false,
    '1979-12-31',
    '3',
  ],
  [
    6,
    "Dave O'Brien",
    'dave@example.com',
    null,
    '2025-04-17T01:19:49.123456Z',
    'active',
    'admin',
    '60.00',
    true,
    '1992-07-04',
    '9007199254740993',
  ],
  [7, 'Eve 100% Real', 'eve_real@example.com', null, '2025-04-17T12:00:00.5Z', 'banned', 'viewer', '0.00', false, null, '0'],
  [
    8,
    'Frank_Under',
    'frank@example.com',
    '2025-04-18T09:00:00Z',
    '2025-04-17T23:59:59.999999Z',
    'active',
    'editor',
    '100.00',
    true,
    '1995-05-05',
    '88',
  ],
  [9, 'Grace \\ Slash', 'grace@example.com', null, '2025-04-18T00:00:00Z', 'inactive', 'admin', '33.33', null, '1988-08-08', '12'],
  [10, 'Heidi *Star*', 'heidi@example.com', null, '2025-04-20T10:00:00Z', null, null, '45.00', true, '2001-01-01', '1'],
  [
    11,
    'Ivan Petrov',
    'ivan@example.net',
    '2025-04-21T06:30:00Z',
    '2025-04-25T00:00:00Z',
    'active',
    'viewer',
    '72.25',
    true,
    '1990-01-15',
    '30',
  ],
  [12, 'Judy Null', 'judy@example.com', null, '2025-04-26T00:00:00Z', 'null', 'viewer', '12.00', false, null, '5'],
  [13, 'Mallory', 'mallory@example.org', null, '2025-05-01T00:00:00Z', 'inactive', 'editor', '10.50', false, '1970-01-01', '2'],
  [14, 'Niaj', 'niaj@example.com', null, '2025-03-31T23:59:59.999999Z', 'active', 'viewer', '61.00', true, null, '0'],
  [
    15,
    'Olivia >x',
    'olivia@example.com',
    '2025-04-02T00:00:00Z',
    '2025-04-02T10:00:00Z',
    'active',
    'admin',
    '99.99',
    true,
    '1999-09-09',
    '15',
  ],
  [16, 'Peggy', 'peggy@example.com', null, '2025-04-03T00:00:00Z', 'pending', null, null, null, null, '0'],
  [17, 'Quentin', 'quentin@example.com', null, '2025-04-04T00:00:00Z', 'active', 'viewer', '55.00', true, '1991-03-03', '4'],
  [18, 'Rupert', 'rupert@example.com', null, '2025-04-06T00:00:00Z', 'inactive', 'viewer', '20.00', false, '1980-04-04', '6'],
  [19, 'Sybil', 'sybil@example.com', null, '2025-04-07T00:00:00Z', 'active', 'editor', '80.00', true, '1993-11-11', '8'],
  [20, 'Trent', 'trent@example.com', null, '2025-04-08T00:00:00Z', 'banned', 'editor', '5.00', false, null, '0'],
  [21, 'Uma', 'uma@example.com', null, '2025-04-09T00:00:00Z', 'active', 'viewer', '65.00', true, '1994-12-12', '10'],
  [22, 'Victor', 'victor@example.com', null, '2025-04-11T00:00:00Z', 'pending', 'admin', '70.00', false, null, '11'],
  [23, 'Walter', 'walter@example.com', null, '2025-04-12T00:00:00Z', 'active', 'viewer', '40.00', true, '1996-06-06', '13'],
];

export const USER_COUNT = userTuples.length;

const users: readonly UserRow[] = userTuples.map(([id, name, email, verified, created, status, role, score, active, birthday, visits]) => ({
  id,
  name,
  email,
  password_hash: `hash-${id}-secret`,
  email_verified_at: verified,
  created_at: created,
  updated_at: id === 1 ? '2025-05-10T12:34:56.654321Z' : UPDATED,
  status,
  role,
  score,
  active,
  birthday,
  visits,
}));

// id, user_id, title, status, created_at
const posts: readonly [number, number, string, string, string][] = [
  [1, 1, 'Hello World', 'published', '2025-04-02T10:00:00Z'],
  [2, 1, 'Second Thoughts', 'draft', '2025-04-03T10:00:00Z'],
  [3, 1, 'Kubernetes Tips', 'published', '2025-04-17T08:00:00Z'],
  [4, 2, "Bob's Recipes", 'published', '2025-04-06T10:00:00Z'],
  [5, 2, 'Draft Ideas', 'draft', '2025-04-17T23:59:59.999999Z'],
  [6, 3, "John's Journal", 'archived', '2025-04-11T10:00:00Z'],
  [7, 6, 'Irish Stew', 'published', '2025-04-18T00:00:00Z'],
  [8, 6, 'Hello Again', 'published', '2025-04-19T10:00:00Z'],
  [9, 8, 'Underscore_Title', 'draft', '2025-04-18T12:00:00Z'],
  [10, 11, 'Moscow Nights', 'published', '2025-04-26T10:00:00Z'],
  [11, 1, 'Zebra Notes', 'published', '2025-04-16T10:00:00Z'],
];

// id, post_id, author_id, body, created_at: ties (2 and 3, 6 and 7) and NULL dates (4, 9) on purpose.
const comments: readonly [number, number, number, string, string | null][] = [
  [1, 1, 2, 'First!', '2025-04-03T00:00:00Z'],
  [2, 1, 3, 'Nice post', '2025-04-04T00:00:00Z'],
  [3, 1, 2, 'Agreed', '2025-04-04T00:00:00Z'],
  [4, 1, 6, 'No date', null],
  [5, 1, 1, 'Thanks all', '2025-04-05T00:00:00Z'],
  [6, 3, 8, 'Helm or kustomize?', '2025-04-18T00:00:00Z'],
  [7, 3, 2, 'Helm', '2025-04-18T00:00:00Z'],
  [8, 4, 1, 'Tasty', '2025-04-07T00:00:00Z'],
  [9, 7, 11, 'Needs more potatoes', null],
  [10, 7, 6, 'Fair', '2025-04-19T00:00:00Z'],
  [11, 10, 1, 'Beautiful', '2025-04-27T00:00:00Z'],
  [12, 11, 3, 'Zzz', '2025-04-16T12:00:00Z'],
];

const phones: readonly [number, number, string, string][] = [
  [1, 1, '+1-555-0100', 'mobile'],
  [2, 2, '+1-555-0200', 'home'],
  [3, 6, '+353-1-555', 'mobile'],
];

const roles: readonly [number, string, number][] = [
  [1, 'admin', 10],
  [2, 'editor', 5],
  [3, 'viewer', 1],
  [4, 'auditor', 3],
];

const roleUser: readonly [number, number][] = [
  [1, 1],
  [1, 2],
  [2, 2],
  [3, 3],
  [6, 1],
  [6, 4],
  [8, 2],
  [8, 3],
];

/**
 * Creates the tables and inserts every row. Rows go in newest first, so a table scan returns them in
 * descending id order: a response that comes back in id order was ordered by the plugin, not by luck.
 */
export async function loadFixture(knex: Knex): Promise<void> {
  for (const statement of schema) await knex.raw(statement);
  await knex('users').insert(users.map((u) => ({ ...u })).reverse());
  await knex('posts').insert(
    posts
      .map(([id, user_id, title, status, created_at]) => ({ id, user_id, title, status, created_at, secret_note: `secret of post ${id}` }))
      .reverse(),
  );
  await knex('comments').insert(
    comments.map(([id, post_id, author_id, body, created_at]) => ({ id, post_id, author_id, body, created_at })).reverse(),
  );
  await knex('phones').insert(phones.map(([id, user_id, number, kind]) => ({ id, user_id, number, kind })).reverse());
  await knex('roles').insert(roles.map(([id, name, level]) => ({ id, name, level })).reverse());
  await knex('role_user').insert(roleUser.map(([user_id, role_id]) => ({ user_id, role_id })).reverse());
}

/** The projectable fields of `users`, in declaration order (not the table's order). */
export const USER_FIELDS: readonly string[] = [
  'id',
  'name',
  'email',
  'status',
  'role',
  'score',
  'active',
  'birthday',
  'visits',
  'email_verified_at',
  'created_at',
  'updated_at',
];

export const POST_FIELDS: readonly string[] = ['id', 'user_id', 'title', 'status', 'created_at'];

/** What `posts.comments` shows of the author of a comment. */
export const COMMENT_AUTHOR_FIELDS: readonly string[] = ['id', 'name', 'status'];

export class User extends Model {
  static override tableName = 'users';

  static getProjectableFields(): string[] {
    return [...USER_FIELDS];
  }

  static getExpandableRelations(): Record<string, unknown> {
    return {
      posts: {
        options: {
          projectable_fields: ['*'],
          sortable_fields: ['*'],
          searchable_fields: ['title'],
          filterable_fields: ['*'],
        },
        table: 'posts',
        fk: 'user_id',
      },
      phone: { options: { projectable_fields: ['id', 'number'] }, table: 'phones', fk: 'user_id' },
      roles: {
        options: {
          projectable_fields: ['*'],
          sortable_fields: ['name', 'level'],
          searchable_fields: ['name'],
          filterable_fields: ['*'],
        },
        table: 'roles',
        fk: 'user_id',
      },
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
          through: { from: 'role_user.user_id', to: 'role_user.role_id' },
          to: 'roles.id',
        },
      },
    };
  }
}

export class Post extends Model {
  static override tableName = 'posts';

  static getProjectableFields(): string[] {
    return [...POST_FIELDS];
  }

  static getSortableFields(): string[] {
    return ['id', 'title', 'created_at'];
  }

  static getSearchableFields(): string[] {
    return ['title'];
  }

  static getExpandableRelations(): Record<string, unknown> {
    return {
      author: { options: { projectable_fields: ['*'], filterable_fields: ['status'] }, table: 'users', fk: 'user_id' },
      comments: {
        options: { projectable_fields: ['*'], sortable_fields: ['*'], searchable_fields: ['body'], filterable_fields: ['*'] },
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

/** Not a collection: reached only by expanding `posts.comments` (docs/query-language.md, "Nested expansion"). */
export class Comment extends Model {
  static override tableName = 'comments';

  static getSearchableFields(): string[] {
    return ['body'];
  }

  static getExpandableRelations(): Record<string, unknown> {
    return {
      author: {
        options: { projectable_fields: [...COMMENT_AUTHOR_FIELDS], sortable_fields: ['name'], filterable_fields: ['status'] },
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
  static override tableName = 'phones';
}

/** No declarations at all: every column projectable in table order, expansion disabled (its relation too). */
export class Role extends Model {
  static override tableName = 'roles';

  static override get relationMappings(): RelationMappings {
    return {
      users: {
        relation: Model.ManyToManyRelation,
        modelClass: User,
        join: {
          from: 'roles.id',
          through: { from: 'role_user.role_id', to: 'role_user.user_id' },
          to: 'users.id',
        },
      },
    };
  }
}

export const collections = { users: User, posts: Post, roles: Role };
