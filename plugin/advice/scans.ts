// The explain view's note on sequential scans (docs/configuration.md, "Explain"): each table a plan
// reads whole, at least `minRows` rows large, with the advised indexes on it that the collection's
// declarations need.

import type { Knex } from 'knex';
import type { Catalog } from '../schema';
import { indexAdvice } from './advise';
import type { IndexAdvice } from './types';

/** `{table: 'users', rows: 100000, indexes: [{statement: 'CREATE INDEX ...', serves: [...]}]}`. */
export interface ScanAdvice {
  readonly table: string;
  readonly rows: number;
  readonly indexes: readonly Pick<IndexAdvice, 'statement' | 'serves'>[];
}

/** The `Relation Name` of every sequential scan (parallel ones too) anywhere in the plans. */
function scannedTables(plans: unknown): Set<string> {
  const tables = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    const table = record['Relation Name'];
    if (typeof table === 'string' && String(record['Node Type']).endsWith('Seq Scan')) tables.add(table);
    Object.values(record).forEach(walk);
  };
  walk(plans);
  return tables;
}

/** The plans of `GET /api/_explain/users?sort[name]=desc&explain=plan` -> the advice for each large table they scan. */
export async function adviseScans(
  knex: Knex,
  catalog: Catalog,
  collection: string,
  plans: unknown,
  minRows: number,
): Promise<ScanAdvice[]> {
  const scanned = scannedTables(plans);
  if (scanned.size === 0) return [];
  const report = await indexAdvice(knex, catalog);
  const byTable = new Map<string, IndexAdvice[]>();
  for (const index of report.indexes) {
    // A plan names the table without its schema.
    const name = index.table.split('.').pop() as string;
    if (!index.collections.includes(collection) || !scanned.has(name) || index.rows < minRows) continue;
    byTable.set(index.table, [...(byTable.get(index.table) ?? []), index]);
  }
  return [...byTable].map(([table, indexes]) => ({
    table,
    rows: indexes[0]?.rows ?? 0,
    indexes: indexes.map(({ statement, serves }) => ({ statement, serves })),
  }));
}
