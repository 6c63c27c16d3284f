// Expansions read inside the root's rows statement, one statement fewer than loading each relation
// by its own (docs/design/expansions-in-one-statement.md): a relation without a per-parent window or nested expansions, on
// plain models, sent as text. The page is a CTE; the related rows of the parents shown are read once
// over its keys in the alias's order, at most maxRelatedRows + 1 of them
// (docs/query-language.md, "Cost limits"), then aggregated into a JSON array per parent (the select
// list's text forms, so records come out as the other way shapes them) and joined to the page,
// which the outer statement formats and orders.

import type { ValidatedExpansion, ValidatedPaging } from '../validate';
import type { CompiledExpansion, FormattedRows, Fragment, Row, Statement } from './types';
import type { BudgetPart } from './budget';
import { expansionPart, tooManyRelated } from './expansions';
import { rowsAlias } from './formatted';
import { flat, keptFragment } from './kept';
import { rootWindow, shownRows } from './paging';
import { relationParts } from './related';
import { columnSql, quoteIdentifier, quoteLiteral, selectColumn } from './sql';
import { selectStatement } from './statements';
import { BYTES_COLUMN, byteCapped } from './bytes';

/** An expansion read inside the root's statement: its records under the relation's name, and how many were read. */
export interface CompiledAggregate {
  readonly expansion: CompiledExpansion;
  /** `coalesce("__kqm_e0"."__kqm_agg", '[]'::json) as "posts", "__kqm_e0"."__kqm_read" as "__kqm_read0"`. */
  readonly select: string;
  /** Where the row holds how many related rows were read for all parents (docs/query-language.md, "Cost limits"). */
  readonly read: string;
  /** Where the row holds the bytes of JSON text of the related rows read for all parents (bytes.ts). */
  readonly sent?: string;
  /** ` left join (<related rows, aggregated per parent>) as "__kqm_e0" on ...`, with the alias's values. */
  readonly join: Fragment;
}

/** The aggregated expansions of a query on the text path, and those still loaded by their own statements. */
export interface CompiledAggregates {
  readonly aggregates: readonly CompiledAggregate[];
  readonly loaded: readonly CompiledExpansion[];
}

/** json_build_object takes at most 100 arguments: a name and a value per field. */
const MAX_FIELDS = 50;

/**
 * Whether an expansion can be read inside the root's statement: no per-parent window and no nested
 * expansions (each keeps its statement), one owner key of the same type on both sides, a related model whose records are plain (no
 * JSON of its own, no builder, no relation `modify`). `expand[posts]=p&p_fields=id,title` -> true.
 */
export function aggregatable(expansion: ValidatedExpansion): boolean {
  const { relation, scope, window, expansions } = expansion;
  const parts = relationParts(relation);
  return (
    window === undefined &&
    expansions.length === 0 &&
    parts.plain &&
    parts.ownerColumns.length === 1 &&
    // Keys compared in SQL, not through a bound array: only keys of one type (uuid = text has no operator).
    parts.ownerKeyColumns[0]?.udt === relation.ownerKeys[0]?.udt &&
    !scope.catalog.viaModel &&
    scope.output.length <= MAX_FIELDS &&
    scope.output.every((column) => column.type !== 'virtual')
  );
}

const orderAlias = (index: number): string => quoteIdentifier(`__kqm_o${index}`);
const related = quoteIdentifier('__kqm_r');
const key = quoteIdentifier('__kqm_key');

/**
 * `array(select "__kqm_rows"."id" from "__kqm_rows" order by ... limit ?)`: the keys of the parents
 * shown; a row read past the page (a cursor page, `total=none`, a cut array) is no parent.
 */
function parentKeys(ownerRef: string, rows: FormattedRows, paging: ValidatedPaging): Fragment {
  const shown = shownRows(paging);
  const all = `select ${ownerRef} from ${rowsAlias}`;
  if (rootWindow(paging).limit <= shown) return { sql: `array(${all})`, bindings: [] };
  return { sql: `array(${all} order by ${rows.order} limit ?)`, bindings: [shown] };
}

/**
 * ` left join (select "__kqm_key", json_agg(json_build_object('id', "__kqm_r"."id", ...) order by ...)
 * ... group by "__kqm_key") as "__kqm_e0" on "__kqm_e0"."__kqm_key" = "__kqm_rows"."id"` for
 * `expand[posts]=p&p_fields=id,title&p_sort[created_at]=desc`: the related rows read once, ordered
 * and cut at maxRelatedRows + 1 in the statement the expansion would have had, then grouped.
 */
function compileAggregate(
  validated: ValidatedExpansion,
  expansion: CompiledExpansion,
  index: number,
  ownerRef: string,
  rows: FormattedRows,
  paging: ValidatedPaging,
): CompiledAggregate {
  const { relation, scope } = expansion;
  const parts = relationParts(relation);
  const owner = parts.ownerColumns[0] as string;
  const { output, order } = validated.scope;
  const parents = parentKeys(ownerRef, rows, paging);
  const e = quoteIdentifier(`__kqm_e${index}`);
  const readAs = `__kqm_read${index}`;
  const statement = selectStatement({
    select: [
      `${owner} as ${key}`,
      ...output.map((column) => selectColumn(column)),
      ...order.map((orderKey, i) => `${columnSql(orderKey.column)} as ${orderAlias(i)}`),
    ].join(', '),
    from: scope.from,
    join: parts.join,
    ...(scope.ranks === undefined ? {} : { joins: scope.ranks }),
    where: [...scope.where, { sql: `${owner} = any(${parents.sql})`, bindings: parents.bindings }],
    order: scope.order,
    limit: expansion.maxRows + 1,
  });
  // Read within the byte budget too: one parent's records are never more than the budget and one record.
  const { maxBytes } = expansion;
  const read = maxBytes === undefined ? statement : { sql: byteCapped(statement.sql), bindings: [...statement.bindings, maxBytes] };
  const sentAs = `__kqm_sent${index}`;
  const sent = maxBytes === undefined ? '' : `, ${e}."__kqm_sent" as ${quoteIdentifier(sentAs)}`;
  const sentSum = maxBytes === undefined ? '' : `max(max(${related}.${quoteIdentifier(BYTES_COLUMN)})) over () as "__kqm_sent", `;
  const object = `json_build_object(${output.map((column) => `${quoteLiteral(column.name)}, ${related}.${quoteIdentifier(column.name)}`).join(', ')})`;
  const within = order.map((orderKey, i) => `${related}.${orderAlias(i)} ${orderKey.direction}`).join(', ');
  // Kept by the plan cache: flat copies of the text put together here, values in a list of their length.
  return Object.freeze({
    expansion,
    select: flat(
      `coalesce(${e}."__kqm_agg", '[]'::json) as ${quoteIdentifier(relation.name)}, ${e}."__kqm_read" as ${quoteIdentifier(readAs)}${sent}`,
    ),
    read: readAs,
    ...(maxBytes === undefined ? {} : { sent: flat(sentAs) }),
    join: keptFragment({
      sql:
        ` left join (select ${related}.${key}, json_agg(${object}${within === '' ? '' : ` order by ${within}`}) as "__kqm_agg", ` +
        `${sentSum}sum(count(*)) over () as "__kqm_read" from (${read.sql}) as ${related} group by ${related}.${key}) as ${e} on ${e}.${key} = ${ownerRef}`,
      bindings: read.bindings,
    }),
  });
}

/**
 * The root expansions the caller admitted (`admitted`, chosen with `aggregatable`), compiled against
 * the root's formatted rows (whose `keys` are their owner keys, in order); undefined when there are none.
 */
export function compileAggregates(
  validated: readonly ValidatedExpansion[],
  compiled: readonly CompiledExpansion[],
  admitted: readonly ValidatedExpansion[],
  rows: FormattedRows,
  paging: ValidatedPaging,
): CompiledAggregates | undefined {
  const aggregates: CompiledAggregate[] = [];
  const loaded: CompiledExpansion[] = [];
  validated.forEach((expansion, i) => {
    const made = compiled[i] as CompiledExpansion;
    const ownerRef = admitted.includes(expansion) ? rows.keys?.[aggregates.length] : undefined;
    if (ownerRef === undefined) loaded.push(made);
    else aggregates.push(compileAggregate(expansion, made, aggregates.length, ownerRef, rows, paging));
  });
  if (aggregates.length === 0) return undefined;
  return Object.freeze({ aggregates: Object.freeze(aggregates), loaded: Object.freeze(loaded) });
}

/**
 * `with "__kqm_rows" as (<page>) select <formatted fields>, <aggregates> from "__kqm_rows" left join
 * ... order by <page order>`: the page's rows formatted, each with its related records.
 */
export function aggregatedStatement(page: Statement, rows: FormattedRows, aggregates: readonly CompiledAggregate[]): Statement {
  let bindings = [...page.bindings];
  let joins = '';
  for (const { join } of aggregates) {
    bindings = [...bindings, ...join.bindings];
    joins += join.sql;
  }
  const select = [rows.select, ...aggregates.map((aggregate) => aggregate.select)].join(', ');
  const order = rows.order === '' ? '' : ` order by ${rows.order}`;
  return { sql: `with ${rowsAlias} as (${page.sql}) select ${select} from ${rowsAlias}${joins}${order}`, bindings };
}

/**
 * Each aggregated relation's records in the parents' rows as loading them would leave them: an
 * array, or for a to-one relation the first record or null; LIMIT_EXCEEDED when more than
 * maxRelatedRows were read for the page (docs/query-language.md, "Cost limits").
 */
export function attachAggregates(parents: readonly Row[], aggregates: readonly CompiledAggregate[]): void {
  for (const { expansion, read } of aggregates) {
    const { relation } = expansion;
    for (const parent of parents) {
      if (Number(parent[read] ?? 0) > expansion.maxRows) tooManyRelated(expansion);
      let records = parent[relation.name];
      // A host's own type parser may leave json as its text.
      if (typeof records === 'string') records = JSON.parse(records) as unknown;
      const list = Array.isArray(records) ? (records as Row[]) : [];
      parent[relation.name] = relation.cardinality === 'many' ? list : (list[0] ?? null);
    }
  }
}

/** The records of each aggregated relation in the parents' rows, as parts of the byte budget (read only on refusal). */
export function aggregatedParts(parents: readonly Row[], aggregates: readonly CompiledAggregate[]): BudgetPart[] {
  return aggregates.map(({ expansion }) => {
    const { name } = expansion.relation;
    const records = (): Row[] =>
      parents.flatMap((parent) => {
        const value = parent[name];
        const read: unknown = typeof value === 'string' ? JSON.parse(value) : value;
        return Array.isArray(read) ? (read as Row[]) : [];
      });
    return { ...expansionPart(expansion, []), records };
  });
}

/** Whether an aggregated relation's related rows passed the byte budget before they were aggregated. */
export function aggregatesOver(parents: readonly Row[], aggregates: readonly CompiledAggregate[]): boolean {
  return aggregates.some(
    ({ expansion, sent }) => sent !== undefined && parents.some((parent) => Number(parent[sent] ?? 0) > (expansion.maxBytes ?? Infinity)),
  );
}
