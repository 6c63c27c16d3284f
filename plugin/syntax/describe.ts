// Turns ordered (key, value) pairs into a QueryDescription: what the client asked for, per scope
// (the root and each expansion alias), with every syntax problem collected rather than thrown.

import { problem } from '../errors';
import { addCount, addExpand, addHas, nameRelation, resolveAliases } from './aliases';
import { freezeScope, malformed, newScope, relationOf, report, type Collector, type PagingKey, type ScopeBuilder } from './collector';
import { aliasPrefix, claimsReencodedKey, claimsUndecodableKey, readKey } from './parse-key';
import { addMatch, addSimilar } from './ranked';
import { parseCount, parseFilterValue, parseList, parseSearchPattern, type Parsed } from './parse-value';
import type { QueryPair } from './query-string';
import { addFacet, addFacetLimit, addStats } from './summary';
import type { PagingDescription, QueryDescription } from './types';
import {
  conditionModifiers,
  parseLogicalPrefix,
  parseSortDirection,
  parseTotalMode,
  rootModifiers,
  scopedModifiers,
  sortWordList,
  totalModes,
  parseResponseFormat,
  responseFormats,
  type ClauseFamily,
  type LogicalWord,
  type Modifier,
} from './vocabulary';

// Repeating a condition key adds a clause; any other key given twice is a duplicate
// (docs/query-language.md, How the query string is read).
const repeatable: ReadonlySet<Modifier> = new Set<Modifier>(conditionModifiers);
const singleValued: ReadonlySet<Modifier> = new Set([...scopedModifiers, ...rootModifiers].filter((modifier) => !repeatable.has(modifier)));

/** `or! status` -> `{word: 'or', negated: true, field: 'status'}` (docs/query-language.md, "Logical prefixes and how clauses group"). */
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
  // One clause for the scope's own fields and one for each relation a dot path names: each is a test.
  c.clauses += new Set(fields.map((f) => relationOf(f) ?? '')).size;
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
    return report(
      c,
      'CONFLICTING_PARAMETERS',
      key,
      `\`${key}\` cannot be combined with \`${scope.projection.parameter}\`: use one of them`,
    );
  }
  scope.projection = { kind: exclude ? 'exclude' : 'include', parameter: key, fields };
}

function addPaging(c: Collector, key: PagingKey, value: string): void {
  const count = parseCount(value);
  if (!count.ok) return malformed(c, key, count.detail);
  const atLeastOne = key === 'page' || key === 'per-page' || key === 'page-size';
  if (atLeastOne && count.value < 1) return malformed(c, key, 'must be at least 1');
  c.paging.set(key, { key, value: count.value });
}

/** `p_limit=3`: a non-negative count for the alias's window (docs/query-language.md, "Per-parent windows"). */
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

/** `format=csv`; any other value is refused (docs/query-language.md, "Export as CSV"). */
function addFormat(c: Collector, value: string): void {
  const format = parseResponseFormat(value);
  if (format === undefined) {
    return malformed(c, 'format', `must be csv (leave it out for JSON); got "${value.slice(0, 100)}"`, [...responseFormats]);
  }
  c.format = format;
}

function scopeFor(c: Collector, alias: string | undefined, key: string, modifier: Modifier): ScopeBuilder {
  if (alias === undefined) return c.root;
  let entry = c.aliased.get(alias);
  if (entry === undefined) {
    entry = { scope: newScope(), parameters: [] };
    c.aliased.set(alias, entry);
  }
  entry.parameters.push({ key, index: c.index, modifier });
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
      return malformed(
        c,
        pair.key,
        'is percent-encoded more than once; encode each character once, e.g. `filter%5Bname%5D` for `filter[name]`',
      );
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
  const scope = (): ScopeBuilder => scopeFor(c, alias, pair.key, modifier);
  // The root's dot paths reach relations as expand, has and count do.
  if (alias === undefined) {
    if (modifier === 'expand' || modifier === 'has' || modifier === 'has!' || modifier === 'count') nameRelation(c, argument, pair.key);
    if (modifier === 'filter' || modifier === 'in' || modifier === 'between' || modifier === 'sort') {
      nameRelation(c, relationOf(argument.slice(argument.indexOf(' ') + 1)), pair.key);
    }
    if (modifier === 'search') for (const field of argument.split(',')) nameRelation(c, relationOf(field), pair.key);
  } else if (modifier === 'expand') {
    // Each nested expansion is one more relation loaded
    // (docs/query-language.md, "Nested expansion"); its key names it uniquely.
    nameRelation(c, pair.key, pair.key);
  }
  switch (modifier) {
    case 'filter':
    case 'in':
    case 'between':
      return addClause(c, scope(), modifier, pair.key, argument, pair.value);
    case 'search':
      return addSearch(c, scope(), pair.key, argument, pair.value);
    case 'sort':
      return addSort(c, scope(), pair.key, argument, pair.value);
    case 'match':
      return addMatch(c, scope(), pair.key, pair.value);
    case 'similar':
      return addSimilar(c, scope(), pair.key, argument, pair.value);
    case 'fields':
    case 'fields!':
      return addProjection(c, scope(), pair.key, modifier === 'fields!', pair.value);
    case 'expand':
      // Behind an alias it is a use of that alias, declared or not
      // (docs/query-language.md, "Aliases and alias modifiers").
      if (alias !== undefined) scope();
      return addExpand(c, alias, pair.key, argument, pair.value);
    case 'limit':
    case 'offset':
      if (alias !== undefined) return addWindow(c, scope(), modifier, pair.key, pair.value);
      return addPaging(c, modifier, pair.value);
    case 'has':
    case 'has!':
      return addHas(c, pair.key, argument, pair.value, modifier === 'has!');
    case 'count':
      return addCount(c, pair.key, argument, pair.value);
    case 'page':
    case 'per-page':
    case 'page-size':
      return addPaging(c, modifier, pair.value);
    case 'total':
      return addTotal(c, pair.value);
    case 'cursor':
      // Opaque here: the validate stage decodes it against the request's sort
      // (docs/query-language.md, "Cursors: cursor").
      c.cursor = pair.value;
      return;
    case 'facet':
      return addFacet(c, pair.key, argument, pair.value);
    case 'stats':
      return addStats(c, pair.key, argument, pair.value);
    case 'facet_limit':
      return addFacetLimit(c, pair.value);
    case 'format':
      return addFormat(c, pair.value);
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
      problem: problem(
        'CONFLICTING_PARAMETERS',
        limitKeys[0]?.key,
        `\`${limitKeys[0]?.key}\` cannot be combined with \`${pageKeys[0]?.key}\`: use limit/offset or pages, not both`,
      ),
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

/** `[filter[id]=>=5, sort[name]=desc]` -> root scope with one filter clause and one sort. */
export function describeQuery(pairs: readonly QueryPair[]): QueryDescription {
  const c: Collector = {
    root: newScope(),
    aliased: new Map(),
    aliases: new Map(),
    expands: [],
    has: [],
    counts: [],
    aliasLike: [],
    paging: new Map(),
    total: undefined,
    cursor: undefined,
    format: undefined,
    facets: [],
    stats: [],
    facetLimit: undefined,
    problems: [],
    seen: new Set(),
    relations: new Map(),
    clauses: 0,
    longestList: 0,
    longestListKey: undefined,
    index: 0,
  };
  pairs.forEach((pair, index) => {
    c.index = index;
    addPair(c, pair);
  });
  c.index = pairs.length;
  const paging = resolvePaging(c);
  const aliased = resolveAliases(c);
  const problems = c.problems.sort((a, b) => a.index - b.index).map((p) => p.problem);
  return Object.freeze({
    root: freezeScope(c.root),
    expands: Object.freeze([...c.expands]),
    has: Object.freeze([...c.has]),
    counts: Object.freeze([...c.counts]),
    aliased,
    paging,
    total: c.total,
    cursor: c.cursor,
    format: c.format,
    summary: Object.freeze({ facets: Object.freeze([...c.facets]), stats: Object.freeze([...c.stats]), limit: c.facetLimit }),
    problems: Object.freeze(problems),
    keys: pairs.map((p) => p.key),
    cost: {
      clauses: c.clauses,
      listItems: c.longestList,
      longestList: c.longestListKey,
      relations: [...c.relations].map(([name, parameter]) => ({ name, parameter })),
    },
  });
}
