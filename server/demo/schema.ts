// Owns the demo database schema: users, posts, comments, phones, roles and user_roles, created only when
// missing so that running it again changes nothing.
import type { Knex } from 'knex';

type TableBuilder = (table: Knex.CreateTableBuilder) => void;

const buildUsers: TableBuilder = (table) => {
  table.increments('id').primary();
  table.text('name').notNullable();
  table.text('email').notNullable().unique();
  table.timestamp('email_verified_at', { useTz: true }).nullable();
  table.timestamp('created_at', { useTz: true }).notNullable();
  table.timestamp('updated_at', { useTz: true }).notNullable();
  table.text('status').notNullable();
  table.text('role').notNullable();
  table.decimal('score', 6, 2).nullable();
  table.boolean('is_admin').notNullable().defaultTo(false);
  table.date('birthday').nullable();
  table.index(['status']);
  table.index(['role']);
  table.index(['created_at']);
};

const buildPosts: TableBuilder = (table) => {
  table.increments('id').primary();
  table.integer('user_id').notNullable().references('id').inTable('users');
  table.text('title').notNullable();
  table.text('body');
  table.text('status').notNullable();
  table.integer('views').notNullable().defaultTo(0);
  table.timestamp('created_at', { useTz: true }).notNullable();
  table.index(['user_id']);
  table.index(['created_at']);
  table.check("?? in ('draft', 'published', 'archived')", ['status']);
};

const buildComments: TableBuilder = (table) => {
  table.increments('id').primary();
  table.integer('post_id').notNullable().references('id').inTable('posts');
  table.integer('author_id').notNullable().references('id').inTable('users');
  table.text('body').notNullable();
  table.timestamp('created_at', { useTz: true }).notNullable();
  // A post's comments, newest first, are what nested expansions read.
  table.index(['post_id', 'created_at']);
  table.index(['author_id']);
};

const buildPhones: TableBuilder = (table) => {
  table.increments('id').primary();
  table.integer('user_id').unique().references('id').inTable('users');
  table.text('number').notNullable();
  table.text('kind');
};

const buildRoles: TableBuilder = (table) => {
  table.increments('id').primary();
  table.text('name').notNullable().unique();
  table.text('description');
};

const buildUserRoles: TableBuilder = (table) => {
  table.integer('user_id').notNullable().references('id').inTable('users');
  table.integer('role_id').notNullable().references('id').inTable('roles');
  table.primary(['user_id', 'role_id']);
  // The primary key serves lookups by user; this one serves the way back from a role.
  table.index(['role_id']);
};

// Creation order respects the foreign keys.
const TABLES: ReadonlyArray<readonly [string, TableBuilder]> = [
  ['users', buildUsers],
  ['posts', buildPosts],
  ['comments', buildComments],
  ['phones', buildPhones],
  ['roles', buildRoles],
  ['user_roles', buildUserRoles],
];

/** The demo tables, in creation order. */
export const DEMO_TABLES: readonly string[] = TABLES.map(([name]) => name);

/**
 * The posts' search document as Post.getFullTextSearch() declares it (title weighted A, body B),
 * written exactly as the plugin writes it, so PostgreSQL uses the index for `match`
 * (docs/query-language.md, "Ranked search: match and similar").
 */
export const POSTS_DOCUMENT_INDEX =
  "create index if not exists posts_document on posts using gin ((setweight(to_tsvector('english', coalesce(title, '')), 'A') || " +
  "setweight(to_tsvector('english', coalesce(body, '')), 'B')))";

/** The GIN index for `match` and, where pg_trgm can be installed, a trigram index for `similar[title]`. */
async function createSearchIndexes(knex: Knex): Promise<void> {
  await knex.raw(POSTS_DOCUMENT_INDEX);
  try {
    await knex.raw('create extension if not exists pg_trgm');
  } catch {
    // A server without PostgreSQL's contrib package: `similar` is off (the plugin says so at start-up).
    return;
  }
  await knex.raw('create index if not exists posts_title_trgm on posts using gin (title gin_trgm_ops)');
}

/**
 * Creates every demo table that does not exist yet, and the search indexes; existing ones are left as they are.
 * Example: `await createSchema(knex)` twice in a row creates the tables once.
 */
export async function createSchema(knex: Knex): Promise<void> {
  for (const [name, build] of TABLES) {
    if (!(await knex.schema.hasTable(name))) {
      await knex.schema.createTable(name, build);
    }
  }
  await createSearchIndexes(knex);
}

/** Drops every demo table (children first). Used to start over: `await dropSchema(knex)`. */
export async function dropSchema(knex: Knex): Promise<void> {
  for (const name of [...DEMO_TABLES].reverse()) {
    await knex.schema.dropTableIfExists(name);
  }
}
