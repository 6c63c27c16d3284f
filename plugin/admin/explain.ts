// Answers the admin "explain" request: runs exactly what the collection request would run, inside a
// read-only transaction that is always rolled back, and reports the statements (and, on demand,
// PostgreSQL's plan for each). Nothing runs that a client could not run through the API.

import type { Knex } from 'knex';
import type { ResolvedOptions } from '../options';
import { runPipeline, type PipelineRequest } from '../pipeline';
import type { CollectionCatalog } from '../schema';
import { describeQuery, parseQueryString } from '../syntax';
import { validateQuery, type ValidatedExpansion, type ValidatedScope } from '../validate';

export interface Statement {
  readonly sql: string;
  readonly bindings: readonly unknown[];
}

export interface Explanation {
  readonly statements: Statement[];
  readonly plan?: unknown[];
  /** How each searched field is compared, when the request searches (chosen from the indexes at start-up). */
  readonly search?: SearchChoice[];
}

/** `{scope: 'users', field: 'name', form: 'ILIKE', index: 'users_name_trgm'}`. */
export interface SearchChoice {
  readonly scope: string;
  readonly field: string;
  readonly form: 'ILIKE' | 'lower() LIKE lower()';
  /** The index the form was chosen for; null when none serves it (the table is scanned). */
  readonly index: string | null;
}

/** Every searched field of a scope and, depth first, of its expansions. */
function searchChoices(scope: ValidatedScope, expansions: readonly ValidatedExpansion[]): SearchChoice[] {
  const choices: SearchChoice[] = [];
  for (const group of scope.groups) {
    for (const { condition } of group.anyOf.flat()) {
      if (condition.kind !== 'search') continue;
      for (const column of condition.columns) {
        if (choices.some((c) => c.field === column.name)) continue;
        choices.push({
          scope: scope.catalog.label,
          field: column.name,
          form: column.search?.kind === 'lower' ? 'lower() LIKE lower()' : 'ILIKE',
          index: column.search?.index ?? null,
        });
      }
    }
  }
  return [...choices, ...expansions.flatMap((e) => searchChoices(e.scope, e.expansions))];
}

interface QueryEvent {
  sql: string;
  bindings?: unknown[];
}

/** The driver's own connection: pg's Client and PGlite both answer `query(text, values)` with rows. */
interface NativeConnection {
  query(text: string, values: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

function isNativeConnection(value: unknown): value is NativeConnection {
  return typeof value === 'object' && value !== null && typeof (value as { query?: unknown }).query === 'function';
}

/** The connection the transaction runs on (a transaction's client always hands out that one). */
async function connectionOf(trx: Knex.Transaction): Promise<NativeConnection> {
  const client = trx.client as { acquireConnection(): Promise<unknown> };
  const connection = await client.acquireConnection();
  if (!isNativeConnection(connection)) throw new Error('koa-query-modifiers: the database driver has no query(text, values) method');
  return connection;
}

/**
 * The plan of a captured statement. It is run as captured, in the driver's native `$n` form with
 * its native bindings, straight on the connection: knex would read every `?` as a placeholder,
 * including one inside a quoted identifier such as `"a?b"`.
 */
async function planOf(connection: NativeConnection, statement: Statement): Promise<unknown> {
  // The estimate of `total=estimated` is itself a plan, and PostgreSQL cannot explain an EXPLAIN.
  if (/^explain\b/i.test(statement.sql)) return null;
  const result = await connection.query(`EXPLAIN (FORMAT JSON) ${statement.sql}`, [...statement.bindings]);
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
    // The request was valid (the pipeline ran it): validated again here, for what the statements do not say.
    const validated = validateQuery(describeQuery(parseQueryString(request.queryString)), collection, options);
    const searched = searchChoices(validated.root, validated.expansions);
    const search = searched.length === 0 ? {} : { search: searched };
    if (!withPlan) return { statements, ...search };
    const connection = await connectionOf(trx);
    const plan: unknown[] = [];
    for (const statement of statements) plan.push(await planOf(connection, statement));
    return { statements, plan, ...search };
  } finally {
    await trx.rollback();
  }
}
