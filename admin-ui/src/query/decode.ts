// Owns rebuilding a FormState from a URL someone pasted: reads the query string the way the plugin
// does (ordered pairs, `+` is a space), recognises our keys, and lists what the form cannot hold.
import type { CollectionMeta } from '../meta';
import {
  allExpands,
  emptyForm,
  emptyScope,
  newExpand,
  newId,
  autoAlias,
  takenAliases,
  type ExpandState,
  type FormState,
  type ScopeState,
} from '../state';
import { splitList } from './values';

export interface PastedLocation {
  /** The API prefix found in the path (`/api`), when the URL had a path. */
  readonly prefix: string | undefined;
  /** The collection found in the path, when the URL had one. */
  readonly collection: string | undefined;
  readonly query: string;
}

export interface DecodedForm {
  readonly state: FormState;
  /** Parameters the form cannot represent, each with the reason. */
  readonly ignored: readonly string[];
}

const keyShape = /^(?:([A-Za-z][A-Za-z0-9]*)_)?([a-z]+(?:-[a-z]+)?!?)(?:\[([^[\]]*)\])?$/s;
const scoped = new Set(['filter', 'in', 'between', 'search', 'sort', 'fields', 'fields!']);
const paging = new Set(['page', 'per-page', 'page-size', 'limit', 'offset', 'total', 'cursor']);
/** Keys that declare an alias, read before the rest. */
const declaring = new Set(['expand', 'has', 'has!', 'count']);
const conditions = new Set(['filter', 'in', 'between', 'search']);
const operators = ['>=', '<=', '<>', '=', '>', '<'];
const logicalWords = new Set(['and', 'or', 'and!', 'or!']);

function decodePart(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** `a=1&b` -> [['a', '1'], ['b', undefined]] */
export function readPairs(query: string): Array<[string, string | undefined]> {
  return query
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const equals = part.indexOf('=');
      return equals === -1 ? [decodePart(part), undefined] : [decodePart(part.slice(0, equals)), decodePart(part.slice(equals + 1))];
    });
}

/**
 * Finds prefix, collection and query in what was pasted.
 * Example: `http://localhost:3000/api/users?sort[name]=desc` -> `/api`, `users`, `sort[name]=desc`;
 * `posts?limit=5` -> collection `posts`; `per-page=10` -> only a query.
 */
export function readLocation(text: string): PastedLocation {
  const trimmed = text.trim().replace(/#.*$/s, '');
  const question = trimmed.indexOf('?');
  const before = question === -1 ? trimmed : trimmed.slice(0, question);
  const query = question === -1 ? (before.includes('=') || before.includes('[') ? before : '') : trimmed.slice(question + 1);
  if (question === -1 && query !== '') return { prefix: undefined, collection: undefined, query };
  let path = before;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(path);
  if (scheme) path = path.slice(scheme[0].length);
  const segments = path
    .split('/')
    .filter((s) => s !== '')
    .map(decodePart);
  const collection = segments.pop();
  if (segments.length > 0 && (segments.at(-1) === '_explain' || segments.at(-1) === '_meta')) segments.pop();
  const absolute = path.startsWith('/');
  return { prefix: absolute ? `/${segments.join('/')}`.replace(/\/$/, '') : undefined, collection, query };
}

function splitLogical(argument: string): { logical: string; field: string } {
  const space = argument.indexOf(' ');
  const word = space === -1 ? '' : argument.slice(0, space).toLowerCase();
  if (space === -1 || !logicalWords.has(word)) return { logical: 'and', field: argument };
  return { logical: word, field: argument.slice(space + 1) };
}

function addToScope(scope: ScopeState, meta: CollectionMeta, modifier: string, argument: string, value: string): void {
  switch (modifier) {
    case 'filter': {
      const operator = operators.find((op) => value.startsWith(op));
      scope.filter.push({
        id: newId('clause'),
        ...splitLogical(argument),
        operator: operator ?? '=',
        value: value.slice(operator?.length ?? 0),
        max: '',
      });
      return;
    }
    case 'in':
      scope.in.push({ id: newId('clause'), ...splitLogical(argument), operator: '=', value, max: '' });
      return;
    case 'between': {
      const items = splitList(value);
      const [min, max] = items.length === 2 ? items : [value, ''];
      scope.between.push({ id: newId('clause'), ...splitLogical(argument), operator: '=', value: min ?? '', max: max ?? '' });
      return;
    }
    case 'search':
      scope.search.push({ id: newId('search'), fields: argument.split(','), pattern: value });
      return;
    case 'fields':
    case 'fields!':
      scope.projection = { mode: modifier === 'fields' ? 'include' : 'exclude', fields: value.split(',') };
      return;
    case 'sort': {
      const word = value.toLowerCase();
      const direction =
        word === '' || meta.sortDirections.asc.includes(word) ? 'asc' : meta.sortDirections.desc.includes(word) ? 'desc' : value;
      scope.sort.push({ id: newId('sort'), field: argument, direction });
    }
  }
}

/** `cursor` (docs/query-language.md, "Cursors: cursor") takes a page size, and nothing else of pages or limit/offset. */
function readCursor(state: FormState, key: string, value: string, ignored: string[]): boolean {
  const { paging: current } = state;
  if (key === 'cursor') {
    if (current.mode === 'limit' || current.page !== '')
      ignored.push(`cursor: cannot be combined with ${current.mode === 'limit' ? 'limit/offset' : 'page'}`);
    else {
      current.mode = 'cursor';
      current.cursor = value;
    }
    return true;
  }
  if (current.mode !== 'cursor') return false;
  if (key === 'per-page' || key === 'page-size') current.perPage = value;
  else ignored.push(`${key}: cannot be combined with cursor`);
  return true;
}

function readPaging(state: FormState, key: string, value: string, ignored: string[]): void {
  if (key === 'total') {
    state.paging.total = value;
    return;
  }
  if (readCursor(state, key, value, ignored)) return;
  const pages = key === 'page' || key === 'per-page' || key === 'page-size';
  const mode = pages ? 'pages' : 'limit';
  if (state.paging.mode !== 'none' && state.paging.mode !== mode) {
    ignored.push(`${key}: cannot be combined with ${mode === 'pages' ? 'limit/offset' : 'page parameters'}`);
    return;
  }
  state.paging.mode = mode;
  if (key === 'page') state.paging.page = value;
  else if (key === 'per-page' || key === 'page-size') state.paging.perPage = value;
  else if (key === 'limit') state.paging.limit = value;
  else state.paging.offset = value;
}

/**
 * Rebuilds the form from a query string, keeping clause order. Example:
 * `filter[id]=>=5&expand[posts]=p&p_fields=title` -> a filter row `id >= 5` and a posts expansion
 * (alias p) whose fields are `title`.
 */
export function decodeQuery(query: string, meta: CollectionMeta): DecodedForm {
  const state = emptyForm(meta.name);
  const ignored: string[] = [];
  const pairs = readPairs(query);
  const expands = readExpansions(state, pairs, ignored);
  const byAlias = readHasAndCounts(state, pairs, expands);
  for (const [key, raw] of pairs) {
    const value = raw ?? '';
    const match = keyShape.exec(key);
    const [, alias, modifier = '', argument = ''] = match ?? [];
    if (modifier === 'match' && alias === undefined && argument === '') {
      state.match = value;
    } else if (match === null || !(scoped.has(modifier) || paging.has(modifier) || declaring.has(modifier))) {
      ignored.push(`${key}: not a parameter of this API`);
    } else if (declaring.has(modifier)) {
      continue;
    } else if (alias !== undefined) {
      const expand = expands.get(alias);
      const scope = byAlias.get(alias);
      if (scope === undefined)
        ignored.push(`${key}: no expand[...]=${alias}, has[...]=${alias} or count[...]=${alias} declares this alias`);
      else if (expand !== undefined && modifier === 'limit') expand.limit = value;
      else if (expand !== undefined && modifier === 'offset') expand.offset = value;
      else if (!scoped.has(modifier)) ignored.push(`${key}: not a parameter of this API`);
      else if (expand === undefined && !conditions.has(modifier))
        ignored.push(`${key}: has and count read only the conditions of their alias`);
      else addToScope(scope, meta, modifier, argument, value);
    } else if (scoped.has(modifier)) {
      addToScope(state.root, meta, modifier, argument, value);
    } else {
      readPaging(state, modifier, value, ignored);
    }
  }
  if (state.paging.total !== '' && state.paging.mode !== 'pages') {
    ignored.push(`total=${state.paging.total}: used only with pages`);
    state.paging.total = '';
  }
  return { state, ignored };
}

/**
 * Builds the expansion tree from `expand[...]` and `<alias>_expand[...]` keys in any order; a nested
 * one whose alias no expansion declares is listed as ignored. Returns the expansions by alias.
 */
function readExpansions(state: FormState, pairs: ReadonlyArray<[string, string | undefined]>, ignored: string[]): Map<string, ExpandState> {
  const byAlias = new Map<string, ExpandState>();
  const found: { owner: string | undefined; key: string; expand: ExpandState }[] = [];
  for (const [key, value] of pairs) {
    const match = keyShape.exec(key);
    if (match?.[2] !== 'expand' || match[3] === undefined) continue;
    const expand = newExpand(match[3], value ?? '');
    found.push({ owner: match[1], key, expand });
    if (expand.alias !== '') byAlias.set(expand.alias, expand);
  }
  for (const { owner, key, expand } of found) {
    if (owner === undefined) state.expands.push(expand);
    else if (byAlias.has(owner)) byAlias.get(owner)?.expands.push(expand);
    else ignored.push(`${key}: no expand[...]=${owner} declares this alias`);
  }
  return byAlias;
}

/**
 * Reads `has[...]`, `has![...]` and `count[...]` rows; an alias shared with an expansion (or another
 * has or count) shares its conditions. Then names every alias left empty. Returns each alias's scope.
 */
function readHasAndCounts(
  state: FormState,
  pairs: ReadonlyArray<[string, string | undefined]>,
  expands: ReadonlyMap<string, ExpandState>,
): Map<string, ScopeState> {
  const byAlias = new Map<string, ScopeState>([...expands].map(([alias, expand]) => [alias, expand.scope]));
  for (const [key, value] of pairs) {
    const match = keyShape.exec(key);
    const modifier = match?.[2];
    if (
      match === null ||
      (modifier !== 'has' && modifier !== 'has!' && modifier !== 'count') ||
      match[1] !== undefined ||
      match[3] === undefined
    )
      continue;
    const alias = value ?? '';
    const scope = byAlias.get(alias) ?? emptyScope();
    if (modifier === 'count') state.counts.push({ id: newId('count'), relation: match[3], alias, scope });
    else state.has.push({ id: newId('has'), relation: match[3], negated: modifier === 'has!', alias, scope });
    if (alias !== '') byAlias.set(alias, scope);
  }
  for (const row of [...allExpands(state.expands), ...state.has, ...state.counts]) {
    if (row.alias === '') row.alias = autoAlias(row.relation, takenAliases(state));
  }
  return byAlias;
}
