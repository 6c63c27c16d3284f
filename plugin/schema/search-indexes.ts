// Chooses, once at start-up, how `search` compares each column (issue 16): `ILIKE` where a trigram
// index on the plain column serves it, `lower(column) LIKE lower(pattern)` everywhere else. Both mean
// the same (the database's lower() on both sides); where no index serves the search, PostgreSQL
// scans and lower() LIKE costs less than ILIKE, which lower-cases the pattern again for every row.

import type { Knex } from 'knex';
import type { SearchForm } from './types';

interface IndexRow {
  wanted: string;
  column_name: string;
  index_name: string;
  /** The index key is `lower(column)` rather than the column itself. */
  lowered: boolean;
  /** Its operator class is pg_trgm's (gin_trgm_ops, gist_trgm_ops). */
  trigram: boolean;
}

// Whole, valid indexes (no predicate) with a key that is a column under a pg_trgm operator class, or
// `lower(column)` under any operator class (a btree one serves prefixes, a trigram one any pattern).
const indexesSql = `select wanted.name as "wanted", coalesce(a.attname, e.attname)::text as "column_name",
  c.relname::text as "index_name", k.attnum = 0 as "lowered", o.opcname in ('gin_trgm_ops', 'gist_trgm_ops') as "trigram"
from unnest(?::text[]) as wanted(name)
join pg_catalog.pg_index i on i.indrelid = to_regclass(wanted.name) and i.indisvalid and i.indpred is null
join pg_catalog.pg_class c on c.oid = i.indexrelid
cross join lateral unnest(i.indkey::int2[], i.indclass::oid[]) with ordinality as k(attnum, opclass, n)
join pg_catalog.pg_opclass o on o.oid = k.opclass
left join pg_catalog.pg_attribute a on k.attnum > 0 and a.attrelid = i.indrelid and a.attnum = k.attnum
left join pg_catalog.pg_attribute e on k.attnum = 0 and e.attrelid = i.indrelid and e.attnum > 0 and not e.attisdropped
  and pg_catalog.pg_get_indexdef(i.indexrelid, k.n::int, true)
    in ('lower(' || quote_ident(e.attname) || ')', 'lower(' || quote_ident(e.attname) || '::text)')
where (k.attnum > 0 and o.opcname in ('gin_trgm_ops', 'gist_trgm_ops')) or e.attname is not null
order by c.relname`;

/**
 * A trigram index on `lower(column)` serves the lower form as well as one on the column serves
 * ILIKE; failing that, a trigram index on the column (ILIKE); failing that the lower form, served
 * by a btree index on `lower(column)` if there is one. `char(n)` keeps ILIKE: lower() would first
 * drop its padding.
 */
function chooseForm(indexes: readonly IndexRow[], udt: string): SearchForm {
  const pick = (lowered: boolean, trigram?: boolean) =>
    indexes.find((row) => row.lowered === lowered && (trigram === undefined || row.trigram === trigram))?.index_name;
  if (udt === 'bpchar') return { kind: 'ilike' };
  const lowerTrigram = pick(true, true);
  if (lowerTrigram !== undefined) return { kind: 'lower', index: lowerTrigram };
  const trigram = pick(false);
  if (trigram !== undefined) return { kind: 'ilike', index: trigram };
  const lowered = pick(true);
  return lowered === undefined ? { kind: 'lower' } : { kind: 'lower', index: lowered };
}

/** `users` with a trigram index on `name` -> Map { 'users' => Map { 'name' => {kind: 'ilike', index: ...}, 'email' => {kind: 'lower'} } }. */
export async function searchForms(
  knex: Knex,
  tables: readonly string[],
  regclassNames: readonly string[],
  columns: ReadonlyMap<string, readonly { column: string; udt: string }[]>,
): Promise<Map<string, Map<string, SearchForm>>> {
  const result = await knex.raw<{ rows: IndexRow[] }>(indexesSql, [[...regclassNames]]);
  const forms = new Map<string, Map<string, SearchForm>>();
  tables.forEach((table, i) => {
    const rows = result.rows.filter((row) => row.wanted === regclassNames[i]);
    const byColumn = new Map<string, SearchForm>();
    for (const { column, udt } of columns.get(table) ?? []) {
      byColumn.set(
        column,
        Object.freeze(
          chooseForm(
            rows.filter((row) => row.column_name === column),
            udt,
          ),
        ),
      );
    }
    forms.set(table, byColumn);
  });
  return forms;
}
