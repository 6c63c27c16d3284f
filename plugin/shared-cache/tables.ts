// Which tables each collection reads: its own, and every table a request on it may reach through its
// expandable relations at any depth (related tables and join tables), for expansion, counts, `has`,
// dot-path conditions and relation sorts alike; plus the host's own extra tables. Resolved once, at
// start-up, to the oids the change triggers record.

import type { Knex } from 'knex';
import { regclassName, type Catalog, type CollectionCatalog, type RelationCatalog } from '../schema';
import { TABLES_SQL } from './change-sql';

/** `users` with expandable `posts` (and `posts.comments`) -> `['users', 'posts', 'comments']`, as the models name them. */
export function tablesRead(collection: CollectionCatalog, extra: readonly string[]): string[] {
  const tables = new Set<string>([collection.table]);
  const seen = new Set<ReadonlyMap<string, RelationCatalog>>();
  const visit = (relations: ReadonlyMap<string, RelationCatalog>): void => {
    if (seen.has(relations)) return;
    seen.add(relations);
    for (const relation of relations.values()) {
      tables.add(relation.scope.table);
      if (relation.through !== undefined) tables.add(relation.through.table);
      visit(relation.relations);
    }
  };
  visit(collection.relations);
  for (const table of extra) tables.add(table);
  return [...tables];
}

/** Every table any collection reads, each once, as `to_regclass` takes it (`"cms"."articles"`). */
export function allTablesRead(catalog: Catalog, extra: readonly string[]): string[] {
  const names = new Set<string>();
  for (const collection of catalog.values()) for (const table of tablesRead(collection, extra)) names.add(regclassName(table));
  return [...names];
}

/** A table as the database knows it: its oid, and whether triggers can watch it (an ordinary table). */
export interface ResolvedTable {
  readonly name: string;
  readonly relid: string | undefined;
  readonly watchable: boolean;
}

/** `['"users"', '"v_users"']` -> their oids; a view, a materialised view or a partitioned table is not watchable. */
export async function resolveTables(knex: Knex, names: readonly string[]): Promise<Map<string, ResolvedTable>> {
  const result = await knex.raw<{ rows: { name: string; relid: string | null; kind: string | null }[] }>(TABLES_SQL, [[...names]]);
  const resolved = new Map<string, ResolvedTable>();
  for (const row of result.rows) {
    resolved.set(row.name, { name: row.name, relid: row.relid ?? undefined, watchable: row.kind === 'r' });
  }
  return resolved;
}
