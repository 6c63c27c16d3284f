// What both ways of running a statement share: the builder types the host's hooks see, and a
// Runnable that is either an Objection/knex builder or statement text sent through knex.raw.

import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Model, QueryBuilder as QueryBuilderType } from 'objection';
import type { RelationCatalog } from '../schema';
import { byteCapped, byteCappedBy, knownSize, learnColumns } from './bytes';
import { rowsAlias } from './formatted';
import type { FormattedRows, Fragment, Row, ScopeSql, Statement } from './types';
import { joinThrough, throughOn } from './statements';

export type ModelQuery = QueryBuilderType<Model, Model[]>;

/**
 * The host's restrictions of one request, called with the collection name (`users`) or a relation
 * path (`users.posts`) and that query (docs/configuration.md, "scopeModel and scope"); awaited before the query is built further.
 */
export type ScopeHook = (label: string, query: ModelQuery) => Promise<void>;

/** A statement ready to run, and its text in knex's `toSQL()` form. */
export interface Runnable {
  toSQL(): Statement;
  rows(): Promise<Row[]>;
  /**
   * The rows within `bytes` of JSON text and the first one past it, each with its running sum
   * (bytes.ts); only for statements whose rows are shown.
   */
  rowsWithin?(bytes: number): Promise<Row[]>;
}

/**
 * A builder run as one raw statement: knex hands raw results to a host's `postProcessResponse` whole,
 * so its row-key mappers (knexSnakeCaseMappers) leave the rows keyed by the plugin's own aliases.
 */
export function viaBuilder(knex: Knex, query: ModelQuery | Knex.QueryBuilder): Runnable {
  const compiled = () => ('toKnexQuery' in query ? query.toKnexQuery() : query);
  return {
    toSQL: () => {
      const { sql, bindings } = compiled().toSQL();
      return { sql, bindings };
    },
    rows: async () => (await knex.raw<{ rows: Row[] }>('?', [compiled()])).rows,
    rowsWithin: async (bytes) => (await knex.raw<{ rows: Row[] }>(byteCapped('?'), [compiled(), bytes])).rows,
  };
}

/**
 * PostgreSQL's plan (`EXPLAIN (FORMAT JSON)`) of a builder's statement, which is embedded as a binding
 * the way viaBuilder sends one, so knex reads no `?` inside its quoted identifiers as a placeholder.
 */
export function viaExplain(knex: Knex, query: ModelQuery | Knex.Raw): Runnable {
  const compiled = () => ('toKnexQuery' in query ? query.toKnexQuery() : query);
  return {
    toSQL: () => {
      const { sql, bindings } = compiled().toSQL();
      return { sql: `explain (format json) ${sql}`, bindings };
    },
    rows: async () => (await knex.raw<{ rows: Row[] }>('explain (format json) ?', [compiled()])).rows,
  };
}

/** A raw statement wrapped around a builder: `toSQL` as knex writes it, rows as the raw result's. */
export function viaRaw(knex: Knex, raw: Knex.Raw): Runnable {
  return {
    toSQL: () => {
      const { sql, bindings } = raw.toSQL();
      return { sql, bindings };
    },
    rows: async () => ((await raw) as { rows: Row[] }).rows,
    rowsWithin: async (bytes) => (await knex.raw<{ rows: Row[] }>(byteCapped('?'), [raw, bytes])).rows,
  };
}

/** formattedStatement() around a builder: the builder filters, orders and pages; the outer statement formats its rows. */
export function formattedBuilder(knex: Knex, inner: ModelQuery | Knex.Raw, formatted: FormattedRows): Runnable {
  const order = formatted.order === '' ? '' : ` order by ${formatted.order}`;
  // knex writes a builder in its `?` in parentheses, a raw statement as it is.
  const [source, from] = 'toKnexQuery' in inner ? [inner.toKnexQuery(), '?'] : [inner, '(?)'];
  return viaRaw(knex, knex.raw(`select ${formatted.select} from ${from} as ${rowsAlias}${order}`, [source]));
}

/** What a query object is to knex's client: the statement, and after it ran, the driver's response. */
interface ClientQuery {
  readonly method: 'raw';
  /** What knex's own runner gives each query, so a host's listeners can pair `query` and `query-response`. */
  readonly __knexQueryUid: string;
  sql: string;
  bindings: unknown[];
  readonly options: Record<string, never>;
  response?: unknown;
}

/** The part of knex's client (knex 0.95 to 3) its own runner uses to run one raw statement. */
interface RunnerClient {
  acquireConnection(): Promise<{ __knexUid?: string; __knexTxId?: string }>;
  releaseConnection(connection: unknown): Promise<void>;
  query(connection: unknown, query: ClientQuery): Promise<ClientQuery>;
  processResponse(query: ClientQuery, runner: undefined): unknown;
  postProcessResponse(response: unknown, queryContext: undefined): unknown;
  emit(event: string, ...args: unknown[]): boolean;
}

/**
 * Runs statement text the way knex runs `knex.raw(sql, bindings)` (a pooled connection, or the
 * transaction's; the host's `query`, `query-response` and `query-error` events and its
 * `postProcessResponse`), without building a Raw and a Runner for it: that costs more CPU than the
 * driver does (docs/design/running-statements.md). A host listening to knex's `start` event, which hands it the
 * builder to change, gets `knex.raw` itself.
 */
async function runText(knex: Knex, sql: string, bindings: readonly unknown[]): Promise<Row[]> {
  return (await runTextResult(knex, sql, bindings)).rows;
}

/** The driver's result of runText: its rows and, where the driver tells them, its columns (`fields`). */
interface TextResult {
  readonly rows: Row[];
  readonly fields?: unknown;
}

async function runTextResult(knex: Knex, sql: string, bindings: readonly unknown[]): Promise<TextResult> {
  if (knex.listenerCount('start') > 0) return knex.raw<TextResult>(sql, bindings as Knex.RawBinding[]);
  const client = knex.client as RunnerClient;
  const connection = await client.acquireConnection();
  try {
    const query: ClientQuery = { method: 'raw', __knexQueryUid: randomUUID(), sql, bindings: [...bindings], options: {} };
    const done = await client.query(connection, query);
    const response = client.postProcessResponse(client.processResponse(done, undefined), undefined);
    const { __knexUid, __knexTxId } = connection;
    client.emit('query-response', response, { __knexUid, __knexTxId, ...query }, undefined);
    // The driver's own response: a host's postProcessResponse may have changed the one it returns.
    return { rows: (response as { rows: Row[] }).rows, fields: (done.response as { fields?: unknown } | undefined)?.fields };
  } finally {
    await client.releaseConnection(connection);
  }
}

/**
 * Statement text written by statements.ts is already in knex's `toSQL()` form (`?` placeholders,
 * no `??` for knex to expand), so `toSQL` returns it as written instead of formatting it again.
 * Given a function, the text is written when first needed. `kept`: what the plan cache keeps of the
 * statement (its compiled parts), by which the byte budget's wrapper learns its columns once (bytes.ts).
 */
export function viaText(knex: Knex, statement: Statement | (() => Statement), kept?: object): Runnable {
  const text = typeof statement === 'function' ? statement : () => statement;
  return {
    toSQL: text,
    rows: () => {
      const { sql, bindings } = text();
      return runText(knex, sql, bindings);
    },
    rowsWithin: async (bytes) => {
      const { sql, bindings } = text();
      const size = kept === undefined ? undefined : knownSize(kept);
      const result = await runTextResult(knex, size === undefined ? byteCapped(sql) : byteCappedBy(sql, size), [...bindings, bytes]);
      if (kept !== undefined && size === undefined) learnColumns(kept, result.fields);
      return result.rows;
    },
  };
}

export function applyConditions(query: ModelQuery, where: ScopeSql['where']): void {
  for (const { sql, bindings } of where) query.whereRaw(sql, [...bindings] as Knex.RawBinding[]);
}

/** Joins written by related.ts (` left join lateral ...`), in order. */
export function applyJoins(query: ModelQuery, joins: readonly Fragment[]): void {
  for (const { sql, bindings } of joins) query.joinRaw(sql.trimStart(), [...bindings] as Knex.RawBinding[]);
}

/** The join a relation query needs on the builder path: plain, or through the join table's own `modify`. */
export function joinOnBuilder(query: ModelQuery, knex: Knex, relation: RelationCatalog): void {
  const through = relation.through;
  if (through === undefined) return;
  if (through.modify === undefined) {
    query.joinRaw(joinThrough(relation).trimStart());
    return;
  }
  const source = through.modelClass.query(knex).modify(through.modify).as(through.table) as unknown as string;
  // The join table's query is named after the table, so its columns keep their references.
  query.join(source, (join) => {
    join.on(knex.raw(throughOn(relation, through)));
  });
}

export function applySelectAndOrder(query: ModelQuery, knex: Knex, select: string, order: string): void {
  query.select(knex.raw(select));
  if (order !== '') query.orderByRaw(order);
}
