// The host's own schema and rows: tenants known by a slug, members of both tenants in a table whose
// name is not the relation's (`members`, reached as `users` from roles), and the join table between
// roles and members. PostgreSQL when DATABASE_URL is set, otherwise an in-memory PGlite.
import Knex from 'knex';
import ClientPgLite from 'knex-pglite';

const schema = [
  'create table tenants (id integer primary key, slug text not null unique)',
  `create table members (id serial primary key, name text not null, role text not null,
     tenant_id integer not null references tenants(id))`,
  'create table roles (id serial primary key, name text not null)',
  `create table role_user (role_id integer not null references roles(id),
     member_id integer not null references members(id), primary key (role_id, member_id))`,
];

// acme: ann (editor), bob (viewer), cid (editor); globex: dan (editor), eve (viewer).
// Role 1 writers: ann, cid, dan; role 2 readers: bob, eve; role 3 admins: dan.
const rows = [
  `insert into tenants (id, slug) values (1, 'acme'), (2, 'globex')`,
  `insert into members (name, role, tenant_id) values
     ('ann', 'editor', 1), ('bob', 'viewer', 1), ('cid', 'editor', 1), ('dan', 'editor', 2), ('eve', 'viewer', 2)`,
  `insert into roles (name) values ('writers'), ('readers'), ('admins')`,
  'insert into role_user (role_id, member_id) values (1, 1), (1, 3), (1, 4), (2, 2), (2, 5), (3, 4)',
  'analyze',
];

export async function openDatabase() {
  const url = process.env.DATABASE_URL;
  const knex = url ? Knex({ client: 'pg', connection: url }) : Knex({ client: ClientPgLite, connection: { filename: 'memory://' } });
  for (const statement of [...schema, ...rows]) await knex.raw(statement);
  return knex;
}

/** Another tenant grows: `count` more members of globex, and fresh statistics for the planner. */
export async function growOtherTenant(knex: Knex.Knex, count: number) {
  await knex.raw(`insert into members (name, role, tenant_id) select 'globex ' || n, 'viewer', 2 from generate_series(1, ?) as n`, [count]);
  await knex.raw('analyze members');
}
