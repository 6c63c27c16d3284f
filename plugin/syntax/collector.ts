// The state describe.ts builds while reading the pairs, and the helpers every part of it reports
// problems through.

import { problem, type Problem } from '../errors';
import type {
  ClauseDescription,
  CountDescription,
  ExpandDescription,
  FacetDescription,
  HasDescription,
  MatchDescription,
  ProjectionDescription,
  ScopeDescription,
  SimilarDescription,
  SearchDescription,
  SortDescription,
  StatsDescription,
  WindowBound,
} from './types';
import type { ClauseFamily, Modifier, ResponseFormat, TotalMode } from './vocabulary';

export interface ScopeBuilder {
  clauses: Record<ClauseFamily, ClauseDescription[]>;
  searches: SearchDescription[];
  sorts: SortDescription[];
  projection: ProjectionDescription | undefined;
  match?: MatchDescription;
  similar?: SimilarDescription[];
  window?: { limit: WindowBound | undefined; offset: WindowBound | undefined };
}

export type PagingKey = 'page' | 'per-page' | 'page-size' | 'limit' | 'offset';

/**
 * Who declared an alias: the relation it names, the alias that relation belongs to (undefined at the
 * root, `p` for `p_expand[comments]=c`), the first key naming it, and whether an expand did.
 */
export interface AliasOwner {
  readonly relation: string;
  readonly owner: string | undefined;
  readonly parameter: string;
  expanded: boolean;
}

/** The modifiers written behind one alias, and each key with its place, for problems. */
export interface AliasedEntry {
  readonly scope: ScopeBuilder;
  readonly parameters: { key: string; index: number; modifier: Modifier }[];
}

export interface Collector {
  root: ScopeBuilder;
  aliased: Map<string, AliasedEntry>;
  aliases: Map<string, AliasOwner>;
  expands: ExpandDescription[];
  has: HasDescription[];
  counts: CountDescription[];
  /** Keys not of ours that start like an alias modifier (`p_page`): a mistake if the alias is declared. */
  aliasLike: { alias: string; key: string; index: number }[];
  paging: Map<PagingKey, { key: string; value: number }>;
  total: TotalMode | undefined;
  /** `cursor=...` as sent (docs/query-language.md, "Cursors: cursor"). */
  cursor: string | undefined;
  /** `format=csv` (docs/query-language.md, "Export as CSV"). */
  format: ResponseFormat | undefined;
  facets: FacetDescription[];
  stats: StatsDescription[];
  facetLimit: number | undefined;
  problems: { index: number; problem: Problem }[];
  seen: Set<string>;
  /** Relation name -> the first key naming it. */
  relations: Map<string, string>;
  clauses: number;
  longestList: number;
  longestListKey: string | undefined;
  index: number;
}

export const newScope = (): ScopeBuilder => ({
  clauses: { filter: [], in: [], between: [] },
  searches: [],
  sorts: [],
  projection: undefined,
});

export function report(c: Collector, code: Problem['code'], parameter: string, detail: string, allowed?: readonly string[]): void {
  c.problems.push({ index: c.index, problem: problem(code, parameter, detail, allowed) });
}

export function malformed(c: Collector, key: string, detail: string, allowed?: readonly string[]): void {
  report(c, 'MALFORMED_PARAMETER', key, `\`${key}\` ${detail}`, allowed);
}

/** `posts.status` -> `posts`; `status` -> undefined. The validate stage decides whether it is a relation. */
export function relationOf(field: string): string | undefined {
  const dot = field.indexOf('.');
  return dot === -1 ? undefined : field.slice(0, dot);
}

export function freezeScope(scope: ScopeBuilder): ScopeDescription {
  const window = scope.window === undefined ? {} : { window: Object.freeze({ ...scope.window }) };
  const similar = scope.similar === undefined ? {} : { similar: Object.freeze([...scope.similar]) };
  return Object.freeze({ ...scope, clauses: Object.freeze({ ...scope.clauses }), ...window, ...similar });
}
