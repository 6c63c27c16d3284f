// A structured description of one valid request (what the generator makes and the reference
// evaluates) and its serialisation to a raw query string
// (docs/query-language.md, "How the query string is read"): clause order inside a family is kept, families are interleaved freely.

export type Operator = '=' | '<>' | '>' | '>=' | '<' | '<=';
export type Family = 'filter' | 'in' | 'between';

/** One value or list item; `quoted` wraps it in double quotes with backslash escapes. */
export interface Literal {
  readonly isNull: boolean;
  readonly text: string;
  readonly quoted: boolean;
}

export interface ClauseSpec {
  readonly family: Family;
  /** The logical prefix as written (`OR!`, `and`, ...), or null for none. */
  readonly prefix: string | null;
  readonly field: string;
  /** filter only. */
  readonly operator: Operator;
  /** filter only: write `=` explicitly. */
  readonly writeOperator: boolean;
  /** filter: one; between: two; in: one or more. */
  readonly values: readonly Literal[];
}

export type SearchMode = 'contains' | 'both' | 'start' | 'end';

export interface SearchSpec {
  readonly fields: readonly string[];
  /** Without the outer stars; never starts or ends with `*`. */
  readonly term: string;
  readonly mode: SearchMode;
}

export interface SortSpec {
  readonly field: string;
  /** As written, any case; '' = ascending. */
  readonly word: string;
  /** `sort[f]` without `=`. */
  readonly bare: boolean;
}

export interface Projection {
  readonly kind: 'fields' | 'fields!';
  readonly list: readonly string[];
}

export interface ScopeQuery {
  readonly clauses: readonly ClauseSpec[];
  readonly searches: readonly SearchSpec[];
  readonly projection: Projection | null;
  readonly sorts: readonly SortSpec[];
}

/** `<alias>_limit` / `<alias>_offset` (docs/query-language.md, "Per-parent windows"); null: not written. */
export interface WindowSpec {
  readonly limit: number | null;
  readonly offset: number | null;
}

export interface ExpandSpec {
  readonly relation: string;
  /** null: no alias (`expand[r]` or `expand[r]=`); the scope is then empty, no window, no nesting. */
  readonly alias: string | null;
  readonly bare: boolean;
  readonly scope: ScopeQuery;
  readonly window: WindowSpec | null;
  /** `<alias>_expand[...]`: the relations of its records (docs/query-language.md, "Nested expansion"). */
  readonly expands: readonly ExpandSpec[];
}

/**
 * `has[r]=alias` or `has![r]=alias`
 * (docs/query-language.md, "has and has!: all conditions on one related record"); `sharedWith`
 * names the expand whose alias (and conditions) it uses.
 */
export interface HasSpec {
  readonly relation: string;
  readonly negated: boolean;
  /** null: no alias (`has[r]` or `has[r]=`), so any related record counts. */
  readonly alias: string | null;
  readonly bare: boolean;
  /** Conditions only (no sorts, no projection); the expand's scope when the alias is shared. */
  readonly scope: ScopeQuery;
  readonly shared: boolean;
}

/**
 * `count[r]=alias` (docs/query-language.md, "Counting related records"): `<r>_count` in each
 * record; `shared` when the alias is an expand's.
 */
export interface CountSpec {
  readonly relation: string;
  readonly alias: string | null;
  readonly bare: boolean;
  /** Conditions only; the expand's scope when the alias is shared. */
  readonly scope: ScopeQuery;
  readonly shared: boolean;
}

export type Paging =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'page';
      readonly page: number | null;
      readonly size: number | null;
      readonly sizeKeys: readonly ('per-page' | 'page-size')[];
    }
  | { readonly kind: 'slice'; readonly limit: number | null; readonly offset: number | null }
  /** `cursor=` (docs/query-language.md, "Cursors: cursor"): the first page; the differential test follows the cursors from there. */
  | { readonly kind: 'cursor'; readonly size: number | null; readonly sizeKeys: readonly ('per-page' | 'page-size')[] };

/** `total=` (docs/query-language.md, "Totals: total=exact, estimated, none"); it changes only paginated answers. */
export type TotalChoice = 'exact' | 'estimated' | 'none';

/** A facet's bucket as written: '' (each value), a date unit, or a width (digits). */
export type BucketSpec = '' | 'day' | 'week' | 'month' | 'year' | { readonly width: string };

/** `facet[...]`, `stats[...]` and `facet_limit` (docs/query-language.md, Facets and stats). */
export interface SummarySpec {
  readonly facets: readonly { readonly field: string; readonly bucket: BucketSpec; readonly bare: boolean }[];
  readonly stats: readonly string[];
  readonly limit: number | null;
}

export interface Encoding {
  /** Keep `[`, `]` and `,` unencoded. */
  readonly raw: boolean;
  /** Spaces as `+` (else `%20`). */
  readonly plus: boolean;
}

export interface QuerySpec {
  readonly collection: string;
  readonly root: ScopeQuery;
  readonly expands: readonly ExpandSpec[];
  readonly has: readonly HasSpec[];
  readonly counts: readonly CountSpec[];
  readonly paging: Paging;
  /** `total=...`, or absent (null); sent with any paging, ignored without pages. */
  readonly total?: TotalChoice | null;
  /** Facets and stats; only on a page (absent: none). */
  readonly summary?: SummarySpec | null;
  /** Keys that are not modifiers (docs/query-language.md, "How the query string is read"): ignored by the plugin, kept in page URLs. */
  readonly noise: readonly (readonly [string, string])[];
  /** Choices that interleave the ordered pair sequences. */
  readonly merge: readonly number[];
  readonly encoding: Encoding;
}

export const EMPTY_SCOPE: ScopeQuery = { clauses: [], searches: [], projection: null, sorts: [] };

type Pair = readonly [key: string, value: string | null];

/** `"a \"b\""` for quoted literals, `null` for NULL, the text otherwise. */
export function literalText(literal: Literal): string {
  if (literal.isNull) return 'null';
  return literal.quoted ? `"${literal.text.replace(/[\\"]/g, (c) => `\\${c}`)}"` : literal.text;
}

function clausePair(clause: ClauseSpec, alias: string): Pair {
  const key = `${alias}${clause.family}[${clause.prefix === null ? '' : `${clause.prefix} `}${clause.field}]`;
  if (clause.family !== 'filter') return [key, clause.values.map(literalText).join(',')];
  const [value] = clause.values;
  if (!value) throw new Error('a filter clause needs a value');
  const operator = clause.operator === '=' && !clause.writeOperator ? '' : clause.operator;
  return [key, `${operator}${literalText(value)}`];
}

function searchValue(search: SearchSpec): string {
  switch (search.mode) {
    case 'contains':
      return search.term;
    case 'both':
      return `*${search.term}*`;
    case 'start':
      return `${search.term}*`;
    case 'end':
      return `*${search.term}`;
  }
}

/** The ordered pair sequences of one scope: each family's clauses in order, sorts in order, ... */
function scopeSequences(scope: ScopeQuery, alias: string): Pair[][] {
  const family = (f: Family): Pair[] => scope.clauses.filter((c) => c.family === f).map((c) => clausePair(c, alias));
  const sequences: Pair[][] = [family('filter'), family('in'), family('between')];
  sequences.push(scope.searches.map((s): Pair => [`${alias}search[${s.fields.join(',')}]`, searchValue(s)]));
  sequences.push(scope.sorts.map((s): Pair => [`${alias}sort[${s.field}]`, s.bare ? null : s.word]));
  if (scope.projection) sequences.push([[`${alias}${scope.projection.kind}`, scope.projection.list.join(',')]]);
  return sequences.filter((s) => s.length > 0);
}

function pagingPairs(paging: Paging): Pair[][] {
  switch (paging.kind) {
    case 'none':
      return [];
    case 'page': {
      const out: Pair[][] = paging.sizeKeys.map((key): Pair[] => [[key, String(paging.size)]]);
      if (paging.page !== null) out.push([['page', String(paging.page)]]);
      return out;
    }
    case 'cursor':
      return [...paging.sizeKeys.map((key): Pair[] => [[key, String(paging.size)]]), [['cursor', '']]];
    case 'slice': {
      const out: Pair[][] = [];
      if (paging.limit !== null) out.push([['limit', String(paging.limit)]]);
      if (paging.offset !== null) out.push([['offset', String(paging.offset)]]);
      return out;
    }
  }
}

function encodePart(text: string, encoding: Encoding, keepBrackets: boolean): string {
  let out = encodeURIComponent(text).replace(/['()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  if (encoding.raw) {
    out = out.replace(/%2C/g, ',');
    if (keepBrackets) out = out.replace(/%5B/g, '[').replace(/%5D/g, ']');
  }
  return encoding.plus ? out.replace(/%20/g, '+') : out;
}

/** Interleaves the sequences, keeping each one's order, as the merge choices say. */
function interleave(sequences: Pair[][], merge: readonly number[]): Pair[] {
  const queues = sequences.map((s) => [...s]);
  const out: Pair[] = [];
  let step = 0;
  for (;;) {
    const open = queues.filter((q) => q.length > 0);
    if (open.length === 0) return out;
    const queue = open[(merge[step % Math.max(merge.length, 1)] ?? 0) % open.length] as Pair[];
    step += 1;
    out.push(queue.shift() as Pair);
  }
}

/** One level's expand keys in order (`expand[...]`, or `<owner>_expand[...]`), then each alias's own keys and level. */
function expandSequences(expands: readonly ExpandSpec[], owner: string): Pair[][] {
  if (expands.length === 0) return [];
  const sequences: Pair[][] = [expands.map((e): Pair => [`${owner}expand[${e.relation}]`, e.alias ?? (e.bare ? null : '')])];
  for (const e of expands) {
    if (e.alias === null) continue;
    sequences.push(...scopeSequences(e.scope, `${e.alias}_`));
    if (e.window?.limit != null) sequences.push([[`${e.alias}_limit`, String(e.window.limit)]]);
    if (e.window?.offset != null) sequences.push([[`${e.alias}_offset`, String(e.window.offset)]]);
    sequences.push(...expandSequences(e.expands, `${e.alias}_`));
  }
  return sequences;
}

/** The raw query string (without `?`) exactly as it is sent. */
export function serializeQuery(spec: QuerySpec): string {
  const sequences: Pair[][] = [...scopeSequences(spec.root, '')];
  sequences.push(...expandSequences(spec.expands, ''));
  if (spec.has.length > 0) {
    sequences.push(spec.has.map((h): Pair => [`${h.negated ? 'has!' : 'has'}[${h.relation}]`, h.alias ?? (h.bare ? null : '')]));
  }
  // A shared alias's conditions are written once, with its expand.
  for (const h of spec.has) if (h.alias !== null && !h.shared) sequences.push(...scopeSequences(h.scope, `${h.alias}_`));
  if (spec.counts.length > 0) sequences.push(spec.counts.map((c): Pair => [`count[${c.relation}]`, c.alias ?? (c.bare ? null : '')]));
  for (const c of spec.counts) if (c.alias !== null && !c.shared) sequences.push(...scopeSequences(c.scope, `${c.alias}_`));
  sequences.push(...pagingPairs(spec.paging));
  if (spec.total !== undefined && spec.total !== null) sequences.push([['total', spec.total]]);
  if (spec.summary) {
    const bucketText = (b: BucketSpec): string => (typeof b === 'string' ? b : b.width);
    sequences.push(spec.summary.facets.map((f): Pair => [`facet[${f.field}]`, f.bare && f.bucket === '' ? null : bucketText(f.bucket)]));
    sequences.push(spec.summary.stats.map((field): Pair => [`stats[${field}]`, null]));
    if (spec.summary.limit !== null) sequences.push([['facet_limit', String(spec.summary.limit)]]);
  }
  for (const pair of spec.noise) sequences.push([pair]);
  return interleave(sequences, spec.merge)
    .map(([key, value]) => {
      const k = encodePart(key, spec.encoding, true);
      return value === null ? k : `${k}=${encodePart(value, spec.encoding, false)}`;
    })
    .join('&');
}
