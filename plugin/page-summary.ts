// The facets and stats of a page (docs/query-language.md, Facets and stats): the one statement that
// computes them all runs here, and nowhere else, beside the page's own statements.

import type { Knex } from 'knex';
import { planSummary, type CompiledQuery, type ScopeHook } from './apply';
import { readSummary, type Summary } from './respond';

export interface PageSummary {
  readonly summary: Summary | undefined;
  /** Statements run: 1 with facets or stats, else 0. */
  readonly statements: number;
}

/** `facet[status]&stats[score]` -> `{facets: {status: [...]}, stats: {score: {...}}}` read by one statement. */
export async function findSummary(compiled: CompiledQuery, knex: Knex, hook: ScopeHook | undefined): Promise<PageSummary> {
  const { summary } = compiled;
  if (summary === undefined) return { summary: undefined, statements: 0 };
  const statement = await planSummary(compiled.collection, summary, compiled.plain, knex, hook);
  return { summary: readSummary(await statement.rows(), summary.items), statements: 1 };
}
