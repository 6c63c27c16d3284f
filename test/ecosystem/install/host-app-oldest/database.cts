// The host's own tables and rows, on the PostgreSQL database named by DATABASE_URL through `pg`
// (docs/installing.md, "3. Mount the router"). Ids are chosen so that a relation joined on the wrong
// columns returns visibly wrong rows: profile 1 belongs to author 2, and the desk assignments cross.
import Knex from 'knex';

export async function openDatabase() {
  const knex = Knex({ client: 'pg', connection: process.env.DATABASE_URL });
  await knex.raw(`create table authors (id integer primary key, name text not null)`);
  await knex.raw(`create table profiles (
    id integer primary key, author_id integer not null unique references authors(id), bio text not null)`);
  await knex.raw(`create table desks (id integer primary key, name text not null)`);
  await knex.raw(`create table desk_assignments (
    author_id integer primary key references authors(id), desk_id integer not null references desks(id))`);
  await knex.raw(`create table articles (
    id integer primary key, author_id integer not null references authors(id), title text not null)`);
  await knex.raw(`create table tags (id integer primary key, name text not null)`);
  await knex.raw(`create table article_tags (
    article_id integer not null references articles(id), tag_id integer not null references tags(id),
    primary key (article_id, tag_id))`);
  await knex('authors').insert([
    { id: 1, name: 'Ada Writer' },
    { id: 2, name: 'Ben Scribe' },
    { id: 3, name: 'Cy Quiet' },
  ]);
  await knex('profiles').insert([
    { id: 1, author_id: 2, bio: 'Ben writes on weekends.' },
    { id: 2, author_id: 1, bio: 'Ada edits the Koa column.' },
  ]);
  await knex('desks').insert([
    { id: 1, name: 'Backend desk' },
    { id: 2, name: 'Frontend desk' },
    { id: 3, name: 'Unused desk' },
  ]);
  await knex('desk_assignments').insert([
    { author_id: 1, desk_id: 2 },
    { author_id: 2, desk_id: 1 },
  ]);
  await knex('articles').insert([
    { id: 1, author_id: 2, title: 'Koa in practice' },
    { id: 2, author_id: 1, title: 'Objection tips' },
    { id: 3, author_id: 2, title: 'Untagged notes' },
  ]);
  await knex('tags').insert([
    { id: 1, name: 'sql' },
    { id: 2, name: 'koa' },
    { id: 3, name: 'node' },
  ]);
  await knex('article_tags').insert([
    { article_id: 1, tag_id: 2 },
    { article_id: 1, tag_id: 3 },
    { article_id: 2, tag_id: 1 },
  ]);
  return knex;
}
