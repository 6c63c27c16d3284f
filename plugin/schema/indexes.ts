// The one reader of a table's indexes in pg_catalog, used at start-up (how `search` compares each
// column, which GIN index serves a full-text document) and by index advice (which indexes exist).

import type { Knex } from 'knex';

/** One key of an index as pg_catalog describes it (key columns only, not INCLUDE ones). */
export interface IndexKey {
  /** A plain column key, else null. */
  readonly column: string | null;
  /** The column of a `lower(column)` key, else null. */
  readonly lowered: string | null;
  /** The key as PostgreSQL writes it: `name`, `lower(name)`, `setweight(to_tsvector(...), 'A'::"char")`. */
  readonly definition: string;
  readonly desc: boolean;
  readonly nullsFirst: boolean;
  readonly opclass: string;
}

/** A whole (no predicate), valid index. */
export interface TableIndex {
  readonly name: string;
  /** `btree`, `gin`, `gist`, ... */
  readonly method: string;
  readonly unique: boolean;
  readonly keys: readonly IndexKey[];
}

interface KeyRow {
  wanted: string;
  index_name: string;
  method: string;
  unique: boolean;
  column_name: string | null;
  lowered: string | null;
  definition: string;
  desc: boolean;
  nulls_first: boolean;
  opclass: string;
}

const keysSql = `select wanted.name as "wanted", c.relname::text as "index_name", am.amname::text as "method",
  i.indisunique as "unique", a.attname::text as "column_name", e.attname::text as "lowered",
  pg_catalog.pg_get_indexdef(i.indexrelid, k.n::int, true) as "definition",
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

/**
 * `['"users"']` -> Map { '"users"' => [{name: 'users_pkey', method: 'btree', unique: true, keys: [{column: 'id', ...}]}, ...] },
 * by the names as given (as `to_regclass` reads them); a table without indexes is absent.
 * Raw rows: a host's `postProcessResponse` leaves them alone.
 */
export async function readIndexes(knex: Knex, regclassNames: readonly string[]): Promise<Map<string, TableIndex[]>> {
  const result = await knex.raw<{ rows: KeyRow[] }>(keysSql, [[...regclassNames]]);
  const byName = new Map<string, { wanted: string; index: TableIndex & { keys: IndexKey[] } }>();
  for (const row of result.rows) {
    const id = `${row.wanted}\u0000${row.index_name}`;
    let entry = byName.get(id);
    if (entry === undefined) {
      entry = { wanted: row.wanted, index: { name: row.index_name, method: row.method, unique: row.unique, keys: [] } };
      byName.set(id, entry);
    }
    entry.index.keys.push({
      column: row.column_name,
      lowered: row.lowered,
      definition: row.definition,
      desc: row.desc,
      nullsFirst: row.nulls_first,
      opclass: row.opclass,
    });
  }
  const indexes = new Map<string, TableIndex[]>();
  for (const { wanted, index } of byName.values()) indexes.set(wanted, [...(indexes.get(wanted) ?? []), index]);
  return indexes;
}
