// Reads what the database already has for index advice: each table's whole, valid indexes with
// their keys (columns, `lower(column)` expressions, directions, operator classes), the planner's
// estimate of its rows, and whether pg_trgm is installed.

import type { Knex } from 'knex';
import type { ExistingIndex, IndexKey } from './types';

interface KeyRow {
  wanted: string;
  index_name: string;
  method: string;
  unique: boolean;
  n: number;
  column_name: string | null;
  lowered: string | null;
  desc: boolean;
  nulls_first: boolean;
  opclass: string;
}

// Key columns only (not INCLUDE ones); an expression key is kept as the column it lower-cases, if it does.
const keysSql = `select wanted.name as "wanted", c.relname::text as "index_name", am.amname::text as "method",
  i.indisunique as "unique", k.n::int as "n", a.attname::text as "column_name", e.attname::text as "lowered",
  (i.indoption[k.n - 1] & 1) = 1 as "desc", (i.indoption[k.n - 1] & 2) = 2 as "nulls_first", o.opcname::text as "opclass"
from unnest(?::text[]) as wanted(name)
join pg_catalog.pg_index i on i.indrelid = to_regclass(wanted.name) and i.indisvalid and i.indpred is null
join pg_catalog.pg_class c on c.oid = i.indexrelid
join pg_catalog.pg_am am on am.oid = c.relam
cross join lateral unnest(i.indkey::int2[], i.indclass::oid[]) with ordinality as k(attnum, opclass, n)
join pg_catalog.pg_opclass o on o.oid = k.opclass
left join pg_catalog.pg_attribute a on k.attnum > 0 and a.attrelid = i.indrelid and a.attnum = k.attnum
left join pg_catalog.pg_attribute e on k.attnum = 0 and e.attrelid = i.indrelid and e.attnum > 0 and not e.attisdropped
  and pg_catalog.pg_get_indexdef(i.indexrelid, k.n::int, true)
    in ('lower(' || quote_ident(e.attname) || ')', 'lower(' || quote_ident(e.attname) || '::text)')
where k.n <= i.indnkeyatts
order by wanted.name, c.relname, k.n`;

const rowsSql = `select wanted.name as "wanted", greatest(c.reltuples, 0)::float8 as "rows"
from unnest(?::text[]) as wanted(name)
join pg_catalog.pg_class c on c.oid = to_regclass(wanted.name)`;

/** `cms.articles` -> `"cms"."articles"`: the name as the database reads it in `to_regclass`. */
export const quotedTable = (table: string): string =>
  table
    .split('.')
    .map((part) => `"${part.replace(/"/g, '""')}"`)
    .join('.');

export interface ExistingState {
  /** By table (the database name given). */
  readonly indexes: ReadonlyMap<string, readonly ExistingIndex[]>;
  readonly rows: ReadonlyMap<string, number>;
  readonly trigramInstalled: boolean;
}

/** `['users', 'posts']` -> their indexes and row estimates. Raw rows: a host's `postProcessResponse` leaves them alone. */
export async function readExisting(knex: Knex, tables: readonly string[]): Promise<ExistingState> {
  const quoted = tables.map(quotedTable);
  const tableOf = (wanted: string) => tables[quoted.indexOf(wanted)] as string;
  const keys = await knex.raw<{ rows: KeyRow[] }>(keysSql, [quoted]);
  const rows = await knex.raw<{ rows: { wanted: string; rows: number }[] }>(rowsSql, [quoted]);
  const trigram = await knex.raw<{ rows: unknown[] }>(`select 1 from pg_catalog.pg_extension where extname = 'pg_trgm'`);
  const byName = new Map<string, { table: string; name: string; method: string; unique: boolean; keys: IndexKey[] }>();
  for (const row of keys.rows) {
    const id = `${row.wanted}\u0000${row.index_name}`;
    let index = byName.get(id);
    if (index === undefined) {
      index = { table: tableOf(row.wanted), name: row.index_name, method: row.method, unique: row.unique, keys: [] };
      byName.set(id, index);
    }
    index.keys.push({ column: row.column_name, lowered: row.lowered, desc: row.desc, nullsFirst: row.nulls_first, opclass: row.opclass });
  }
  const indexes = new Map<string, ExistingIndex[]>();
  for (const index of byName.values()) indexes.set(index.table, [...(indexes.get(index.table) ?? []), index]);
  return {
    indexes,
    rows: new Map(rows.rows.map((row) => [tableOf(row.wanted), row.rows])),
    trigramInstalled: trigram.rows.length > 0,
  };
}
