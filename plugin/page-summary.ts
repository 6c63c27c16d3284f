// The facets and stats of a page (docs/query-language.md, Facets and stats): the one statement that
// computes them all runs here, and nowhere else, beside the page's own statements; with the totals
// cache on, its answer is kept under its text and bindings (which hold the hooks' restrictions), as a
// total is.

import type { Knex } from 'knex';
import { planSummary, type CompiledQuery, type ScopeHook } from './apply';
import type { TotalsLookup } from './caches';
import { readSummary, type Summary } from './respond';

export interface PageSummary {
  readonly summary: Summary | undefined;
  /** Statements run: 1 with facets or stats, else 0. */
  readonly statements: number;
}

/** `facet[status]&stats[score]` -> `{facets: {status: [...]}, stats: {score: {...}}}` read by one statement. */
export async function findSummary(
  compiled: CompiledQuery,
  knex: Knex,
  hook: ScopeHook | undefined,
  cache?: TotalsLookup<Summary>,
): Promise<PageSummary> {
  const { summary } = compiled;
  if (summary === undefined) return { summary: undefined, statements: 0 };
  const statement = await planSummary(compiled.collection, summary, compiled.plain, knex, hook);
  const read = async () => readSummary(await statement.rows(), summary.items);
  if (cache === undefined) return { summary: await read(), statements: 1 };
  const { sql, bindings } = statement.toSQL();
  const kept = cache.get(`${sql}\u0000${JSON.stringify(bindings)}`, read);
  return { summary: await kept.total, statements: kept.counted ? 1 : 0 };
}
