// Answers the admin "explain" request: runs exactly what the collection request would run, inside a
// read-only transaction that is always rolled back, and reports the statements (and, on demand,
// PostgreSQL's plan for each). Nothing runs that a client could not run through the API.

import type { Knex } from 'knex';
import type { ResolvedOptions } from '../options';
import { runPipeline, type PipelineRequest } from '../pipeline';
import type { CollectionCatalog } from '../schema';

export interface Statement {
  readonly sql: string;
  readonly bindings: readonly unknown[];
}

export interface Explanation {
  readonly statements: Statement[];
  readonly plan?: unknown[];
}

interface QueryEvent {
  sql: string;
  bindings?: unknown[];
}

// Captured SQL is in the driver's native `$n` form; knex.raw wants `?` placeholders, in the same order.
const toKnexPlaceholders = (sql: string): string => sql.replace(/\$\d+/g, '?');

async function planOf(trx: Knex.Transaction, statement: Statement): Promise<unknown> {
  const result: { rows: { 'QUERY PLAN': unknown }[] } = await trx.raw(
    `EXPLAIN (FORMAT JSON) ${toKnexPlaceholders(statement.sql)}`, [...statement.bindings] as Knex.RawBinding[]);
  return result.rows[0]?.['QUERY PLAN'];
}

/** `GET /api/_explain/users?filter[id]=>=5&explain=plan` -> the statements and their plans. */
export async function explainRequest(
  collection: CollectionCatalog,
  options: ResolvedOptions,
  request: PipelineRequest,
  withPlan: boolean,
): Promise<Explanation> {
  const trx = await options.knex.transaction();
  try {
    await trx.raw('SET TRANSACTION READ ONLY');
    const statements: Statement[] = [];
    const capture = (event: QueryEvent) => statements.push({ sql: event.sql, bindings: event.bindings ?? [] });
    trx.on('query', capture);
    try {
      await runPipeline(collection, { ...options, knex: trx }, request);
    } finally {
      trx.off('query', capture);
    }
    if (!withPlan) return { statements };
    const plan: unknown[] = [];
    for (const statement of statements) plan.push(await planOf(trx, statement));
    return { statements, plan };
  } finally {
    await trx.rollback();
  }
}
