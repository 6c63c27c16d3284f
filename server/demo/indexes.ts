// Owns the demo's indexes: what `koa-query-modifiers indexes` advised for the demo models
// (docs/installing.md#10-indexes-for-your-declarations), written as a host writes the migration.
import type { Knex } from 'knex';

/** Btree indexes: each sortable or filterable field, then the primary key (ascending and descending). */
const BTREE: readonly string[] = [
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_name_id_idx" ON "users" ("name", "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_name_desc_id_idx" ON "users" ("name" DESC, "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_email_verified_at_id_idx" ON "users" ("email_verified_at", "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_email_verified_at_desc_id_idx" ON "users" ("email_verified_at" DESC, "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_created_at_id_idx" ON "users" ("created_at", "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_created_at_desc_id_idx" ON "users" ("created_at" DESC, "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_updated_at_id_idx" ON "users" ("updated_at", "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_updated_at_desc_id_idx" ON "users" ("updated_at" DESC, "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_status_id_idx" ON "users" ("status", "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_status_desc_id_idx" ON "users" ("status" DESC, "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_role_id_idx" ON "users" ("role", "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_role_desc_id_idx" ON "users" ("role" DESC, "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_score_id_idx" ON "users" ("score", "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_score_desc_id_idx" ON "users" ("score" DESC, "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_is_admin_id_idx" ON "users" ("is_admin", "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_is_admin_desc_id_idx" ON "users" ("is_admin" DESC, "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_birthday_id_idx" ON "users" ("birthday", "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_birthday_desc_id_idx" ON "users" ("birthday" DESC, "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "posts_user_id_id_idx" ON "posts" ("user_id", "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "posts_user_id_desc_id_idx" ON "posts" ("user_id" DESC, "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "posts_title_id_idx" ON "posts" ("title", "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "posts_title_desc_id_idx" ON "posts" ("title" DESC, "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "posts_body_id_idx" ON "posts" ("body", "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "posts_body_desc_id_idx" ON "posts" ("body" DESC, "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "posts_status_id_idx" ON "posts" ("status", "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "posts_status_desc_id_idx" ON "posts" ("status" DESC, "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "posts_views_id_idx" ON "posts" ("views", "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "posts_views_desc_id_idx" ON "posts" ("views" DESC, "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "posts_created_at_id_idx" ON "posts" ("created_at", "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "posts_created_at_desc_id_idx" ON "posts" ("created_at" DESC, "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "phones_user_id_id_idx" ON "phones" ("user_id", "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "phones_user_id_desc_id_idx" ON "phones" ("user_id" DESC, "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "phones_number_id_idx" ON "phones" ("number", "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "phones_number_desc_id_idx" ON "phones" ("number" DESC, "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "phones_kind_id_idx" ON "phones" ("kind", "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "phones_kind_desc_id_idx" ON "phones" ("kind" DESC, "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "roles_description_id_idx" ON "roles" ("description", "id")',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "roles_description_desc_id_idx" ON "roles" ("description" DESC, "id")',
];

/** Trigram indexes on lower(column) for the searchable text fields; they need pg_trgm. */
const TRIGRAM: readonly string[] = [
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_name_trgm_idx" ON "users" USING gin (lower("name") gin_trgm_ops)',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_email_trgm_idx" ON "users" USING gin (lower("email") gin_trgm_ops)',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_status_trgm_idx" ON "users" USING gin (lower("status") gin_trgm_ops)',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_role_trgm_idx" ON "users" USING gin (lower("role") gin_trgm_ops)',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "posts_title_trgm_idx" ON "posts" USING gin (lower("title") gin_trgm_ops)',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "posts_body_trgm_idx" ON "posts" USING gin (lower("body") gin_trgm_ops)',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "posts_status_trgm_idx" ON "posts" USING gin (lower("status") gin_trgm_ops)',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "phones_number_trgm_idx" ON "phones" USING gin (lower("number") gin_trgm_ops)',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "phones_kind_trgm_idx" ON "phones" USING gin (lower("kind") gin_trgm_ops)',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "roles_name_trgm_idx" ON "roles" USING gin (lower("name") gin_trgm_ops)',
  'CREATE INDEX CONCURRENTLY IF NOT EXISTS "roles_description_trgm_idx" ON "roles" USING gin (lower("description") gin_trgm_ops)',
];

/**
 * Creates the advised indexes that do not exist yet, outside any transaction (CONCURRENTLY cannot
 * run in one). Where pg_trgm cannot be installed (PGlite started without it, a server without
 * PostgreSQL's contrib package) the trigram indexes are left out and `search` scans.
 * Example: `await createIndexes(knex)` after `createSchema(knex)`.
 */
export async function createIndexes(knex: Knex): Promise<void> {
  for (const statement of BTREE) await knex.raw(statement);
  const trigram = await knex
    .raw('CREATE EXTENSION IF NOT EXISTS pg_trgm')
    .then(() => true)
    .catch(() => false);
  if (trigram) for (const statement of TRIGRAM) await knex.raw(statement);
}
