// The closed vocabularies of the query language, written once with their guards: modifier names,
// relational operators, logical prefixes and sort direction words.

export const clauseFamilies = ['filter', 'in', 'between'] as const;
export type ClauseFamily = (typeof clauseFamilies)[number];

/** Modifiers that may also be written behind an expansion alias (`p_fields`, `p_sort[...]`, ...). */
export const scopedModifiers = ['filter', 'in', 'between', 'search', 'sort', 'fields', 'fields!', 'match', 'similar'] as const;
export type ScopedModifier = (typeof scopedModifiers)[number];

/**
 * Every modifier an alias may take: its scope's own, a nested `expand` and the per-parent window
 * `limit`/`offset` (docs/query-language.md, "Nested expansion", "Per-parent windows").
 */
export const aliasModifiers = [...scopedModifiers, 'expand', 'limit', 'offset'] as const;
export type AliasModifier = (typeof aliasModifiers)[number];

/** Modifiers of the root only. */
export const rootModifiers = [
  'expand',
  'has',
  'has!',
  'count',
  'page',
  'per-page',
  'page-size',
  'limit',
  'offset',
  'total',
  'cursor',
  'facet',
  'stats',
  'facet_limit',
  'format',
] as const;
export type RootModifier = (typeof rootModifiers)[number];

export type Modifier = ScopedModifier | RootModifier;

/** Which modifiers are written with a bracketed argument (`filter[id]`) and which are bare (`page`). */
export const bracketed: Readonly<Record<Modifier, boolean>> = {
  filter: true,
  in: true,
  between: true,
  search: true,
  sort: true,
  similar: true,
  match: false,
  expand: true,
  has: true,
  'has!': true,
  count: true,
  fields: false,
  'fields!': false,
  page: false,
  'per-page': false,
  'page-size': false,
  limit: false,
  offset: false,
  total: false,
  cursor: false,
  facet: true,
  stats: true,
  facet_limit: false,
  format: false,
};

/**
 * Root modifier names no alias may take (docs/query-language.md, Facets and stats): `facet_limit`
 * must never read as the window of an alias `facet`.
 */
export const reservedAliases: ReadonlySet<string> = new Set([
  'facet',
  'stats',
  'match',
  'similar',
  'format',
  'cursor',
  'total',
  'page',
  'limit',
  'offset',
]);

/** `facet[created_at]=month`: the date buckets, in UTC. */
export const dateBuckets = ['day', 'week', 'month', 'year'] as const;
export type DateBucket = (typeof dateBuckets)[number];

/**
 * The alias modifiers a `has` alias reads: its conditions
 * (docs/query-language.md, "has and has!: all conditions on one related record").
 */
export const conditionModifiers: readonly ScopedModifier[] = ['filter', 'in', 'between', 'search'];

export function isScopedModifier(word: string): word is ScopedModifier {
  return (scopedModifiers as readonly string[]).includes(word);
}

export function isAliasModifier(word: string): word is AliasModifier {
  return (aliasModifiers as readonly string[]).includes(word);
}

export function isModifier(word: string): word is Modifier {
  return Object.prototype.hasOwnProperty.call(bracketed, word);
}

export function isClauseFamily(word: string): word is ClauseFamily {
  return (clauseFamilies as readonly string[]).includes(word);
}

// Longest first, so that `>=` is not read as `>` followed by `=5`.
export const operators = ['>=', '<=', '<>', '=', '>', '<'] as const;
export type Operator = (typeof operators)[number];

export type LogicalWord = 'and' | 'or';

const logicalPrefixes: Readonly<Record<string, { word: LogicalWord; negated: boolean }>> = {
  and: { word: 'and', negated: false },
  or: { word: 'or', negated: false },
  'and!': { word: 'and', negated: true },
  'or!': { word: 'or', negated: true },
};

/** `AND!` -> `{word: 'and', negated: true}`; anything else -> undefined. Case-insensitive. */
export function parseLogicalPrefix(text: string): { word: LogicalWord; negated: boolean } | undefined {
  const lower = text.toLowerCase();
  return Object.prototype.hasOwnProperty.call(logicalPrefixes, lower) ? logicalPrefixes[lower] : undefined;
}

export type SortDirection = 'asc' | 'desc';

const sortWords: Readonly<Record<string, SortDirection>> = {
  '': 'asc',
  a: 'asc',
  asc: 'asc',
  ascending: 'asc',
  '-': 'desc',
  d: 'desc',
  des: 'desc',
  desc: 'desc',
  descending: 'desc',
};

export const sortWordList = ['a', 'asc', 'ascending', '-', 'd', 'des', 'desc', 'descending'] as const;

/** `sort[name]=DESC` -> 'desc'; an absent or empty value means ascending. */
export function parseSortDirection(text: string): SortDirection | undefined {
  const lower = text.toLowerCase();
  return Object.prototype.hasOwnProperty.call(sortWords, lower) ? sortWords[lower] : undefined;
}

/** How a paginated envelope gets its total (docs/query-language.md, "Totals: total=exact, estimated, none"). */
export const totalModes = ['exact', 'estimated', 'none'] as const;
export type TotalMode = (typeof totalModes)[number];

/** `total=estimated` -> 'estimated'; any other spelling (case included) -> undefined. */
export function parseTotalMode(text: string): TotalMode | undefined {
  return (totalModes as readonly string[]).includes(text) ? (text as TotalMode) : undefined;
}

/** What `format` may ask for (docs/query-language.md, "Export as CSV"): JSON is what every request answers without it. */
export const responseFormats = ['csv'] as const;
export type ResponseFormat = (typeof responseFormats)[number];

/** `format=csv` -> 'csv'; any other spelling (case included) -> undefined. */
export function parseResponseFormat(text: string): ResponseFormat | undefined {
  return (responseFormats as readonly string[]).includes(text) ? (text as ResponseFormat) : undefined;
}
