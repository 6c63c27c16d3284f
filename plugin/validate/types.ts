// What a request means against the catalog: resolved columns and typed values. The apply stage only
// accepts these types, so it can never be handed unchecked client text.

import type { CollectionCatalog, Column, FullTextCatalog, RelationCatalog, ScopeCatalog } from '../schema';
import type { CursorDirection, CursorToken, DateBucket, Operator, SortDirection } from '../syntax';

export type BoundValue = string | number | boolean;

/**
 * A typed comparison value: NULL, a bindable value, or a whole UTC day `[start, end)`
 * (docs/query-language.md, "Dates against timestamp columns").
 */
export type Operand =
  | { readonly kind: 'null' }
  | { readonly kind: 'value'; readonly value: BoundValue }
  | { readonly kind: 'day'; readonly start: string; readonly end: string };

export type Condition =
  | { readonly kind: 'compare'; readonly column: Column; readonly operator: Operator; readonly operand: Operand }
  | { readonly kind: 'in'; readonly column: Column; readonly items: readonly Operand[] }
  | { readonly kind: 'between'; readonly column: Column; readonly min: Operand; readonly max: Operand }
  | { readonly kind: 'search'; readonly columns: readonly Column[]; readonly pattern: string }
  /** At least one related record satisfies the conditions (docs/query-language.md, "Relations in conditions"). */
  | { readonly kind: 'exists'; readonly related: RelatedRows }
  /** The document matches `text` in web-search syntax (docs/query-language.md, "Ranked search: match and similar"). */
  | { readonly kind: 'match'; readonly fullText: FullTextCatalog; readonly text: string; readonly parameter: string }
  /** The field's trigram similarity to `text` is at least `threshold`. */
  | { readonly kind: 'similar'; readonly column: Column; readonly text: string; readonly threshold: number };

/**
 * `_relevance` or `_similarity` of each record, joined to the statement as
 * `cross join lateral (select <rank> as "v") as "<alias>"`; `column` is how it is read.
 */
export interface RankJoin {
  readonly alias: string;
  readonly column: Column;
  readonly rank:
    | { readonly kind: 'relevance'; readonly fullText: FullTextCatalog; readonly text: string }
    | { readonly kind: 'similarity'; readonly column: Column; readonly text: string };
}

/**
 * The related records of one parent that a relation condition reads: those the relation, its
 * `modify` and the host's hooks let through, narrowed by `groups` (on the related scope's columns,
 * joined with AND; none: every related record).
 */
export interface RelatedRows {
  readonly relation: RelationCatalog;
  readonly groups: readonly ConditionGroup[];
}

export interface Term {
  readonly negated: boolean;
  readonly condition: Condition;
}

/** One parenthesised group: OR of AND-lists, i.e. NOT before AND before OR (docs/query-language.md, "Grouping"). */
export interface ConditionGroup {
  readonly anyOf: readonly (readonly Term[])[];
}

/** A sort key: a column of the scope, or a value joined from related records (`RelationJoin`). */
export interface OrderKey {
  readonly column: Column;
  readonly direction: SortDirection;
}

/**
 * A value of each root record computed from its related records (a relation sort key, a count), joined to the
 * root statement as `left join lateral (...) as "<alias>" on true`: one row per record, so records
 * are never repeated. `column` is how the root statement reads it (`"<alias>"."<column>"`).
 * `first`: a field of the first related record (primary-key order), NULL without one; `count`: how
 * many related records there are.
 */
export type RelationJoin =
  | { readonly kind: 'first'; readonly alias: string; readonly related: RelatedRows; readonly field: Column; readonly column: Column }
  /**
   * `grouped`: counted for every record at once (a grouped left join), for a count the request
   * sorts by, which needs every record's count anyway; otherwise per record (a lateral join), which
   * costs only the records read.
   */
  | { readonly kind: 'count'; readonly alias: string; readonly related: RelatedRows; readonly column: Column; readonly grouped: boolean };

export interface ValidatedScope {
  readonly catalog: ScopeCatalog;
  /** The fields each record shows, in output order. */
  readonly output: readonly Column[];
  /** All groups are joined with AND. */
  readonly groups: readonly ConditionGroup[];
  /** Requested sort keys followed by the primary-key tie-breaker. */
  readonly order: readonly OrderKey[];
  /** Values joined from related records, in the order their aliases were given; the root's only. */
  readonly joins: readonly RelationJoin[];
  /** `_relevance` and `_similarity`, with `match` and `similar` (or `<alias>_match`, `<alias>_similar`). */
  readonly ranks?: readonly RankJoin[];
}

/**
 * `<alias>_limit` / `<alias>_offset`: each parent's related records from `offset`, at most `limit`
 * (docs/query-language.md, "Per-parent windows").
 */
export interface ExpansionWindow {
  readonly limit: number | undefined;
  readonly offset: number;
}

export interface ValidatedExpansion {
  readonly relation: RelationCatalog;
  /** The key that asked for it, e.g. `expand[posts]`, for problems. */
  readonly parameter: string;
  /** Most related records loaded for all parents together (docs/query-language.md, "Cost limits"). */
  readonly maxRows: number;
  /** What a request over `maxRows` names: `<alias>_limit` for an aliased to-many relation, else `parameter`. */
  readonly limitParameter: string;
  /** Most bytes of JSON text of related records read for all parents (limits.maxResponseBytes). */
  readonly maxBytes?: number;
  /** What a response over its byte budget names for fewer fields: `<alias>_fields`, else `parameter`. */
  readonly fieldsParameter: string;
  /** Its catalog's label is the relation's path, e.g. `users.posts.comments` (docs/configuration.md, "scopeModel and scope"). */
  readonly scope: ValidatedScope;
  /** A per-parent window, on to-many relations only. */
  readonly window?: ExpansionWindow;
  /** The relations expanded in each related record (`<alias>_expand[...]`, docs/query-language.md, "Nested expansion"). */
  readonly expansions: readonly ValidatedExpansion[];
}

/**
 * How a page's total is found (docs/query-language.md, "Totals: total=exact, estimated, none"):
 * counted; counted up to `estimateAbove` records and estimated by the planner past that; or not at
 * all (the simple envelope, one row read past the page).
 */
export type ValidatedTotal =
  { readonly kind: 'exact' } | { readonly kind: 'estimated'; readonly estimateAbove: number } | { readonly kind: 'none' };

/**
 * Opens a client's `cursor=` text for a collection (the mount's seal, cursor-seal.ts): its content, or
 * undefined when it is not a cursor sealed for that collection with a key the mount still has.
 */
export interface CursorOpener {
  open(collection: string, text: string): CursorToken | undefined;
}

/**
 * Where a cursor page starts (docs/query-language.md, "Cursors: cursor"): after (`next`) or before
 * (`prev`) the boundary row's sort values, one per order key, typed as a filter value of that key
 * would be; `at` undefined: from the start (`next`) or the end (`prev`) of the results.
 */
export interface ValidatedCursor {
  readonly direction: CursorDirection;
  readonly at: readonly (BoundValue | null)[] | undefined;
  /**
   * The same values as the cursor holds them (the select list's text forms): a row read with exactly
   * these keys is the boundary row itself (its primary key is among them). Undefined with `at`.
   */
  readonly texts: readonly (string | null)[] | undefined;
  /** False when a value's type has no check before SQL (`other`, arrays): the database's refusal of it is the cursor's fault. */
  readonly checked: boolean;
}

/**
 * `page`: an envelope. `cursor`: a keyset page (docs/query-language.md, "Cursors: cursor"). `rows`:
 * a bare array of at most `limit` rows from `offset`; `truncatable` when `limit` is the server's
 * maxRows cap rather than the client's own limit
 * (docs/query-language.md, "limit, offset and the row cap").
 */
export type ValidatedPaging =
  | { readonly kind: 'page'; readonly page: number; readonly pageSize: number; readonly total: ValidatedTotal }
  | { readonly kind: 'rows'; readonly limit: number; readonly offset: number; readonly truncatable: boolean }
  /** `cursor=...`: Laravel's cursor envelope; `cursor` undefined for the first page (`cursor=`). */
  | { readonly kind: 'cursor'; readonly pageSize: number; readonly cursor: ValidatedCursor | undefined };

/** A facet's grouping: each value, a UTC date bucket, or a number's width (docs/query-language.md, Facets and stats). */
export type ValidatedBucket =
  { readonly kind: 'value' } | { readonly kind: 'date'; readonly unit: DateBucket } | { readonly kind: 'width'; readonly width: number };

/**
 * One facet or stats: its root field and the records it reads, those matching every condition of the
 * request except the clauses on that field (`groups`; `joins` holds the root's joins they may read).
 */
export interface SummaryTarget {
  readonly parameter: string;
  readonly column: Column;
  readonly groups: readonly ConditionGroup[];
  readonly joins: readonly RelationJoin[];
}

export interface ValidatedFacet extends SummaryTarget {
  readonly kind: 'facet';
  readonly bucket: ValidatedBucket;
}

export interface ValidatedStats extends SummaryTarget {
  readonly kind: 'stats';
}

/** Every facet and stats of a request, computed by one statement; `limit` values per facet. */
export interface ValidatedSummary {
  readonly facets: readonly ValidatedFacet[];
  readonly stats: readonly ValidatedStats[];
  readonly limit: number;
}

/**
 * A CSV answer (docs/query-language.md, "Export as CSV"): `whole` for every matching record, read in
 * keyset batches (the paging is then a cursor's, one batch per page); else the page the paging names.
 */
export interface CsvExport {
  readonly whole: boolean;
}

export interface ValidatedQuery {
  readonly collection: CollectionCatalog;
  readonly root: ValidatedScope;
  readonly expansions: readonly ValidatedExpansion[];
  readonly paging: ValidatedPaging;
  /** Present when the request asks for facets or stats. */
  readonly summary?: ValidatedSummary;
  /** Present when the request asks for CSV. */
  readonly csv?: CsvExport;
}
