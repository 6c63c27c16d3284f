// The host's own schema and rows: a `cms` schema with a relation into `public`, snake_case columns,
// an enum, arrays, json, jsonb, a point and a real, and a join table with extra columns. PostgreSQL
// when DATABASE_URL is set, otherwise an in-memory PGlite (docs/installing.md, "Embedded PGlite").
import Knex from 'knex';
import ClientPgLite from 'knex-pglite';

const schema = [
  'create schema cms',
  `create type cms.mood as enum ('calm', 'busy', 'away')`,
  `create table cms.authors (id serial primary key, first_name text not null, last_name text not null,
     email text not null, tenant_id integer not null, mood cms.mood, interests text[], settings jsonb,
     profile json, location point, rating real)`,
  `create table cms.articles (id serial primary key, author_id integer not null references cms.authors(id),
     editor_id integer references cms.authors(id), title text not null, tenant_id integer not null)`,
  'create table public.tags (id serial primary key, label text not null)',
  `create table cms.article_tags (article_id integer not null references cms.articles(id),
     tag_id integer not null references public.tags(id), position integer not null, primary key (article_id, tag_id))`,
];

const rows = [
  `insert into cms.authors (first_name, last_name, email, tenant_id, mood, interests, settings, profile, location, rating) values
     ('Ada', 'Writer', 'ada@host.example', 1, 'away', '{math,history}', '{"theme": "dark", "size": 2}', '{"bio": "Ada"}', '(1,2)', 4.5),
     ('Ben', 'Scribe', 'ben@host.example', 1, 'calm', '{art}', '{"theme": "light"}', '[1, 2]', '(3,4)', 3.25),
     ('Cy', 'Other', 'cy@host.example', 2, 'busy', null, null, null, null, null)`,
  // Article 2 belongs to tenant 2 though its author is tenant 1's Ada; article 4 is tenant 2's, edited by Ada.
  `insert into cms.articles (author_id, editor_id, title, tenant_id) values
     (1, 2, 'Koa in practice', 1), (1, 3, 'Tenant two plans', 2), (2, 1, 'Objection tips', 1), (3, 1, 'Elsewhere', 2)`,
  `insert into public.tags (label) values ('news'), ('howto'), ('opinion')`,
  `insert into cms.article_tags (article_id, tag_id, position) values (1, 2, 2), (1, 3, 1), (3, 1, 1), (2, 1, 1)`,
];

export async function openDatabase() {
  const url = process.env.DATABASE_URL;
  const knex = url ? Knex({ client: 'pg', connection: url }) : Knex({ client: ClientPgLite, connection: { filename: 'memory://' } });
  for (const statement of [...schema, ...rows]) await knex.raw(statement);
  return knex;
}
