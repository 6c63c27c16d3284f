// Reads what the database already has for index advice: each table's whole, valid indexes with
// their keys (through plugin/schema/indexes.ts), the planner's estimate of its rows, and whether
// pg_trgm is installed.

import type { Knex } from 'knex';
import { readIndexes } from '../schema';
import type { ExistingIndex } from './types';

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
  const byTable = await readIndexes(knex, quoted);
  const rows = await knex.raw<{ rows: { wanted: string; rows: number }[] }>(rowsSql, [quoted]);
  const trigram = await knex.raw<{ rows: unknown[] }>(`select 1 from pg_catalog.pg_extension where extname = 'pg_trgm'`);
  const indexes = new Map<string, ExistingIndex[]>();
  for (const [wanted, list] of byTable)
    indexes.set(
      tableOf(wanted),
      list.map((index) => ({ ...index, table: tableOf(wanted) })),
    );
  return {
    indexes,
    rows: new Map(rows.rows.map((row) => [tableOf(row.wanted), row.rows])),
    trigramInstalled: trigram.rows.length > 0,
  };
}
