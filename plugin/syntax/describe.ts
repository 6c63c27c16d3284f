// Turns ordered (key, value) pairs into a QueryDescription: what the client asked for, per scope
// (the root and each expansion alias), with every syntax problem collected rather than thrown.

import { problem, type Problem } from '../errors';
import { aliasPrefix, claimsReencodedKey, claimsUndecodableKey, notAnAliasModifier, readKey } from './parse-key';
import { parseCount, parseFilterValue, parseList, parseSearchPattern, type Parsed } from './parse-value';
import type { QueryPair } from './query-string';
import type {
  ClauseDescription,
  ExpandDescription,
  PagingDescription,
  ProjectionDescription,
  QueryDescription,
  ScopeDescription,
  SearchDescription,
  SortDescription,
  WindowBound,
} from './types';
import {
  parseLogicalPrefix,
  parseSortDirection,
  parseTotalMode,
  sortWordList,
  totalModes,
  type ClauseFamily,
  type LogicalWord,
  type Modifier,
  type TotalMode,
} from './vocabulary';

interface ScopeBuilder {
  clauses: Record<ClauseFamily, ClauseDescription[]>;
  searches: SearchDescription[];
  sorts: SortDescription[];
  projection: ProjectionDescription | undefined;
  window?: { limit: WindowBound | undefined; offset: WindowBound | undefined };
}

type PagingKey = 'page' | 'per-page' | 'page-size' | 'limit' | 'offset';

interface Collector {
  root: ScopeBuilder;
  aliased: Map<string, { scope: ScopeBuilder; parameters: { key: string; index: number }[] }>;
  expands: ExpandDescription[];
  /** Keys not of ours that start like an alias modifier (`p_page`): a mistake if the alias is declared. */
  aliasLike: { alias: string; key: string; index: number }[];
  paging: Map<PagingKey, { key: string; value: number }>;
  total: TotalMode | undefined;
  cursor: string | undefined;
  problems: { index: number; problem: Problem }[];
  seen: Set<string>;
  clauses: number;
  longestList: number;
  longestListKey: string | undefined;
  index: number;
}

const newScope = (): ScopeBuilder => ({
  clauses: { filter: [], in: [], between: [] },
  searches: [],
  sorts: [],
  projection: undefined,
});

const singleValued: ReadonlySet<Modifier> = new Set<Modifier>([
  'fields', 'fields!', 'sort', 'expand', 'page', 'per-page', 'page-size', 'limit', 'offset', 'total', 'cursor',
]);

const aliasShape = /^[A-Za-z][A-Za-z0-9]*$/;

function report(c: Collector, code: Problem['code'], parameter: string, detail: string, allowed?: readonly string[]): void {
  c.problems.push({ index: c.index, problem: problem(code, parameter, detail, allowed) });
}

function malformed(c: Collector, key: string, detail: string, allowed?: readonly string[]): void {
  report(c, 'MALFORMED_PARAMETER', key, `\`${key}\` ${detail}`, allowed);
}

/** `or! status` -> `{word: 'or', negated: true, field: 'status'}` (decisions.md 16). */
function readClauseTarget(argument: string): Parsed<{ word: LogicalWord; negated: boolean; field: string }> {
  const space = argument.indexOf(' ');
  if (space === -1) return { ok: true, value: { word: 'and', negated: false, field: argument } };
  const prefix = parseLogicalPrefix(argument.slice(0, space));
  const field = argument.slice(space + 1);
  if (prefix === undefined) {
    return { ok: false, detail: `has an unknown logical prefix "${argument.slice(0, space)}"; use and, or, and! or or!` };
  }
  if (field === '' || field.includes(' ')) {
    return { ok: false, detail: 'must separate the logical prefix from the field with exactly one space' };
  }
  return { ok: true, value: { ...prefix, field } };
}

function addClause(c: Collector, scope: ScopeBuilder, family: ClauseFamily, key: string, argument: string, value: string): void {
  const target = readClauseTarget(argument);
  if (!target.ok) return malformed(c, key, target.detail, ['and', 'or', 'and!', 'or!']);
  const base = { parameter: key, ...target.value };
  c.clauses++;
  if (family === 'filter') {
    const parsed = parseFilterValue(value);
    if (!parsed.ok) return malformed(c, key, parsed.detail);
    scope.clauses.filter.push({ kind: 'filter', ...base, ...parsed.value });
    return;
  }
  const list = parseList(value);
  if (!list.ok) return malformed(c, key, list.detail);
  if (list.value.length > c.longestList) {
    c.longestList = list.value.length;
    c.longestListKey = key;
  }
  if (family === 'in') {
    scope.clauses.in.push({ kind: 'in', ...base, items: list.value });
    return;
  }
  const [min, max] = list.value;
  if (list.value.length !== 2 || min === undefined || max === undefined) {
    return malformed(c, key, `needs exactly two bounds, \`min,max\`; got ${list.value.length}`);
  }
  scope.clauses.between.push({ kind: 'between', ...base, min, max });
}

function addSearch(c: Collector, scope: ScopeBuilder, key: string, argument: string, value: string): void {
  const fields = argument.split(',');
  if (fields.some((f) => f === '')) return malformed(c, key, 'has an empty field name in its list');
  const pattern = parseSearchPattern(value);
  if (!pattern.ok) return malformed(c, key, pattern.detail);
  c.clauses++;
  scope.searches.push({ kind: 'search', parameter: key, fields, ...pattern.value });
}

function addSort(c: Collector, scope: ScopeBuilder, key: string, argument: string, value: string): void {
  const direction = parseSortDirection(value);
  if (direction === undefined) {
    return malformed(c, key, `has an unknown direction "${value}"`, [...sortWordList]);
  }
  scope.sorts.push({ kind: 'sort', parameter: key, field: argument, direction });
}

function addProjection(c: Collector, scope: ScopeBuilder, key: string, exclude: boolean, value: string): void {
  const fields = value.split(',');
  if (fields.some((f) => f === '')) return malformed(c, key, 'needs a comma-separated list of field names without empty items');
  const repeated = fields.find((f, i) => fields.indexOf(f) !== i);
  if (repeated !== undefined) return malformed(c, key, `lists "${repeated}" more than once`);
  if (scope.projection !== undefined) {
    return report(c, 'CONFLICTING_PARAMETERS', key, `\`${key}\` cannot be combined with \`${scope.projection.parameter}\`: use one of them`);
  }
  scope.projection = { kind: exclude ? 'exclude' : 'include', parameter: key, fields };
}

function addExpand(c: Collector, owner: string | undefined, key: string, relation: string, value: string): void {
  if (value !== '' && !aliasShape.test(value)) {
    return malformed(c, key, `has an invalid alias "${value}": an alias is a letter followed by letters or digits`);
  }
  const alias = value === '' ? undefined : value;
  const clash = alias === undefined ? undefined : c.expands.find((e) => e.alias === alias);
  if (clash !== undefined) {
    return report(c, 'DUPLICATE_PARAMETER', key, `The alias "${alias}" is already used by \`${clash.parameter}\`; give each expansion its own alias`);
  }
  c.expands.push({ kind: 'expand', parameter: key, relation, alias, owner });
}

function addPaging(c: Collector, key: PagingKey, value: string): void {
  const count = parseCount(value);
  if (!count.ok) return malformed(c, key, count.detail);
  const atLeastOne = key === 'page' || key === 'per-page' || key === 'page-size';
  if (atLeastOne && count.value < 1) return malformed(c, key, 'must be at least 1');
  c.paging.set(key, { key, value: count.value });
}

/** `p_limit=3`: a non-negative count for the alias's window (decisions.md 41). */
function addWindow(c: Collector, scope: ScopeBuilder, bound: 'limit' | 'offset', key: string, value: string): void {
  const count = parseCount(value);
  if (!count.ok) return malformed(c, key, count.detail);
  scope.window ??= { limit: undefined, offset: undefined };
  scope.window[bound] = { parameter: key, value: count.value };
}

/** `total=estimated`; a wrong value is refused even where `total` is not used (no page parameters). */
function addTotal(c: Collector, value: string): void {
  const mode = parseTotalMode(value);
  if (mode === undefined) return malformed(c, 'total', `must be one of exact, estimated or none; got "${value}"`, [...totalModes]);
  c.total = mode;
}

function scopeFor(c: Collector, alias: string | undefined, key: string): ScopeBuilder {
  if (alias === undefined) return c.root;
  let entry = c.aliased.get(alias);
  if (entry === undefined) {
    entry = { scope: newScope(), parameters: [] };
    c.aliased.set(alias, entry);
  }
  entry.parameters.push({ key, index: c.index });
  return entry.scope;
}

/** A key not of ours that starts like an alias modifier (`p_page`): a mistake if the alias is declared. */
function noteAliasLike(c: Collector, key: string): void {
  const alias = aliasPrefix(key);
  if (alias !== undefined) c.aliasLike.push({ alias, key, index: c.index });
}

function addPair(c: Collector, pair: QueryPair): void {
  if (pair.undecodable === 'key') {
    if (claimsUndecodableKey(pair.key)) return malformed(c, pair.key, 'is not valid percent-encoded UTF-8');
    return noteAliasLike(c, pair.key);
  }
  const reading = readKey(pair.key);
  if (reading.kind === 'foreign') {
    if (claimsReencodedKey(pair.key)) {
      return malformed(c, pair.key, 'is percent-encoded more than once; encode each character once, e.g. `filter%5Bname%5D` for `filter[name]`');
    }
    return noteAliasLike(c, pair.key);
  }
  if (pair.undecodable === 'value') return malformed(c, pair.key, 'has a value that is not valid percent-encoded UTF-8');
  if (reading.kind === 'malformed') return report(c, 'MALFORMED_PARAMETER', pair.key, reading.detail);
  const { alias, modifier, argument = '' } = reading;
  if (singleValued.has(modifier)) {
    if (c.seen.has(pair.key)) {
      return report(c, 'DUPLICATE_PARAMETER', pair.key, `\`${pair.key}\` is given more than once; give it once`);
    }
    c.seen.add(pair.key);
  }
  const scope = (): ScopeBuilder => scopeFor(c, alias, pair.key);
  switch (modifier) {
    case 'filter':
    case 'in':
    case 'between':
      return addClause(c, scope(), modifier, pair.key, argument, pair.value);
    case 'search':
      return addSearch(c, scope(), pair.key, argument, pair.value);
    case 'sort':
      return addSort(c, scope(), pair.key, argument, pair.value);
    case 'fields':
    case 'fields!':
      return addProjection(c, scope(), pair.key, modifier === 'fields!', pair.value);
    case 'expand':
      // Behind an alias it is a use of that alias, declared or not (decisions.md 3).
      if (alias !== undefined) scope();
      return addExpand(c, alias, pair.key, argument, pair.value);
    case 'limit':
    case 'offset':
      if (alias !== undefined) return addWindow(c, scope(), modifier, pair.key, pair.value);
      return addPaging(c, modifier, pair.value);
    case 'page':
    case 'per-page':
    case 'page-size':
      return addPaging(c, modifier, pair.value);
    case 'total':
      return addTotal(c, pair.value);
    case 'cursor':
      // Opaque here: the validate stage decodes it against the request's sort (decisions.md 43).
      c.cursor = pair.value;
      return;
  }
}

function resolvePaging(c: Collector): PagingDescription {
  const get = (k: PagingKey) => c.paging.get(k);
  const page = get('page');
  const perPage = get('per-page');
  const pageSize = get('page-size');
  const limit = get('limit');
  const offset = get('offset');
  const pageKeys = [page, perPage, pageSize].filter((e) => e !== undefined);
  const limitKeys = [limit, offset].filter((e) => e !== undefined);
  const end = c.index;
  if (pageKeys.length > 0 && limitKeys.length > 0) {
    c.problems.push({
      index: end,
      problem: problem('CONFLICTING_PARAMETERS', limitKeys[0]?.key,
        `\`${limitKeys[0]?.key}\` cannot be combined with \`${pageKeys[0]?.key}\`: use limit/offset or pages, not both`),
    });
  }
  if (perPage !== undefined && pageSize !== undefined && perPage.value !== pageSize.value) {
    c.problems.push({
      index: end,
      problem: problem('CONFLICTING_PARAMETERS', 'page-size', '`per-page` and `page-size` are synonyms and must not differ'),
    });
  }
  if (pageKeys.length > 0) {
    const size = perPage ?? pageSize;
    return { kind: 'page', page: page?.value ?? 1, pageSize: size?.value, pageSizeParameter: size?.key };
  }
  if (limitKeys.length > 0) return { kind: 'limit', limit: limit?.value, offset: offset?.value ?? 0 };
  return { kind: 'none' };
}

/**
 * The aliases a root `expand` declares, and those declared by an `<alias>_expand` whose alias is
 * declared, at any depth (decisions.md 40): `p_expand[x]=q&q_expand[y]=p` alone declares nothing.
 */
function declaredAliases(expands: readonly ExpandDescription[]): Set<string> {
  const declared = new Set<string>();
  for (let grew = true; grew;) {
    grew = false;
    for (const { alias, owner } of expands) {
      if (alias === undefined || declared.has(alias) || (owner !== undefined && !declared.has(owner))) continue;
      declared.add(alias);
      grew = true;
    }
  }
  return declared;
}

function freezeScope(scope: ScopeBuilder): ScopeDescription {
  const window = scope.window === undefined ? {} : { window: Object.freeze({ ...scope.window }) };
  return Object.freeze({ ...scope, clauses: Object.freeze({ ...scope.clauses }), ...window });
}

/** `[filter[id]=>=5, sort[name]=desc]` -> root scope with one filter clause and one sort. */
export function describeQuery(pairs: readonly QueryPair[]): QueryDescription {
  const c: Collector = {
    root: newScope(), aliased: new Map(), expands: [], aliasLike: [], paging: new Map(), total: undefined, cursor: undefined, problems: [],
    seen: new Set(), clauses: 0, longestList: 0, longestListKey: undefined, index: 0,
  };
  pairs.forEach((pair, index) => {
    c.index = index;
    addPair(c, pair);
  });
  c.index = pairs.length;
  const paging = resolvePaging(c);
  const aliased = new Map<string, ScopeDescription>();
  const declared = declaredAliases(c.expands);
  for (const [alias, entry] of c.aliased) {
    if (declared.has(alias)) {
      aliased.set(alias, freezeScope(entry.scope));
      continue;
    }
    for (const { key, index } of entry.parameters) {
      c.problems.push({
        index,
        problem: problem('UNKNOWN_ALIAS', key, `\`${key}\` uses the alias "${alias}", but no \`expand[...]=${alias}\` declares it`),
      });
    }
  }
  for (const { alias, key, index } of c.aliasLike) {
    if (declared.has(alias)) c.problems.push({ index, problem: problem('MALFORMED_PARAMETER', key, notAnAliasModifier(key, alias)) });
  }
  const problems = c.problems.sort((a, b) => a.index - b.index).map((p) => p.problem);
  return Object.freeze({
    root: freezeScope(c.root),
    expands: Object.freeze([...c.expands]),
    aliased,
    paging,
    total: c.total,
    cursor: c.cursor,
    problems: Object.freeze(problems),
    keys: pairs.map((p) => p.key),
    cost: { clauses: c.clauses, listItems: c.longestList, longestList: c.longestListKey },
  });
}
