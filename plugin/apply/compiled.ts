// The form of a validated query that the pipeline keeps between requests: the text of each
// statement's parts (select list, one fragment per condition group, order) with their bindings, the
// fields each record shows and the paging, and nothing of how the query was written (no clauses, no
// operands, no key/value pairs). Statements are assembled from these parts for each request, so the
// conditions shared by the rows and count statements are kept once.

import { usesOwnQueryBuilder, type CollectionCatalog, type Column } from '../schema';
import type { CsvExport, OrderKey, ValidatedExpansion, ValidatedPaging, ValidatedQuery, ValidatedScope } from '../validate';
import { aggregatable, compileAggregates, type CompiledAggregates } from './aggregated';
import { expansionTerms, matchTerms, rankJoinSql, type MatchTerm } from './ranked';
import { relatedRowsOf } from './related-rows';
import { cursorSql, keyAlias, type CursorSql } from './seek';
import { plainSources, splitJoins, textSources, type RootRelations } from './sources';
import type { CompiledExpansion, CompiledScope, Fragment, HiddenColumn } from './types';
import { flat, keptFragment } from './kept';
import { countedColumns, ownerSelect, scopeSql, type Paged } from './statements';
import { compileSummary, type CompiledSummary } from './summary';

/**
 * The root's parts, with its joins to related records (a sort key, a count: docs/query-language.md, "Sorting by a related record", "Counting related records")
 * written as text, and what the builder path needs to write its relation conditions and joins again
 * for each request around each relation's own query, hooks awaited (sources.ts).
 */
export interface CompiledRoot extends CompiledScope {
  /** Joins the conditions read (a count filtered on): the count statements have them too. */
  readonly filtered: readonly Fragment[];
  /** Joins only the rows statement reads (sort keys, counts shown), after the filtered ones. */
  readonly others: readonly Fragment[];
  /** Present when the root reads related records. */
  readonly related?: RootRelations;
  /** The counts each record shows after its fields (`posts_count`, docs/query-language.md, "Counting related records"). */
  readonly counts?: readonly Column[];
  /** `_relevance` and `_similarity` joined (ranked.ts): the last of `others`, which the builder path writes again. */
  readonly ranks?: readonly Fragment[];
}

export interface CompiledQuery {
  readonly collection: CollectionCatalog;
  /** The model's queries are its objection's own: without a scope hook, the text is sent as it is. */
  readonly plain: boolean;
  /** Its select list includes the join keys the expansions need. */
  readonly root: CompiledRoot;
  readonly expansions: readonly CompiledExpansion[];
  readonly paging: ValidatedPaging;
  /** With `cursor` (docs/query-language.md, "Cursors: cursor"): the seek, the reading order and the key columns read for the cursors. */
  readonly cursor?: CursorSql;
  /**
   * On the text path, the expansions read inside the root's rows statement (aggregated.ts) and those
   * loaded by their own; the root is then formatted after paging, its formatted rows naming their keys.
   */
  readonly aggregated?: CompiledAggregates;
  /** Facets and stats (docs/query-language.md, Facets and stats): one statement of their own. */
  readonly summary?: CompiledSummary;
  /** A CSV answer (docs/query-language.md, "Export as CSV"); `whole`: every record, one cursor page per batch. */
  readonly csv?: CsvExport;
  /** The root's `match` texts, checked for a search term when the page is empty (ranked.ts). */
  readonly terms?: readonly MatchTerm[];
  /** The expansions' `<alias>_match` texts, checked for a search term before they are read. */
  readonly aliasTerms?: readonly MatchTerm[];
}

function compileScope(
  scope: ValidatedScope,
  keys: readonly Column[],
  extra: readonly HiddenColumn[],
  paged?: Paged,
  related = textSources.exists,
): CompiledScope {
  const { from, select, where, order, formatted } = scopeSql(scope, keys, extra, paged, related);
  // Copied for the same reason: validate/ may have grown the list with room to spare.
  const output = Object.freeze([...scope.output]);
  const ranks = (scope.ranks ?? []).map((rank) => keptFragment(rankJoinSql(rank)));
  return Object.freeze({
    ...(ranks.length === 0 ? {} : { ranks: Object.freeze(ranks) }),
    from,
    select,
    where: Object.freeze(where.map(keptFragment)),
    order,
    catalog: scope.catalog,
    output,
    ...(formatted === undefined ? {} : { formatted: Object.freeze(formatted) }),
  });
}

/** Nested levels compiled the same way: the related rows are the parents of the nested expansions. */
function compileExpansion(expansion: ValidatedExpansion): CompiledExpansion {
  const { relation, parameter, maxRows, maxBytes, limitParameter, fieldsParameter, scope, window, expansions } = expansion;
  // The key its rows are grouped by, and the keys its nested expansions are loaded by (read, not shown).
  const keys = [
    ...(relation.through === undefined ? relation.relatedKeys : []),
    ...expansions.flatMap((nested) => nested.relation.ownerKeys),
  ];
  // Flat copies: a key read from the request may be a slice or concatenation holding more than its text.
  const kept = flat(parameter);
  return Object.freeze({
    relation,
    parameter: kept,
    maxRows,
    ...(maxBytes === undefined ? {} : { maxBytes }),
    limitParameter: limitParameter === parameter ? kept : flat(limitParameter),
    fieldsParameter: fieldsParameter === parameter ? kept : flat(fieldsParameter),
    // A window pages each parent's rows, so its values are formatted after paging, like the root's.
    scope: compileScope(scope, keys, ownerSelect(relation), window === undefined ? undefined : 'window'),
    ...(window === undefined ? {} : { window: Object.freeze({ limit: window.limit, offset: window.offset }) }),
    expansions: Object.freeze(expansions.map(compileExpansion)),
  });
}

/** Shared by every root without joins to related records. */
const noJoins: readonly Fragment[] = Object.freeze([]);

/**
 * The root scope; its relation conditions and joins as text (sent as it is when nothing needs a
 * builder). A cursor page (docs/query-language.md, "Cursors: cursor") reads its sort keys' text forms under hidden names; it
 * skips no rows, so its values are formatted in the one statement, unless expansions are aggregated
 * into it (`joined`: always formatted after paging, in the reading order).
 */
function compileRoot(root: ValidatedScope, keys: readonly Column[], cursorKeys?: readonly string[], joined?: Paged): CompiledRoot {
  const extra = (cursorKeys ?? []).map((sql, i) => ({ sql, alias: keyAlias(i) }));
  const compiled = compileScope(root, keys, extra, joined ?? (cursorKeys === undefined ? 'page' : undefined));
  const ranks = Object.freeze((root.ranks ?? []).map((rank) => keptFragment(rankJoinSql(rank))));
  const ranked = ranks.length === 0 ? {} : { ranks };
  if (root.joins.length === 0 && relatedRowsOf(root.groups).length === 0) {
    return Object.freeze({ ...compiled, filtered: noJoins, others: ranks.length === 0 ? noJoins : ranks, ...ranked });
  }
  const { filtered, others } = splitJoins(root);
  const counts = countedColumns(root);
  return Object.freeze({
    ...compiled,
    filtered: Object.freeze(filtered.map((join) => keptFragment(textSources.join(join)))),
    others: Object.freeze([...others.map((join) => keptFragment(textSources.join(join))), ...ranks]),
    ...ranked,
    related: Object.freeze({ groups: root.groups, joins: root.joins }),
    ...(counts.length === 0 ? {} : { counts: Object.freeze(counts) }),
  });
}

/** The order the root's rows are read in: the request's, or each direction turned for a backward cursor page (docs/query-language.md, "Cursors: cursor"). */
function readingOrder(order: readonly OrderKey[], paging: ValidatedPaging): readonly OrderKey[] {
  if (paging.kind !== 'cursor' || paging.cursor?.direction !== 'prev') return order;
  return order.map((key) => ({ ...key, direction: key.direction === 'asc' ? 'desc' : 'asc' }));
}

/** `filter[id]=>=5&per-page=10` on users -> the parts of its rows and count statements, for every later request. */
export function compileQuery(validated: ValidatedQuery): CompiledQuery {
  const { collection, root, expansions, paging } = validated;
  const cursor = paging.kind === 'cursor' ? cursorSql(root.order, paging.cursor) : undefined;
  const plain = usesOwnQueryBuilder(collection.modelClass) && plainSources(root);
  // Aggregated expansions join the root's page after paging (aggregated.ts), by their owner keys; not
  // on a cursor page past a boundary, whose first row read may be the boundary row, no parent.
  const boundary = paging.kind === 'cursor' && paging.cursor?.at !== undefined;
  const aggregated = plain && !boundary ? expansions.filter(aggregatable) : [];
  const joined: Paged | undefined =
    aggregated.length === 0
      ? undefined
      : { kind: 'joined', order: readingOrder(root.order, paging), keys: aggregated.map((e) => e.relation.ownerKeys[0] as Column) };
  const compiledRoot = compileRoot(
    root,
    expansions.flatMap((e) => e.relation.ownerKeys),
    cursor?.keys,
    joined,
  );
  const compiledExpansions = Object.freeze(expansions.map(compileExpansion));
  const rows = compiledRoot.formatted;
  // Flat copies: a text read from the request may be a slice of the whole query string.
  const keptTerm = (term: MatchTerm): MatchTerm =>
    Object.freeze({ parameter: flat(term.parameter), language: term.language, text: flat(term.text) });
  const terms = matchTerms(root.groups).map(keptTerm);
  const aliasTerms = expansionTerms(expansions).map(keptTerm);
  const aggregates =
    rows === undefined || joined === undefined ? undefined : compileAggregates(expansions, compiledExpansions, aggregated, rows, paging);
  return Object.freeze({
    collection,
    plain,
    root: compiledRoot,
    expansions: compiledExpansions,
    paging,
    ...(cursor === undefined ? {} : { cursor }),
    ...(aggregates === undefined ? {} : { aggregated: aggregates }),
    ...(validated.summary === undefined ? {} : { summary: compileSummary(validated.summary) }),
    ...(validated.csv === undefined ? {} : { csv: validated.csv }),
    ...(terms.length === 0 ? {} : { terms: Object.freeze(terms) }),
    ...(aliasTerms.length === 0 ? {} : { aliasTerms: Object.freeze(aliasTerms) }),
  });
}
