// Reads column names, types and nullability of the given tables from the database, once, at start-up,
// and how `search` compares each column (search-indexes.ts). Table names are resolved the way
// PostgreSQL resolves them in a query (`to_regclass`), so a schema-qualified `cms.articles` and
// Knex's `searchPath` both work.

import type { Knex } from 'knex';
import { searchForms } from './search-indexes';
import type { ColumnType, SearchForm } from './types';

const typesByUdt: Readonly<Record<string, ColumnType>> = {
  int2: 'smallint',
  int4: 'integer',
  int8: 'bigint',
  numeric: 'numeric',
  float4: 'float',
  float8: 'float',
  text: 'text',
  varchar: 'text',
  bpchar: 'text',
  citext: 'text',
  name: 'text',
  bool: 'boolean',
  timestamptz: 'timestamptz',
  timestamp: 'timestamp',
  date: 'date',
  uuid: 'uuid',
  json: 'json',
  jsonb: 'json',
};

function baseType(udtName: string): ColumnType {
  return Object.prototype.hasOwnProperty.call(typesByUdt, udtName) ? (typesByUdt[udtName] as ColumnType) : 'other';
}

/** `mood` (an enum) -> 'enum', `_text` -> 'array', `int4` -> 'integer', `point` -> 'other'. */
function columnType(row: ColumnRow): ColumnType {
  if (row.typtype === 'e') return 'enum';
  if (row.element !== null) return 'array';
  return baseType(row.udt);
}

/** A column as the database has it, before the model's names are applied. */
export interface DatabaseColumn {
  readonly column: string;
  readonly type: ColumnType;
  readonly nullable: boolean;
  readonly udt: string;
  readonly udtSchema: string;
  readonly orderable: boolean;
  readonly labels?: readonly string[];
  readonly element?: string;
  readonly elementSchema?: string;
  readonly elementType?: ColumnType;
  readonly search?: SearchForm;
}

interface ColumnRow {
  wanted: string;
  column_name: string;
  udt: string;
  udt_schema: string;
  typtype: string;
  nullable: boolean;
  orderable: boolean;
  labels: string[] | null;
  element: string | null;
  element_schema: string | null;
  element_typtype: string | null;
}

// Domains are read as their base type, for columns and for array elements; enum labels (of the column
// or of an array's elements) come in their declared order. Type schemas are read so that casts to an
// enum name it exactly, wherever the search path points. json, xml and the geometric types have no
// ordering (ORDER BY on them is an error), nor have arrays of them.
const columnsSql = `select wanted.name as "wanted", a.attname::text as "column_name", b.typname::text as "udt",
  bn.nspname::text as "udt_schema", b.typtype::text as "typtype", not a.attnotnull as "nullable",
  eb.typname::text as "element", en.nspname::text as "element_schema", eb.typtype::text as "element_typtype",
  not (b.typname in ('json', 'xml') or b.typcategory = 'G'
    or coalesce(eb.typname in ('json', 'xml') or eb.typcategory = 'G', false)) as "orderable",
  (select array_agg(l.enumlabel::text order by l.enumsortorder) from pg_catalog.pg_enum l
    where l.enumtypid = case when b.typtype = 'e' then b.oid else eb.oid end) as "labels"
from unnest(?::text[]) with ordinality as wanted(name, n)
join pg_catalog.pg_attribute a on a.attrelid = to_regclass(wanted.name) and a.attnum > 0 and not a.attisdropped
join pg_catalog.pg_type t on t.oid = a.atttypid
join pg_catalog.pg_type b on b.oid = case when t.typtype = 'd' then t.typbasetype else t.oid end
join pg_catalog.pg_namespace bn on bn.oid = b.typnamespace
left join pg_catalog.pg_type e on e.oid = b.typelem and b.typcategory = 'A'
left join pg_catalog.pg_type eb on eb.oid = case when e.typtype = 'd' then e.typbasetype else e.oid end
left join pg_catalog.pg_namespace en on en.oid = eb.typnamespace
order by wanted.n, a.attnum`;

/** `cms.articles` -> `"cms"."articles"`: the name as Knex would write it, for `to_regclass`. */
export const regclassName = (table: string): string =>
  table
    .split('.')
    .map((part) => `"${part.replace(/"/g, '""')}"`)
    .join('.');

/**
 * `['users', 'cms.articles']` -> Map { 'users' => [{column: 'id', type: 'integer', ...}, ...], ... }
 * in table order; a table that does not exist (in the search path) is absent from the map.
 * Sent as raw text: a host's `postProcessResponse` (e.g. knexSnakeCaseMappers) leaves raw rows alone.
 */
export async function introspectTables(knex: Knex, tables: readonly string[]): Promise<Map<string, DatabaseColumn[]>> {
  const names = [...tables];
  const regclassNames = names.map(regclassName);
  const result = await knex.raw<{ rows: ColumnRow[] }>(columnsSql, [regclassNames]);
  const byTable = new Map<string, DatabaseColumn[]>();
  for (const row of result.rows) {
    const table = names[regclassNames.indexOf(row.wanted)] as string;
    const list = byTable.get(table) ?? [];
    list.push({
      column: row.column_name,
      type: columnType(row),
      nullable: row.nullable,
      udt: row.udt,
      udtSchema: row.udt_schema,
      orderable: row.orderable,
      ...(row.labels === null ? {} : { labels: row.labels }),
      ...(row.element === null
        ? {}
        : {
            element: row.element,
            elementSchema: row.element_schema ?? '',
            elementType: row.element_typtype === 'e' ? 'enum' : baseType(row.element),
          }),
    });
    byTable.set(table, list);
  }
  const forms = await searchForms(knex, names, regclassNames, byTable);
  for (const [table, list] of byTable) {
    byTable.set(
      table,
      list.map((column) => {
        const search = forms.get(table)?.get(column.column);
        return search === undefined ? column : { ...column, search };
      }),
    );
  }
  return byTable;
}
