// Reads which one-column foreign keys between the reached tables PostgreSQL enforces (validated, not
// deferrable), once, at start-up: a relation whose related rows' key is one of them has no related
// row without its owner record, which lets the count of records with a matching related record be
// read from the related rows alone (docs/design/relation-conditions.md).

import type { Knex } from 'knex';

const foreignKeysSql = `select child.name as "child", a.attname::text as "childColumn", parent.name as "parent", pa.attname::text as "parentColumn"
from unnest(?::text[], ?::text[]) as child(name, wanted)
join pg_catalog.pg_constraint c on c.conrelid = to_regclass(child.wanted) and c.contype = 'f'
  and c.convalidated and not c.condeferrable and cardinality(c.conkey) = 1
join unnest(?::text[], ?::text[]) as parent(name, wanted) on c.confrelid = to_regclass(parent.wanted)
join pg_catalog.pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
join pg_catalog.pg_attribute pa on pa.attrelid = c.confrelid and pa.attnum = c.confkey[1]`;

/** `posts.user_id -> users.id`, as enforcedKey() looks it up. */
const signature = (child: string, childColumn: string, parent: string, parentColumn: string): string =>
  `${child}\u0000${childColumn}\u0000${parent}\u0000${parentColumn}`;

/** Whether `child.childColumn` is a foreign key PostgreSQL enforces onto `parent.parentColumn` (table names as given). */
export type EnforcedKey = (child: string, childColumn: string, parent: string, parentColumn: string) => boolean;

/**
 * `["posts", "users"]` (database names) -> a lookup of the enforced foreign keys among them; `quoted`
 * gives each name as `to_regclass` reads it.
 */
export async function readForeignKeys(knex: Knex, tables: readonly string[], quoted: (table: string) => string): Promise<EnforcedKey> {
  const wanted = tables.map(quoted);
  const found = await knex.raw<{ rows: { child: string; childColumn: string; parent: string; parentColumn: string }[] }>(foreignKeysSql, [
    [...tables],
    wanted,
    [...tables],
    wanted,
  ]);
  const keys = new Set(found.rows.map((row) => signature(row.child, row.childColumn, row.parent, row.parentColumn)));
  return (child, childColumn, parent, parentColumn) => keys.has(signature(child, childColumn, parent, parentColumn));
}
