// Index advice (docs/installing.md#10-indexes-for-your-declarations): the indexes the collections'
// declarations need that no index of the database serves, as statements for a migration; and the
// start-up warning for collections of a size where a missing index shows.

import type { Knex } from 'knex';
import type { QueryModifiersLogger } from '../logger';
import type { Catalog } from '../schema';
import { knexNames } from '../schema/names';
import { readExisting } from './existing';
import { serves } from './match';
import { collectionNeeds } from './needs';
import { indexStatement, TRIGRAM_EXTENSION } from './statements';
import type { IndexAdvice, IndexAdviceReport, Need } from './types';

/** `indexAdvice` option: `false` skips the start-up check. */
export type IndexAdviceOptions = false | { readonly minRows?: number };

/** Collections whose advised indexes are all on tables smaller than this are not warned about. */
export const DEFAULT_MIN_ROWS = 10000;

const signature = (need: Need): string =>
  `${need.kind}\u0000${need.table}\u0000${need.keys.map((key) => `${key.column}${key.desc ? ' desc' : ''}`).join(',')}`;

/** Groups the needs asking for the same index, in the order they first appear. */
function groupNeeds(needs: readonly Need[]): Need[][] {
  const groups = new Map<string, Need[]>();
  for (const need of needs) {
    const key = signature(need);
    groups.set(key, [...(groups.get(key) ?? []), need]);
  }
  return [...groups.values()];
}

/** A lookup by `user_id` is served by an advised `(user_id, id)`: its needs join that group. */
function mergeLookups(groups: readonly Need[][]): Need[][] {
  const kept = groups.filter((group) => group[0]?.kind !== 'lookup');
  const merged: Need[][] = [];
  for (const group of groups) {
    const need = group[0] as Need;
    if (need.kind !== 'lookup') continue;
    const columns = new Set(need.keys.map((key) => key.column));
    const host = kept.find((other) => {
      const first = other[0] as Need;
      if (first.kind !== 'ordered' || first.table !== need.table || first.keys.length < columns.size) return false;
      return first.keys.slice(0, columns.size).every((key) => columns.has(key.column));
    });
    if (host === undefined) merged.push(group);
    else host.push(...group);
  }
  return [...kept, ...merged];
}

/**
 * `await indexAdvice(knex, catalog)` -> `{indexes: [{table: 'users', statement: 'CREATE INDEX
 * CONCURRENTLY IF NOT EXISTS "users_name_id_idx" ON "users" ("name", "id")', serves: ['users:
 * sort[name]=asc', 'users: filter[name]'], ...}], statements: [...]}`.
 */
export async function indexAdvice(knex: Knex, catalog: Catalog): Promise<IndexAdviceReport> {
  const names = knexNames(knex);
  const table = (name: string) => name.split('.').map(names.toDatabase).join('.');
  const needs = [...catalog.values()].flatMap((collection) => collectionNeeds(collection, table));
  const existing = await readExisting(knex, [...new Set(needs.map((need) => need.table))]);
  const missing = groupNeeds(needs).filter((group) => {
    const need = group[0] as Need;
    return !(existing.indexes.get(need.table) ?? []).some((index) => serves(index, need));
  });
  const order = (group: readonly Need[]) => needs.indexOf(group[0] as Need);
  const indexes = mergeLookups(missing)
    .sort((a, b) => order(a) - order(b))
    .map((group): IndexAdvice => {
      const need = group[0] as Need;
      return Object.freeze({
        collection: need.collection,
        collections: Object.freeze([...new Set(group.map((one) => one.collection))]),
        table: need.table,
        rows: existing.rows.get(need.table) ?? 0,
        ...indexStatement(need),
        serves: Object.freeze([...new Set(group.map((one) => `${one.collection}: ${one.serves}`))]),
      });
    });
  const trigram = indexes.some((index) => index.statement.includes('gin_trgm_ops'));
  const statements = [...(trigram && !existing.trigramInstalled ? [TRIGRAM_EXTENSION] : []), ...indexes.map((index) => index.statement)];
  return Object.freeze({ indexes: Object.freeze(indexes), statements: Object.freeze(statements) });
}

/** One line per collection that lacks an advised index on a table of at least `minRows` rows. */
export function indexWarnings(report: IndexAdviceReport, minRows: number): string[] {
  const lacking = new Map<string, IndexAdvice[]>();
  for (const index of report.indexes) {
    for (const collection of index.collections) lacking.set(collection, [...(lacking.get(collection) ?? []), index]);
  }
  return [...lacking].flatMap(([collection, indexes]) => {
    const rows = Math.max(...indexes.map((index) => index.rows));
    if (rows < minRows) return [];
    return [
      `koa-query-modifiers: collection "${collection}" lacks ${indexes.length} index${indexes.length === 1 ? '' : 'es'} ` +
        `its declarations need (on tables of up to about ${Math.round(rows)} rows); router.indexAdvice() or ` +
        '`npx koa-query-modifiers indexes` lists them as statements for a migration (docs/installing.md#10-indexes-for-your-declarations)',
    ];
  });
}

/** The start-up check: reads the advice and logs one warning per collection that needs it. */
export async function warnAboutIndexes(
  knex: Knex,
  catalog: Catalog,
  options: { readonly minRows: number } | undefined,
  logger: QueryModifiersLogger,
): Promise<void> {
  if (options === undefined) return;
  // Called with the error only when there is one: console.warn would print `undefined`.
  const warn = (...args: [message: string, error?: unknown]) => (logger.warn === undefined ? logger.error(...args) : logger.warn(...args));
  try {
    const report = await indexAdvice(knex, catalog);
    for (const line of indexWarnings(report, options.minRows)) warn(line);
  } catch (error) {
    // Advice never stops the routes from starting.
    warn('koa-query-modifiers: the index advice could not be read', error);
  }
}
