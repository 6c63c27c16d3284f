// Models and tables for the index advice suite (docs/installing.md#10-indexes-for-your-declarations):
// authors and their books, created with primary keys and no other index. The module exports
// `collections`, as `koa-query-modifiers indexes --models` reads it.

import type { Knex } from 'knex';
import { Model, type RelationMappings } from 'objection';

export class Author extends Model {
  static override get tableName(): string {
    return 'authors';
  }

  static getProjectableFields(): string[] {
    return ['id', 'name', 'email', 'nickname', 'status', 'created_at'];
  }

  static getSortableFields(): string[] {
    return ['name', 'created_at', 'email', 'nickname'];
  }

  static getFilterableFields(): string[] {
    return ['status'];
  }

  static getSearchableFields(): string[] {
    return ['name'];
  }

  static getExpandableRelations(): Record<string, unknown> {
    return { books: { options: { projectable_fields: ['id', 'title', 'status', 'pages'], filterable_fields: ['status', 'pages'] } } };
  }

  static override get relationMappings(): RelationMappings {
    return { books: { relation: Model.HasManyRelation, modelClass: Book, join: { from: 'authors.id', to: 'books.author_id' } } };
  }
}

export class Book extends Model {
  static override get tableName(): string {
    return 'books';
  }

  static getSortableFields(): string[] {
    return ['id'];
  }

  static getFilterableFields(): string[] {
    return [];
  }

  static getSearchableFields(): string[] {
    return [];
  }

  static getExpandableRelations(): Record<string, unknown> {
    return { author: { options: { projectable_fields: ['id', 'name', 'status'], filterable_fields: ['status'] } } };
  }

  static override get relationMappings(): RelationMappings {
    return { author: { relation: Model.BelongsToOneRelation, modelClass: Author, join: { from: 'books.author_id', to: 'authors.id' } } };
  }
}

export const collections = { authors: Author, books: Book };

/** The two tables with their primary keys only (a foreign key makes no index in PostgreSQL). */
export async function createAdviceTables(knex: Knex): Promise<void> {
  await knex.raw(`create table authors (id serial primary key, name text not null, email text not null, nickname text,
    status text not null, created_at timestamptz not null, bio text)`);
  await knex.raw(`create table books (id serial primary key, author_id integer not null references authors,
    title text not null, status text not null, pages integer not null)`);
}

export async function dropAdviceTables(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists books, authors');
  await knex.raw('drop extension if exists pg_trgm');
}
