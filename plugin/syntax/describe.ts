// Turns ordered (key, value) pairs into a QueryDescription: what the client asked for, per scope
// (the root and each expansion alias), with every syntax problem collected rather than thrown.

import { problem, type Problem } from '../errors';
import { aliasPrefix, claimsUndecodableKey, notAnAliasModifier, readKey } from './parse-key';
import { parseCount, parseFilterValue, parseList, parseSearchPattern, type Parsed } from './parse-value';
import type { QueryPair } from './query-string';
import type {
  ClauseDescription,
  CountDescription,
  ExpandDescription,
  HasDescription,
  PagingDescription,
  ProjectionDescription,
  QueryDescription,
  ScopeDescription,
  SearchDescription,
  SortDescription,
} from './types';
import {
  conditionModifiers,
  parseLogicalPrefix,
  parseSortDirection,
  sortWordList,
  type ClauseFamily,
  type LogicalWord,
  type Modifier,
  type ScopedModifier,
} from './vocabulary';

interface ScopeBuilder {
  clauses: Record<ClauseFamily, ClauseDescription[]>;
  searches: SearchDescription[];
  sorts: SortDescription[];
  projection: ProjectionDescription | undefined;
}

type PagingKey = 'page' | 'per-page' | 'page-size' | 'limit' | 'offset';

/** Who declared an alias: the relation it names, the first key naming it, and whether an expand did. */
interface AliasOwner {
  readonly relation: string;
  readonly parameter: string;
  expanded: boolean;
}

interface Collector {
  root: ScopeBuilder;
  aliased: Map<string, { scope: ScopeBuilder; parameters: { key: string; index: number; modifier: Modifier }[] }>;
  aliases: Map<string, AliasOwner>;
  expands: ExpandDescription[];
  has: HasDescription[];
  counts: CountDescription[];
  /** Keys not of ours that start like an alias modifier (`p_page`): a mistake if the alias is declared. */
  aliasLike: { alias: string; key: string; index: number }[];
  paging: Map<PagingKey, { key: string; value: number }>;
  problems: { index: number; problem: Problem }[];
  seen: Set<string>;
  /** Relation name -> the first key naming it. */
  relations: Map<string, string>;
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
  'fields', 'fields!', 'sort', 'expand', 'has', 'has!', 'count', 'page', 'per-page', 'page-size', 'limit', 'offset',
]);

const aliasShape = /^[A-Za-z][A-Za-z0-9]*$/;

function report(c: Collector, code: Problem['code'], parameter: string, detail: string, allowed?: readonly string[]): void {
  c.problems.push({ index: c.index, problem: problem(code, parameter, detail, allowed) });
}

function malformed(c: Collector, key: string, detail: string, allowed?: readonly string[]): void {
  report(c, 'MALFORMED_PARAMETER', key, `\`${key}\` ${detail}`, allowed);
}

/** `posts.status` -> `posts`; `status` -> undefined. The validate stage decides whether it is a relation. */
function relationOf(field: string): string | undefined {
  const dot = field.indexOf('.');
  return dot === -1 ? undefined : field.slice(0, dot);
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
    return report(c, 'CONFLICTING_PARAMETERS', key, `\`${key}\` cannot be combined with \`${scope.projection.parameter}\`: use one of them`);
  }
  scope.projection = { kind: exclude ? 'exclude' : 'include', parameter: key, fields };
}

/**
 * Reads the alias of `expand[relation]=<alias>` (or `has`, `count`): empty means none. One alias names one
 * relation (decisions.md 21, 37); `expand`, `has` and `count` of that relation may share it.
 */
function declareAlias(c: Collector, key: string, relation: string, value: string, expanded: boolean): { ok: boolean; alias?: string } {
  if (value === '') return { ok: true };
  if (!aliasShape.test(value)) {
    malformed(c, key, `has an invalid alias "${value}": an alias is a letter followed by letters or digits`);
    return { ok: false };
  }
  const owner = c.aliases.get(value);
  if (owner !== undefined && owner.relation !== relation) {
    report(c, 'DUPLICATE_PARAMETER', key,
      `The alias "${value}" already names the relation "${owner.relation}" (\`${owner.parameter}\`); an alias names one relation`);
    return { ok: false };
  }
  if (owner === undefined) c.aliases.set(value, { relation, parameter: key, expanded });
  else owner.expanded ||= expanded;
  return { ok: true, alias: value };
}

function addExpand(c: Collector, key: string, relation: string, value: string): void {
  const declared = declareAlias(c, key, relation, value, true);
  if (declared.ok) c.expands.push({ kind: 'expand', parameter: key, relation, alias: declared.alias });
}

/** `has[posts]=p`, `has![posts]`: the alias's conditions are read from its alias modifiers. */
function addHas(c: Collector, key: string, relation: string, value: string, negated: boolean): void {
  const declared = declareAlias(c, key, relation, value, false);
  if (!declared.ok) return;
  // One more test of the related records, like a clause (decisions.md 32).
  c.clauses++;
  c.has.push({ kind: 'has', parameter: key, relation, alias: declared.alias, negated });
}

/** `count[posts]`, `count[posts]=p`: the alias's conditions choose which related records are counted. */
function addCount(c: Collector, key: string, relation: string, value: string): void {
  const declared = declareAlias(c, key, relation, value, false);
  if (declared.ok) c.counts.push({ kind: 'count', parameter: key, relation, alias: declared.alias });
}

function addPaging(c: Collector, key: PagingKey, value: string): void {
  const count = parseCount(value);
  if (!count.ok) return malformed(c, key, count.detail);
  const atLeastOne = key === 'page' || key === 'per-page' || key === 'page-size';
  if (atLeastOne && count.value < 1) return malformed(c, key, 'must be at least 1');
  c.paging.set(key, { key, value: count.value });
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

/** Notes a relation the request names (once, with the first key), for limits.maxExpansions. */
function nameRelation(c: Collector, relation: string | undefined, key: string): void {
  if (relation !== undefined && !c.relations.has(relation)) c.relations.set(relation, key);
}

function addPair(c: Collector, pair: QueryPair): void {
  if (pair.undecodable === 'key') {
    if (claimsUndecodableKey(pair.key)) malformed(c, pair.key, 'is not valid percent-encoded UTF-8');
    return;
  }
  const reading = readKey(pair.key);
  if (reading.kind === 'foreign') {
    const alias = aliasPrefix(pair.key);
    if (alias !== undefined) c.aliasLike.push({ alias, key: pair.key, index: c.index });
    return;
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
    case 'fields':
    case 'fields!':
      return addProjection(c, scope(), pair.key, modifier === 'fields!', pair.value);
    case 'expand':
      return addExpand(c, pair.key, argument, pair.value);
    case 'has':
    case 'has!':
      return addHas(c, pair.key, argument, pair.value, modifier === 'has!');
    case 'count':
      return addCount(c, pair.key, argument, pair.value);
    case 'page':
    case 'per-page':
    case 'page-size':
    case 'limit':
    case 'offset':
      return addPaging(c, modifier, pair.value);
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
 * The scope of an alias no `expand` declares: only its conditions mean something (decisions.md 37),
 * so `p_sort[...]` and `p_fields` there are refused rather than silently ignored.
 */
function conditionsOnly(c: Collector, alias: string, owner: AliasOwner, entry: { scope: ScopeBuilder; parameters: { key: string; index: number; modifier: Modifier }[] }): ScopeBuilder {
  for (const { key, index, modifier } of entry.parameters) {
    if (conditionModifiers.includes(modifier as ScopedModifier)) continue;
    c.problems.push({
      index,
      problem: problem('MALFORMED_PARAMETER', key, `\`${key}\`: the alias "${alias}" is declared by \`${owner.parameter}\`, which reads only `
        + `its conditions (${alias}_filter, ${alias}_in, ${alias}_between, ${alias}_search); shape records with \`expand[${owner.relation}]=${alias}\``),
    });
  }
  return { ...entry.scope, sorts: [], projection: undefined };
}

function freezeScope(scope: ScopeBuilder): ScopeDescription {
  return Object.freeze({ ...scope, clauses: Object.freeze({ ...scope.clauses }) });
}

/** `[filter[id]=>=5, sort[name]=desc]` -> root scope with one filter clause and one sort. */
export function describeQuery(pairs: readonly QueryPair[]): QueryDescription {
  const c: Collector = {
    root: newScope(), aliased: new Map(), aliases: new Map(), expands: [], has: [], counts: [], aliasLike: [], paging: new Map(), problems: [],
    seen: new Set(), relations: new Map(), clauses: 0, longestList: 0, longestListKey: undefined, index: 0,
  };
  pairs.forEach((pair, index) => {
    c.index = index;
    addPair(c, pair);
  });
  c.index = pairs.length;
  const paging = resolvePaging(c);
  const aliased = new Map<string, ScopeDescription>();
  for (const [alias, entry] of c.aliased) {
    const owner = c.aliases.get(alias);
    if (owner !== undefined) {
      aliased.set(alias, freezeScope(owner.expanded ? entry.scope : conditionsOnly(c, alias, owner, entry)));
      continue;
    }
    for (const { key, index } of entry.parameters) {
      c.problems.push({
        index,
        problem: problem('UNKNOWN_ALIAS', key, `\`${key}\` uses the alias "${alias}", but no \`expand[...]=${alias}\`, \`has[...]=${alias}\` or \`count[...]=${alias}\` declares it`),
      });
    }
  }
  for (const { alias, key, index } of c.aliasLike) {
    if (c.aliases.has(alias)) c.problems.push({ index, problem: problem('MALFORMED_PARAMETER', key, notAnAliasModifier(key, alias)) });
  }
  const problems = c.problems.sort((a, b) => a.index - b.index).map((p) => p.problem);
  return Object.freeze({
    root: freezeScope(c.root),
    expands: Object.freeze([...c.expands]),
    has: Object.freeze([...c.has]),
    counts: Object.freeze([...c.counts]),
    aliased,
    paging,
    problems: Object.freeze(problems),
    keys: pairs.map((p) => p.key),
    cost: {
      clauses: c.clauses, listItems: c.longestList, longestList: c.longestListKey,
      relations: [...c.relations].map(([name, parameter]) => ({ name, parameter })),
    },
  });
}
