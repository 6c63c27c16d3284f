// Owns the form's state: what the user has built, in the order they built it. The request URL, the
// condition preview and the form itself are all derived from one FormState.

export const clauseFamilies = ['filter', 'in', 'between'] as const;
export type ClauseFamily = (typeof clauseFamilies)[number];

/** A filter, in or between row. `value` is the filter value, the in list or the lower bound; `max` the upper bound. */
export interface ClauseRow {
  readonly id: string;
  logical: string;
  field: string;
  operator: string;
  value: string;
  max: string;
}

export interface SearchRow {
  readonly id: string;
  fields: string[];
  pattern: string;
}

export interface SortRow {
  readonly id: string;
  field: string;
  direction: string;
}

export type ProjectionMode = 'all' | 'include' | 'exclude';

/** The modifiers of one scope: the root collection, or one expansion (written behind its alias). */
export interface ScopeState {
  readonly id: string;
  filter: ClauseRow[];
  in: ClauseRow[];
  between: ClauseRow[];
  search: SearchRow[];
  projection: { mode: ProjectionMode; fields: string[] };
  sort: SortRow[];
}

export interface ExpandState {
  readonly id: string;
  relation: string;
  alias: string;
  readonly scope: ScopeState;
  /** `<alias>_limit` / `<alias>_offset` as typed; '' = not sent. */
  limit: string;
  offset: string;
  /** `<alias>_expand[...]`: the relations of its records, expanded in turn. */
  expands: ExpandState[];
}

/**
 * `has[relation]=alias` (or `has!`): records with at least one related record satisfying all of the
 * alias's conditions (or none). `scope` holds only conditions; it is an expansion's own scope when
 * a pasted URL shares the alias with `expand`.
 */
export interface HasState {
  readonly id: string;
  relation: string;
  negated: boolean;
  alias: string;
  scope: ScopeState;
}

/**
 * `count[relation]=alias`: `<relation>_count` in each record, of the related records satisfying the
 * alias's conditions (all without any). `scope` holds only conditions, or is an expansion's.
 */
export interface CountState {
  readonly id: string;
  relation: string;
  alias: string;
  scope: ScopeState;
}

export type PagingMode = 'none' | 'pages' | 'cursor' | 'limit';

export interface PagingState {
  mode: PagingMode;
  perPage: string;
  page: string;
  limit: string;
  offset: string;
  /** `total=` in page mode: '' (the collection's default), `exact`, `estimated` or `none`. */
  total: string;
  /** `cursor=` in cursor mode (docs/query-language.md, "Cursors: cursor"): '' for the first page, else a cursor the API gave. */
  cursor: string;
}

export interface FormState {
  collection: string;
  /** `match=` as typed in the search box; '' = not sent. */
  match: string;
  readonly root: ScopeState;
  has: HasState[];
  counts: CountState[];
  expands: ExpandState[];
  readonly paging: PagingState;
}

let counter = 0;

/** A fresh id for a row; also the base of its controls' element ids. */
export function newId(kind: string): string {
  counter += 1;
  return `${kind}${counter}`;
}

export function emptyScope(id: string = newId('scope')): ScopeState {
  return { id, filter: [], in: [], between: [], search: [], projection: { mode: 'all', fields: [] }, sort: [] };
}

export function emptyForm(collection: string): FormState {
  return {
    collection,
    match: '',
    root: emptyScope('root'),
    has: [],
    counts: [],
    expands: [],
    paging: { mode: 'none', perPage: '', page: '', limit: '', offset: '', total: '', cursor: '' },
  };
}

export function newClause(field: string): ClauseRow {
  return { id: newId('clause'), logical: 'and', field, operator: '=', value: '', max: '' };
}

export function scopeIsEmpty(scope: ScopeState): boolean {
  return (
    clauseFamilies.every((family) => scope[family].length === 0) &&
    scope.search.length === 0 &&
    scope.sort.length === 0 &&
    scope.projection.mode === 'all'
  );
}

export function newExpand(relation: string, alias: string): ExpandState {
  return { id: newId('expand'), relation, alias, scope: emptyScope(), limit: '', offset: '', expands: [] };
}

/** Whether anything is written behind the expansion's alias (so the alias must be sent). */
export function expandUsesAlias(expand: ExpandState): boolean {
  return !scopeIsEmpty(expand.scope) || expand.limit !== '' || expand.offset !== '' || expand.expands.length > 0;
}

/** Every expansion at every depth, parents before their nested ones. */
export function allExpands(expands: readonly ExpandState[]): ExpandState[] {
  return expands.flatMap((expand) => [expand, ...allExpands(expand.expands)]);
}

/** Every alias the form uses (expansions at every depth, has and count rows), but `except`'s. */
export function takenAliases(state: FormState, except?: { alias: string }): string[] {
  const rows: { alias: string }[] = [...allExpands(state.expands), ...state.has, ...state.counts];
  return rows.filter((row) => row !== except).map((row) => row.alias);
}

/** Whether a has or count row uses a root expansion's alias, and so its conditions. */
export function sharesExpansion(state: FormState, row: HasState | CountState): boolean {
  return state.expands.some((e) => e.scope === row.scope);
}

/** The count fields the form adds (`posts_count`), usable in filter rows and sorts. */
export function countedFields(state: FormState): string[] {
  return state.counts.map((c) => `${c.relation}_count`);
}

/** The first free alias for a relation: `posts` -> `p`, then `p2`, `p3`, ... */
export function autoAlias(relation: string, taken: readonly string[]): string {
  const letter = /^[A-Za-z]/.test(relation) ? relation.charAt(0).toLowerCase() : 'x';
  if (!taken.includes(letter)) return letter;
  for (let n = 2; ; n += 1) {
    if (!taken.includes(`${letter}${n}`)) return `${letter}${n}`;
  }
}
