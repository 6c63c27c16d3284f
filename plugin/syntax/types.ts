// What the client wrote, as typed data that knows no model: field names are still plain strings and
// values are still text. The validate stage turns this into a ValidatedQuery.

import type { Problem } from '../errors';
import type { ClauseFamily, DateBucket, LogicalWord, Operator, ResponseFormat, SortDirection, TotalMode } from './vocabulary';

/** A value as written: bare `null`, or text (already unquoted when it was written in double quotes). */
export type RawValue = { readonly kind: 'null' } | { readonly kind: 'text'; readonly text: string; readonly quoted: boolean };

interface ClauseBase {
  readonly parameter: string;
  readonly word: LogicalWord;
  readonly negated: boolean;
  readonly field: string;
}

export interface FilterClause extends ClauseBase {
  readonly kind: 'filter';
  readonly operator: Operator;
  readonly value: RawValue;
}

export interface InClause extends ClauseBase {
  readonly kind: 'in';
  readonly items: readonly RawValue[];
}

export interface BetweenClause extends ClauseBase {
  readonly kind: 'between';
  readonly min: RawValue;
  readonly max: RawValue;
}

export type ClauseDescription = FilterClause | InClause | BetweenClause;

export interface SearchDescription {
  readonly kind: 'search';
  readonly parameter: string;
  readonly fields: readonly string[];
  /** The term with the outer `*` removed; `*` inside stays literal. */
  readonly term: string;
  readonly anchorStart: boolean;
  readonly anchorEnd: boolean;
}

/** `match=<text>`: full-text search in web-search syntax (docs/query-language.md, "Ranked search: match and similar"). */
export interface MatchDescription {
  readonly kind: 'match';
  readonly parameter: string;
  readonly text: string;
}

/** `similar[<field>]=<text>`: trigram similarity of one text field to the text. */
export interface SimilarDescription {
  readonly kind: 'similar';
  readonly parameter: string;
  readonly field: string;
  readonly text: string;
}

export interface SortDescription {
  readonly kind: 'sort';
  readonly parameter: string;
  readonly field: string;
  readonly direction: SortDirection;
}

export interface ProjectionDescription {
  readonly kind: 'include' | 'exclude';
  readonly parameter: string;
  readonly fields: readonly string[];
}

/** A count as written behind an alias: `p_limit=3`. */
export interface WindowBound {
  readonly parameter: string;
  readonly value: number;
}

/** `<alias>_limit` and `<alias>_offset`: a per-parent window (docs/query-language.md, "Per-parent windows"). */
export interface WindowDescription {
  readonly limit: WindowBound | undefined;
  readonly offset: WindowBound | undefined;
}

/** The modifiers of one scope: the root collection, or one expansion alias. */
export interface ScopeDescription {
  readonly clauses: Readonly<Record<ClauseFamily, readonly ClauseDescription[]>>;
  readonly searches: readonly SearchDescription[];
  readonly sorts: readonly SortDescription[];
  readonly projection: ProjectionDescription | undefined;
  /** `match=...`; absent when not given. */
  readonly match?: MatchDescription;
  /** `similar[...]=...` keys, in query-string order; absent when none was given. */
  readonly similar?: readonly SimilarDescription[];
  /** Behind an alias only; absent when neither key was given. */
  readonly window?: WindowDescription;
}

export interface ExpandDescription {
  readonly kind: 'expand';
  readonly parameter: string;
  readonly relation: string;
  readonly alias: string | undefined;
  /** The alias whose relation this one belongs to (`p` for `p_expand[comments]`); undefined at the root. */
  readonly owner: string | undefined;
}

/**
 * `has[posts]=p` (negated: `has![posts]=p`): a related record satisfying all of p's conditions
 * (docs/query-language.md, "has and has!: all conditions on one related record").
 */
export interface HasDescription {
  readonly kind: 'has';
  readonly parameter: string;
  readonly relation: string;
  readonly alias: string | undefined;
  readonly negated: boolean;
}

/**
 * `count[posts]=p`: `posts_count` in each record, of the related records satisfying p's conditions
 * (docs/query-language.md, "Counting related records").
 */
export interface CountDescription {
  readonly kind: 'count';
  readonly parameter: string;
  readonly relation: string;
  readonly alias: string | undefined;
}

/** How a facet groups values: each value, a date bucket (`month`), or a number's width (`100`, as written). */
export type FacetBucket =
  { readonly kind: 'value' } | { readonly kind: 'date'; readonly unit: DateBucket } | { readonly kind: 'width'; readonly width: string };

/** `facet[status]`, `facet[created_at]=month`: value counts of a root field (docs/query-language.md, Facets and stats). */
export interface FacetDescription {
  readonly kind: 'facet';
  readonly parameter: string;
  readonly field: string;
  readonly bucket: FacetBucket;
}

/** `stats[score]`: the min, max, avg and sum of a root field. */
export interface StatsDescription {
  readonly kind: 'stats';
  readonly parameter: string;
  readonly field: string;
}

/** Every facet and stats of the request, and `facet_limit` as sent. */
export interface SummaryDescription {
  readonly facets: readonly FacetDescription[];
  readonly stats: readonly StatsDescription[];
  readonly limit: number | undefined;
}

export type PagingDescription =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'page';
      readonly page: number;
      readonly pageSize: number | undefined;
      readonly pageSizeParameter: string | undefined;
    }
  | { readonly kind: 'limit'; readonly limit: number | undefined; readonly offset: number };

export interface QueryDescription {
  readonly root: ScopeDescription;
  /** Every expansion at every depth, in query-string order (docs/query-language.md, "Nested expansion"). */
  readonly expands: readonly ExpandDescription[];
  readonly has: readonly HasDescription[];
  readonly counts: readonly CountDescription[];
  /** Modifiers written behind an alias, keyed by alias (already checked to be declared). */
  readonly aliased: ReadonlyMap<string, ScopeDescription>;
  readonly paging: PagingDescription;
  /** `total=...` as sent (docs/query-language.md, "Totals: total=exact, estimated, none"); only paginated requests use it. */
  readonly total: TotalMode | undefined;
  /** `cursor=...` as sent (docs/query-language.md, "Cursors: cursor"): empty for the first page; decoded by the validate stage. */
  readonly cursor: string | undefined;
  /** `format=csv` (docs/query-language.md, "Export as CSV"): the records as CSV; undefined: JSON. */
  readonly format: ResponseFormat | undefined;
  /** `facet[...]`, `stats[...]` and `facet_limit`. */
  readonly summary: SummaryDescription;
  /** Syntax problems found; the validate stage adds its own and reports them all together. */
  readonly problems: readonly Problem[];
  /** Every key as sent, in order, so problems can be reported in query-string order. */
  readonly keys: readonly string[];
  /** Number of clauses, list items and relations, for the cost caps. */
  readonly cost: {
    readonly clauses: number;
    readonly listItems: number;
    readonly longestList: string | undefined;
    /**
     * Each relation the request names (expand, has, count, a root dot path), once, with the key that
     * first named it, in query-string order: limits.maxExpansions caps them
     * (docs/query-language.md, "Cost limits").
     */
    readonly relations: readonly { readonly name: string; readonly parameter: string }[];
  };
}
