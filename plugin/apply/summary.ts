// A request's facets and stats (docs/query-language.md, Facets and stats): their parts kept with the
// compiled query, and the one statement that computes them all, planned here and nowhere else. Each
// item's records are the root's under the request's conditions without the clauses on its field,
// written as text when nothing needs a builder, or as the root model's query with the host's hooks
// awaited (the scope applies to facets as to the rows), embedded as a binding.

import type { Knex } from 'knex';
import type { CollectionCatalog, Column } from '../schema';
import type { ConditionGroup, RelationJoin, ValidatedBucket, ValidatedSummary } from '../validate';
import { renderGroup } from './conditions';
import { keptFragment } from './kept';
import { applyConditions, applyJoins, viaRaw, viaText, type ModelQuery, type Runnable, type ScopeHook } from './runnable';
import { builtSources, splitJoins, textSources, type RootRelations } from './sources';
import { fragment, quoteTable } from './sql';
import type { Fragment } from './types';
import { summaryStatement, type SummaryPart } from './summary-sql';

interface CompiledItemBase {
  /** The field's name, the key of its facet or stats in the envelope. */
  readonly name: string;
  readonly column: Column;
  /** The item's conditions and the joins they read, as text. */
  readonly where: readonly Fragment[];
  readonly filtered: readonly Fragment[];
  /** What the builder path writes again around each relation's own query. */
  readonly related: RootRelations;
}

export type CompiledSummaryItem =
  (CompiledItemBase & { readonly kind: 'facet'; readonly bucket: ValidatedBucket }) | (CompiledItemBase & { readonly kind: 'stats' });

/** Every facet, then every stats, in the order they were asked for; `limit` values per facet. */
export interface CompiledSummary {
  readonly items: readonly CompiledSummaryItem[];
  readonly limit: number;
}

function compileConditions(groups: readonly ConditionGroup[], joins: readonly RelationJoin[]): Omit<CompiledItemBase, 'name' | 'column'> {
  const related = { groups, joins };
  const { filtered } = splitJoins(related);
  return {
    where: Object.freeze(groups.map((group) => keptFragment(renderGroup(group, textSources.exists)))),
    filtered: Object.freeze(filtered.map((join) => keptFragment(textSources.join(join)))),
    related: Object.freeze({ groups, joins: filtered }),
  };
}

/** `facet[status]&stats[score]` validated -> the parts every later request assembles its statement from. */
export function compileSummary(summary: ValidatedSummary): CompiledSummary {
  const items: CompiledSummaryItem[] = [
    ...summary.facets.map((f) => ({
      kind: f.kind,
      name: f.column.name,
      column: f.column,
      bucket: f.bucket,
      ...compileConditions(f.groups, f.joins),
    })),
    ...summary.stats.map((s) => ({ kind: s.kind, name: s.column.name, column: s.column, ...compileConditions(s.groups, s.joins) })),
  ];
  return Object.freeze({ items: Object.freeze(items.map((item) => Object.freeze(item))), limit: summary.limit });
}

/** `(select "users".* from "users" where ...)`: an item's records, as text. */
function textSource(collection: CollectionCatalog, item: CompiledSummaryItem): Fragment {
  const from = quoteTable(collection.table);
  const joins = item.filtered.map((j) => j.sql).join('');
  const where = item.where.length === 0 ? '' : ` where ${item.where.map((w) => w.sql).join(' and ')}`;
  const bindings = [...item.filtered.flatMap((j) => j.bindings), ...item.where.flatMap((w) => w.bindings)];
  return fragment(`(select ${from}.* from ${from}${joins}${where})`, bindings);
}

/** An item's records as the root model's query, its relation conditions built and every hook awaited. */
async function builderSource(
  collection: CollectionCatalog,
  item: CompiledSummaryItem,
  knex: Knex,
  hook: ScopeHook | undefined,
): Promise<Fragment> {
  const query: ModelQuery = collection.modelClass.query(knex);
  const { related } = item;
  if (related.groups.length > 0 || related.joins.length > 0) {
    const sources = await builtSources(related, knex, hook);
    applyJoins(query, related.joins.map(sources.join));
    applyConditions(
      query,
      related.groups.map((group) => renderGroup(group, sources.exists)),
    );
  }
  await hook?.(collection.name, query);
  return fragment('?', [query.toKnexQuery()]);
}

const partOf = (item: CompiledSummaryItem, source: Fragment): SummaryPart =>
  item.kind === 'facet'
    ? { kind: 'facet', column: item.column, bucket: item.bucket, source }
    : { kind: 'stats', column: item.column, source };

/**
 * The statement of all facets and stats of a request: text when `plain` and no hook, else a raw
 * statement around the items' builders. Its rows are read by respond/'s readSummary(); with
 * `explain`, the rows are the planner's `EXPLAIN (FORMAT JSON)` of it instead (the heavy lane's cost).
 */
export async function planSummary(
  collection: CollectionCatalog,
  summary: CompiledSummary,
  plain: boolean,
  knex: Knex,
  hook: ScopeHook | undefined,
  explain = false,
): Promise<Runnable> {
  const prefix = explain ? 'explain (format json) ' : '';
  if (plain && hook === undefined) {
    return viaText(knex, () => {
      const { sql, bindings } = summaryStatement(
        summary.items.map((item) => partOf(item, textSource(collection, item))),
        summary.limit,
      );
      return { sql: prefix + sql, bindings };
    });
  }
  const parts: SummaryPart[] = [];
  for (const item of summary.items) parts.push(partOf(item, await builderSource(collection, item, knex, hook)));
  const { sql, bindings } = summaryStatement(parts, summary.limit);
  return viaRaw(knex, knex.raw(prefix + sql, bindings as Knex.RawBinding[]));
}
