// The differential fixture's columns of docs/query-language.md, "Enums, arrays and JSON": `users`
// gains an enum (`mood`, declared in an order that is not alphabetical), a text array (`tags`, with
// empty and NULL arrays, NULL elements, commas, quotes, a backslash and the text "NULL") and an
// integer array (`lucky`). A subclass of the fixture's User model projects them, so every other
// suite keeps the plain fixture.

import type { Knex } from 'knex';
import { Post, User, USER_FIELDS, collections } from '../support/fixture';

/** Declared order: sad < ok < happy (alphabetically happy < ok < sad). */
export const MOOD = ['sad', 'ok', 'happy'] as const;

/** PostgreSQL array literals, cycled over the users by id. */
const TAGS: readonly (string | null)[] = [
  '{math,history}',
  '{}',
  null,
  '{art}',
  '{math}',
  '{"a,b","x \\"y\\""}',
  '{History,math,NULL}',
  '{"back\\\\slash"}',
  '{math,math}',
  '{é,Zz}',
  '{"NULL"}',
  '{art,zoology}',
];
const LUCKY: readonly (string | null)[] = ['{7}', '{1,2,3}', '{}', null, '{3,NULL}', '{2147483647,-5}', '{1,2}', '{2}', '{0}'];

export const TYPED_USER_FIELDS: readonly string[] = [...USER_FIELDS, 'mood', 'tags', 'lucky'];

/** Adds and fills the typed columns on the fixture's `users` table. */
export async function addTypedColumns(knex: Knex): Promise<void> {
  await knex.raw(`create type mood as enum ('sad', 'ok', 'happy')`);
  await knex.raw('alter table users add column mood mood, add column tags text[], add column lucky integer[]');
  const ids = (await knex.raw<{ rows: { id: number }[] }>('select id from users')).rows.map((r) => r.id);
  for (const id of ids) {
    const mood = id % 4 === 0 ? null : (MOOD[id % 3] ?? null);
    await knex.raw('update users set mood = ?::mood, tags = ?::text[], lucky = ?::integer[] where id = ?', [
      mood,
      TAGS[id % TAGS.length] ?? null,
      LUCKY[(id * 5) % LUCKY.length] ?? null,
      id,
    ]);
  }
}

/**
 * Sortable fields of the to-one relations in the differential app
 * (docs/query-language.md, "Sorting by a related record"); none in the plain fixture.
 */
export const RELATION_SORTS = { phone: ['number', 'id'], author: ['name', 'status', 'score', 'birthday', 'created_at', 'id'] } as const;

/**
 * The fixture's User with the typed columns projected (and so sortable, searchable and filterable),
 * and its phone sortable.
 */
export class TypedUser extends User {
  static override getProjectableFields(): string[] {
    return [...TYPED_USER_FIELDS];
  }

  static override getExpandableRelations(): Record<string, unknown> {
    const relations = User.getExpandableRelations() as Record<string, { options: Record<string, unknown> }>;
    const phone = relations.phone as { options: Record<string, unknown> };
    return { ...relations, phone: { ...phone, options: { ...phone.options, sortable_fields: [...RELATION_SORTS.phone] } } };
  }
}

/** The fixture's Post with its author sortable. */
export class TypedPost extends Post {
  static override getExpandableRelations(): Record<string, unknown> {
    const relations = Post.getExpandableRelations() as Record<string, { options: Record<string, unknown> }>;
    const { author } = relations;
    return { ...relations, author: { ...author, options: { ...author?.options, sortable_fields: [...RELATION_SORTS.author] } } };
  }
}

export const typedCollections = { ...collections, users: TypedUser, posts: TypedPost };
