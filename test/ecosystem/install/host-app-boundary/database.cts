// The host's own tables and rows: accounts with a uuid key, a password hash and an e-mail address,
// and the users and posts of the README's example (drafts among the posts). PostgreSQL when
// DATABASE_URL is set, otherwise an in-memory PGlite (docs/installing.md, "Embedded PGlite").
import Knex from 'knex';
import ClientPgLite from 'knex-pglite';

const schema = [
  `create table accounts (id uuid primary key, handle text not null, email text not null,
     password_hash text not null, created_at timestamptz not null)`,
  `create table users (id serial primary key, name text not null, email text not null, status text not null,
     role text not null, created_at timestamptz not null)`,
  `create table posts (id serial primary key, user_id integer not null references users(id), title text not null,
     status text not null)`,
];

// The keys sort in another order than the handles: a page that came back in handle order was sorted by handle.
const rows = [
  `insert into accounts (id, handle, email, password_hash, created_at) values
     ('c0000000-0000-4000-8000-000000000001', 'cleo', 'cleo@host.example', 'hash-c-7f3a', '2025-01-03T00:00:00Z'),
     ('a0000000-0000-4000-8000-000000000002', 'ada', 'ada@host.example', 'hash-e-91bc', '2025-01-01T00:00:00Z'),
     ('b0000000-0000-4000-8000-000000000003', 'ben', 'ben@host.example', 'hash-a-04d2', '2025-01-02T00:00:00Z')`,
  `insert into users (name, email, status, role, created_at) values
     ('Ann', 'ann@host.example', 'active', 'editor', '2025-02-01T00:00:00Z'),
     ('Bob', 'bob@host.example', 'active', 'author', '2025-02-02T00:00:00Z')`,
  // Ann has one published post and one draft; Bob only a draft.
  `insert into posts (user_id, title, status) values (1, 'Launch notes', 'published'), (1, 'Secret plans', 'draft'),
     (2, 'Unfinished', 'draft')`,
];

export async function openDatabase() {
  const url = process.env.DATABASE_URL;
  const knex = url ? Knex({ client: 'pg', connection: url }) : Knex({ client: ClientPgLite, connection: { filename: 'memory://' } });
  for (const statement of [...schema, ...rows]) await knex.raw(statement);
  return knex;
}
