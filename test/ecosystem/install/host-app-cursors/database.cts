// The host's tables: members, whose e-mail addresses its model masks for staff, and accounts, whose
// uuid primary key it never shows. An in-memory PGlite (docs/installing.md, "Embedded PGlite"), the
// same rows in every process, so two processes page through the same records.
import Knex from 'knex';
import ClientPgLite from 'knex-pglite';

const statements = [
  'create table members (id serial primary key, name text not null, email text not null)',
  `insert into members (name, email) values
     ('Ada', 'ada.lovelace@staff.example'), ('Ben', 'ben@customer.example'), ('Cy', 'cy.young@staff.example'),
     ('Dee', 'dee@customer.example'), ('Eve', 'eve.secret@staff.example'), ('Fay', 'fay@customer.example'),
     ('Gus', 'gus.hidden@staff.example')`,
  'create table accounts (id uuid primary key, name text not null, plan text not null)',
  `insert into accounts (id, name, plan) values
     ('1b4e28ba-2fa1-11d2-883f-0016d3cca427', 'Acme', 'gold'), ('6fa459ea-ee8a-3ca4-894e-db77e160355e', 'Globex', 'free'),
     ('9c5b94b1-35ad-49bb-b118-8e8fc24abf80', 'Initech', 'gold'), ('d9428888-122b-11e1-b85c-61cd3cbb3210', 'Umbrella', 'free'),
     ('f81d4fae-7dec-11d0-a765-00a0c91e6bf6', 'Hooli', 'gold')`,
];

export async function openDatabase() {
  const knex = Knex({ client: ClientPgLite, connection: { filename: 'memory://' } });
  for (const statement of statements) await knex.raw(statement);
  return knex;
}
