// The SQL of change tracking (docs/scaling.md, "A cache every instance shares"): the versions table,
// the trigger function that notes a change inside the writing transaction, the triggers on each table,
// the one statement a cache hit reads versions with, and the compaction that keeps the table small.

/** The schema holding the versions table and the functions; its name is part of the contract with migrations. */
export const CHANGES_SCHEMA = 'koa_query_modifiers';

/** The two triggers every watched table carries: writes (insert, update, delete) and truncates. */
export const TRIGGER_NAMES = ['koa_query_modifiers_changes', 'koa_query_modifiers_truncates'] as const;

// One row per writing transaction and table, never an update of a shared row: concurrent writers
// never wait for each other here, and cannot deadlock on it. A table's version is the sum of its
// rows' `n`; compaction folds rows into one without changing the sum.
const SETUP_SQL = `create schema if not exists ${CHANGES_SCHEMA};
create table if not exists ${CHANGES_SCHEMA}.changes (
  relid oid not null,
  xid xid8 not null,
  n bigint not null default 1,
  primary key (relid, xid)
);
create or replace function ${CHANGES_SCHEMA}.note_change() returns trigger
  language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
begin
  insert into ${CHANGES_SCHEMA}.changes (relid, xid) values (TG_RELID, pg_current_xact_id()) on conflict do nothing;
  return null;
end $$;
create or replace function ${CHANGES_SCHEMA}.compact() returns bigint
  language sql security definer set search_path = pg_catalog, pg_temp as $$
  with busy as (select relid from ${CHANGES_SCHEMA}.changes group by relid having count(*) > 1),
  gone as (delete from ${CHANGES_SCHEMA}.changes c using busy b where c.relid = b.relid returning c.relid, c.n),
  kept as (insert into ${CHANGES_SCHEMA}.changes (relid, xid, n)
    select relid, pg_current_xact_id(), sum(n) from gone group by relid returning 1)
  select count(*) from kept
$$;
grant usage on schema ${CHANGES_SCHEMA} to public;
grant select on ${CHANGES_SCHEMA}.changes to public;`;

/** `"cms"."articles"` -> the statements that put both triggers on it, firing also under logical replication. */
function tableTriggersSql(table: string): string {
  const [changes, truncates] = TRIGGER_NAMES;
  const fn = `${CHANGES_SCHEMA}.note_change()`;
  return [
    `drop trigger if exists ${changes} on ${table};`,
    `create trigger ${changes} after insert or update or delete on ${table} for each statement execute function ${fn};`,
    `drop trigger if exists ${truncates} on ${table};`,
    `create trigger ${truncates} after truncate on ${table} for each statement execute function ${fn};`,
    `alter table ${table} enable always trigger ${changes};`,
    `alter table ${table} enable always trigger ${truncates};`,
  ].join('\n');
}

/**
 * The whole script for a migration, in one transaction: `['"users"', '"posts"']` -> the versions
 * table, the functions and both triggers on each table. Running it again changes nothing.
 */
export function changeTriggersScript(tables: readonly string[]): string {
  return ['begin;', SETUP_SQL, ...tables.map(tableTriggersSql), 'commit;', ''].join('\n');
}

/**
 * Each table's version and whether both triggers are there and enabled, in the order asked, read by
 * one statement in one snapshot (bound: the tables' oids).
 */
export const VERSIONS_SQL = `select w.relid::text as relid,
  (select count(*) from pg_catalog.pg_trigger g where g.tgrelid = w.relid
    and g.tgname in ('${TRIGGER_NAMES[0]}', '${TRIGGER_NAMES[1]}') and g.tgenabled in ('O', 'A'))::int as triggers,
  (select coalesce(sum(c.n), 0) from ${CHANGES_SCHEMA}.changes c where c.relid = w.relid)::text as version
from unnest(?::oid[]) with ordinality as w(relid, i) order by w.i`;

/** Folds each table's rows into one; safe beside writers and other instances doing the same. */
export const COMPACT_SQL = `select ${CHANGES_SCHEMA}.compact() as tables`;

/** Each table's oid and kind (`r` ordinary, `p` partitioned, `v` view, ...), or nulls when it does not exist. */
export const TABLES_SQL = `select w.name, c.oid::text as relid, c.relkind::text as kind
from unnest(?::text[]) with ordinality as w(name, i)
left join pg_catalog.pg_class c on c.oid = to_regclass(w.name)
order by w.i`;
