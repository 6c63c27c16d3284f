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

export type PagingMode = 'none' | 'pages' | 'limit';

export interface PagingState {
  mode: PagingMode;
  perPage: string;
  page: string;
  limit: string;
  offset: string;
}

export interface FormState {
  collection: string;
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
    root: emptyScope('root'),
    has: [],
    counts: [],
    expands: [],
    paging: { mode: 'none', perPage: '', page: '', limit: '', offset: '' },
  };
}

export function newClause(field: string): ClauseRow {
  return { id: newId('clause'), logical: 'and', field, operator: '=', value: '', max: '' };
}

export function scopeIsEmpty(scope: ScopeState): boolean {
  return clauseFamilies.every((family) => scope[family].length === 0)
    && scope.search.length === 0 && scope.sort.length === 0 && scope.projection.mode === 'all';
}

/** Every alias the form uses, of expansions and of has rows. */
export function takenAliases(state: FormState): string[] {
  return [...state.expands.map((e) => e.alias), ...state.has.map((h) => h.alias), ...state.counts.map((c) => c.alias)];
}

/** Whether a has or count row uses an expansion's alias, and so its conditions. */
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
