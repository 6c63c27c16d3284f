// Per-parent windows (docs/query-language.md, "Per-parent windows"): each parent's related records
// from `<alias>_offset`, at most `<alias>_limit`, in the alias's order with the primary-key
// tie-breaker, for every parent in one statement: the parents' keys unnested, each joined LATERAL
// to its own ordered, limited related rows. The whole statement still reads at most maxRelatedRows
// + 1 rows. A row_number() window over the parents' keys was measured too and costs as many rows as
// the parents have related records, not as many as the windows hold
// (docs/design/per-parent-windows.md).

import type { Knex } from 'knex';
import type { ExpansionWindow } from '../validate';
import type { CompiledExpansion, Statement } from './types';
import { relatedBuilder, relationParts, type RelationParts } from './related';
import { viaRaw, viaText, type Runnable, type ScopeHook } from './runnable';
import { quoteIdentifier, typeSql } from './sql';
import { rowsAlias } from './formatted';
import { selectStatement } from './statements';

const parentAlias = quoteIdentifier('__kqm_parent');
const parentKey = (i: number): string => quoteIdentifier(`__kqm_key${i}`);

/** One column of `values` per owner key: `[[1, 'a'], [2, 'b']]` -> `[[1, 2], ['a', 'b']]`. */
function keyArrays(values: readonly unknown[], keys: number): unknown[][] {
  if (keys === 1) return [[...values]];
  return Array.from({ length: keys }, (_, i) => values.map((tuple) => (tuple as unknown[])[i]));
}

/**
 * `from unnest(?::"int4"[]) as "__kqm_parent"("__kqm_key0") cross join lateral (<inner>) as "__kqm_rows"`:
 * the inner statement runs once per parent key, so each parent reads only its own window.
 */
interface Lateral {
  readonly from: string;
  readonly ownedBy: string;
}

// The same for every window on a relation: worked out once per relation of the catalog.
const lateralOf = new WeakMap<RelationParts, Lateral>();

function lateralFrom(parts: RelationParts): Lateral {
  const known = lateralOf.get(parts);
  if (known !== undefined) return known;
  const arrays = parts.ownerKeyColumns.map((column) => `?::${parts.keysAsText ? 'text' : typeSql(column)}[]`).join(', ');
  const names = parts.ownerKeyColumns.map((_, i) => parentKey(i)).join(', ');
  const ownedBy = parts.ownerColumns.map((column, i) => `${column} = ${parentAlias}.${parentKey(i)}`).join(' and ');
  const made = Object.freeze({ from: `from unnest(${arrays}) as ${parentAlias}(${names}) cross join lateral`, ownedBy });
  lateralOf.set(parts, made);
  return made;
}

/** The outer select list: the window's rows as read, or formatted when the scope's values need it (statements.ts). */
const headOf = (expansion: CompiledExpansion, lateral: Lateral): string =>
  `select ${expansion.scope.formatted?.select ?? `${rowsAlias}.*`} ${lateral.from}`;

/** The statement text without a builder (plain models, no hook), from the compiled scope's parts. */
function windowText(expansion: CompiledExpansion, parts: RelationParts, window: ExpansionWindow, values: readonly unknown[]): Statement {
  const { select, from, where, order } = expansion.scope;
  const lateral = lateralFrom(parts);
  const { ownedBy } = lateral;
  const inner = selectStatement({
    select,
    from,
    join: parts.join,
    ...(expansion.scope.ranks === undefined ? {} : { joins: expansion.scope.ranks }),
    where: [...where, { sql: ownedBy, bindings: [] }],
    order,
    limit: window.limit,
    offset: window.offset,
  });
  return {
    sql: `${headOf(expansion, lateral)} (${inner.sql}) as ${rowsAlias} limit ?`,
    bindings: [...keyArrays(values, parts.ownerColumns.length), ...inner.bindings, expansion.maxRows + 1],
  };
}

/** The same statement around the related model's builder, so the host's hooks see the query they know. */
async function windowBuilder(
  knex: Knex,
  expansion: CompiledExpansion,
  parts: RelationParts,
  window: ExpansionWindow,
  values: readonly unknown[],
  hook?: ScopeHook,
): Promise<Runnable> {
  const lateral = lateralFrom(parts);
  const { query: inner } = await relatedBuilder(knex, expansion, hook);
  inner.whereRaw(lateral.ownedBy);
  if (window.limit !== undefined) inner.limit(window.limit);
  if (window.offset > 0) inner.offset(window.offset);
  const keys = keyArrays(values, parts.ownerColumns.length) as Knex.RawBinding[];
  return viaRaw(
    knex,
    knex.raw(`${headOf(expansion, lateral)} ? as ${rowsAlias} limit ?`, [...keys, inner.toKnexQuery(), expansion.maxRows + 1]),
  );
}

/** The windowed rows of every parent in one statement (docs/query-language.md, "Per-parent windows"). */
export async function windowQuery(
  values: readonly unknown[],
  knex: Knex,
  expansion: CompiledExpansion,
  hook?: ScopeHook,
): Promise<Runnable> {
  const window = expansion.window as ExpansionWindow;
  const parts = relationParts(expansion.relation);
  if (hook === undefined && parts.plain) return viaText(knex, windowText(expansion, parts, window, values));
  return windowBuilder(knex, expansion, parts, window, values, hook);
}
