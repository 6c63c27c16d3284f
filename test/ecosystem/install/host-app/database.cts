// The host's own tables and rows, in an in-memory PGlite database (docs/installing.md: "To use an
// embedded PGlite database").
import Knex from 'knex';
import ClientPgLite from 'knex-pglite';

export async function openDatabase() {
  const knex = Knex({ client: ClientPgLite, connection: { filename: 'memory://' } });
  await knex.raw(`create table authors (
    id serial primary key, name text not null, email text not null, password_hash text not null,
    joined_at timestamptz not null)`);
  await knex.raw(`create table articles (
    id serial primary key, author_id integer not null references authors(id), title text not null,
    body text not null, published boolean not null, rating numeric(3,1) null, published_at timestamptz null)`);
  await knex('authors').insert([
    { name: 'Ada Writer', email: 'ada@host.example', password_hash: 'secret-1', joined_at: '2024-01-01T00:00:00Z' },
    { name: 'Ben Scribe', email: 'ben@host.example', password_hash: 'secret-2', joined_at: '2024-02-01T00:00:00Z' },
    { name: 'Cy Quiet', email: 'cy@host.example', password_hash: 'secret-3', joined_at: '2024-03-01T00:00:00Z' },
  ]);
  await knex('articles').insert([
    { author_id: 1, title: 'Koa in practice', body: '...', published: true, rating: '4.5', published_at: '2024-04-01T10:00:00Z' },
    { author_id: 1, title: 'Unfinished thoughts', body: '...', published: false, rating: null, published_at: null },
    { author_id: 2, title: 'Objection tips', body: '...', published: true, rating: '3.0', published_at: '2024-05-01T10:00:00Z' },
    { author_id: 2, title: 'PGlite everywhere', body: '...', published: true, rating: '4.9', published_at: '2024-06-01T10:00:00Z' },
    { author_id: 1, title: 'Drafting', body: '...', published: false, rating: '1.0', published_at: null },
  ]);
  // Soft-deleted rows keep their data; the Note model's query builder leaves them out.
  await knex.raw(`create table notes (id serial primary key, text text not null, deleted_at timestamptz null)`);
  await knex('notes').insert([{ text: 'kept' }, { text: 'deleted', deleted_at: '2024-07-01T00:00:00Z' }, { text: 'also kept' }]);
  return knex;
}
