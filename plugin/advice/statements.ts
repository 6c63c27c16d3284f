// Writes an advised index as the statement a host puts in a migration: `CREATE INDEX CONCURRENTLY`
// (which builds the index without blocking writes, and cannot run inside a transaction), with a
// name made from its table and keys, `IF NOT EXISTS` so the migration can run again.

import { createHash } from 'node:crypto';
import { quotedTable } from './existing';
import type { Need } from './types';

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** PostgreSQL keeps 63 bytes of a name; a longer one is cut and told apart by a hash of the whole. */
function indexName(table: string, parts: readonly string[]): string {
  const base = table.split('.').pop() as string;
  const name = [base, ...parts, 'idx'].join('_');
  if (Buffer.byteLength(name) <= 63) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  let cut = name.slice(0, 50);
  while (Buffer.byteLength(cut) > 50) cut = cut.slice(0, -1);
  return `${cut}_${hash}`;
}

/** The index a need asks for: its name and its `CREATE INDEX` statement. */
export function indexStatement(need: Need): { name: string; statement: string } {
  const head = (name: string) => `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${quote(name)} ON ${quotedTable(need.table)}`;
  if (need.kind === 'trigram') {
    const column = need.keys[0]?.column as string;
    const name = indexName(need.table, [column, 'trgm']);
    return { name, statement: `${head(name)} USING gin (lower(${quote(column)}) gin_trgm_ops)` };
  }
  const name = indexName(
    need.table,
    need.keys.map((key) => (key.desc ? `${key.column}_desc` : key.column)),
  );
  const keys = need.keys.map((key) => (key.desc ? `${quote(key.column)} DESC` : quote(key.column)));
  return { name, statement: `${head(name)} (${keys.join(', ')})` };
}

/** Enables the trigram operator classes; run once per database, before the trigram indexes. */
export const TRIGRAM_EXTENSION = 'CREATE EXTENSION IF NOT EXISTS pg_trgm';
