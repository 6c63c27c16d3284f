// Models and rows for the ranked-search suites (docs/query-language.md, "Ranked search: match and
// similar"): notes with a weighted document (title A, body B), memos with a stored tsvector column,
// and tags that declare nothing. Small enough that every expected result can be read off the rows.

import type { Knex } from 'knex';
import { Model } from 'objection';

export class Note extends Model {
  static override tableName = 'notes';
  static getFullTextSearch(): unknown {
    return { language: 'english', fields: { title: 'A', body: 'B' } };
  }
  static getSearchableFields(): string[] {
    return ['title', 'body'];
  }
}

/** Notes through their own JSON (an upper-cased title): records are built by the model. */
export class ShoutedNote extends Note {
  static override getSearchableFields(): string[] {
    return [];
  }
  override $formatJson(json: Record<string, unknown>): Record<string, unknown> {
    const formatted = super.$formatJson(json);
    return { ...formatted, title: String(formatted.title).toUpperCase() };
  }
}

export class Memo extends Model {
  static override tableName = 'memos';
  static getProjectableFields(): string[] {
    return ['id', 'text'];
  }
  static getSearchableFields(): string[] {
    return [];
  }
  static getFullTextSearch(): unknown {
    return { language: 'simple', column: 'document' };
  }
}

export class Tag extends Model {
  static override tableName = 'note_tags';
  static getExpandableRelations(): Record<string, unknown> {
    return { notes: { options: { projectable_fields: ['id', 'title'], sortable_fields: ['id'] } } };
  }
  static override get relationMappings() {
    return { notes: { relation: Model.HasManyRelation, modelClass: Note, join: { from: 'note_tags.id', to: 'notes.tag_id' } } };
  }
}

export const NOTES: readonly [number, string, string][] = [
  [1, 'PostgreSQL replicas', 'Streaming replication keeps a replica close behind the primary.'],
  [2, 'Koa middleware', 'A replica of the request travels through every middleware.'],
  [3, 'Full-text search', 'PostgreSQL ranks documents; a replica can serve search too.'],
  [4, 'Trigram similarity', 'Typos are forgiven by trigram similarity in PostgreSQL.'],
  [5, 'Cooking pasta', 'Boil water, add salt, then the pasta.'],
  [6, 'Replica lag', 'Replicas fall behind under heavy writes; replication lag grows.'],
  [7, 'Postgres tuning', null as unknown as string],
];

export const GIN_INDEX =
  "create index notes_document on notes using gin ((setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(body, '')), 'B')))";

/** The tables and rows; with `indexes`, the GIN index on the notes' document and a trigram index on their titles. */
export async function createRankedTables(knex: Knex, indexes: boolean): Promise<void> {
  await knex.raw('create table notes (id integer primary key, title varchar(200) not null, body text, tag_id integer)');
  await knex.raw(
    "create table memos (id integer primary key, text text not null, document tsvector generated always as (to_tsvector('simple', text)) stored)",
  );
  await knex.raw('create table note_tags (id integer primary key, name text not null)');
  await knex('notes').insert(NOTES.map(([id, title, body]) => ({ id, title, body })));
  await knex('memos').insert([
    { id: 1, text: 'the quick brown fox' },
    { id: 2, text: 'the lazy dog' },
    { id: 3, text: 'quick quick fox' },
  ]);
  await knex('note_tags').insert([
    { id: 1, name: 'db' },
    { id: 2, name: 'food' },
  ]);
  await knex('notes').whereIn('id', [1, 3, 4, 6, 7]).update({ tag_id: 1 });
  await knex('notes').where('id', 5).update({ tag_id: 2 });
  if (indexes) {
    await knex.raw(GIN_INDEX);
    await knex.raw('create index memos_document on memos using gin (document)');
    await knex.raw('create extension if not exists pg_trgm');
    await knex.raw('create index notes_title_trgm on notes using gin (title gin_trgm_ops)');
  }
}

export const rankedCollections = { notes: Note, memos: Memo, tags: Tag, shouted: ShoutedNote };
