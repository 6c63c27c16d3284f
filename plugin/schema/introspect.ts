// Reads column names, types and nullability of the given tables from the database, once, at start-up.

import type { Knex } from 'knex';
import type { Column, ColumnType } from './types';

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

function columnType(udtName: string): ColumnType {
  return Object.prototype.hasOwnProperty.call(typesByUdt, udtName) ? (typesByUdt[udtName] as ColumnType) : 'other';
}

interface ColumnRow {
  table_name: string;
  column_name: string;
  udt_name: string;
  is_nullable: string;
}

/** `['users']` -> Map { 'users' => [{name: 'id', type: 'integer', nullable: false}, ...] } in table order. */
export async function introspectTables(knex: Knex, tables: readonly string[]): Promise<Map<string, Column[]>> {
  const rows: ColumnRow[] = await knex('information_schema.columns')
    .select('table_name', 'column_name', 'udt_name', 'is_nullable')
    .where('table_schema', knex.raw('current_schema()'))
    .whereIn('table_name', [...tables])
    .orderBy([{ column: 'table_name' }, { column: 'ordinal_position' }]);
  const byTable = new Map<string, Column[]>();
  for (const row of rows) {
    const list = byTable.get(row.table_name) ?? [];
    list.push({ name: row.column_name, type: columnType(row.udt_name), nullable: row.is_nullable === 'YES' });
    byTable.set(row.table_name, list);
  }
  return byTable;
}
