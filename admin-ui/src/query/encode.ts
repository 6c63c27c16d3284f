// Owns turning the form's state into the request's query string, in one canonical order (root
// clauses, search, fields, sort, then each expansion with its alias modifiers, window and nested
// expansions, then paging), and
// remembering which control produced each parameter so a problem's `parameter` can be shown there.
import {
  clauseFamilies,
  expandUsesAlias,
  type ClauseFamily,
  sharesExpansion,
  type ClauseRow,
  type ExpandState,
  type FormState,
  type ScopeState,
} from '../state';

/** One query parameter; `value` undefined means a bare key (`expand[posts]`). */
export interface Param {
  readonly key: string;
  readonly value: string | undefined;
  /** The element id of the row or control that produced it. */
  readonly control: string;
}

const operatorStart = /^[<>=]/;

/** `{logical: 'or!', field: 'status'}` -> `or! status`; a plain `and` is written as nothing. */
function clauseArgument(row: ClauseRow): string {
  return row.logical === 'and' || row.logical === '' ? row.field : `${row.logical} ${row.field}`;
}

/** `=` is implied unless the value itself starts like an operator (then `=` is needed to keep it text). */
function filterValue(row: ClauseRow): string {
  if (row.operator === '=' && !operatorStart.test(row.value)) return row.value;
  return `${row.operator}${row.value}`;
}

/**
 * Whether a row says enough to be sent: a value (both bounds for between). A row still being filled
 * in is left out of the request rather than sent as `filter[name]=`, which the API refuses.
 */
export function clauseComplete(family: ClauseFamily, row: ClauseRow): boolean {
  return family === 'between' ? row.value.trim() !== '' && row.max.trim() !== '' : row.value.trim() !== '';
}

function conditionParams(scope: ScopeState, prefix: string): Param[] {
  const params: Param[] = [];
  for (const family of clauseFamilies) {
    for (const row of scope[family].filter((r) => clauseComplete(family, r))) {
      const key = `${prefix}${family}[${clauseArgument(row)}]`;
      const value = family === 'filter' ? filterValue(row) : family === 'in' ? row.value : `${row.value},${row.max}`;
      params.push({ key, value, control: row.id });
    }
  }
  for (const row of scope.search.filter((r) => r.fields.length > 0 && r.pattern.trim() !== '')) {
    params.push({ key: `${prefix}search[${row.fields.join(',')}]`, value: row.pattern, control: row.id });
  }
  return params;
}

function scopeParams(scope: ScopeState, alias: string): Param[] {
  const prefix = alias === '' ? '' : `${alias}_`;
  const params = conditionParams(scope, prefix);
  const { mode, fields } = scope.projection;
  // No field ticked yet: `fields=` would be refused, so the request asks for every field meanwhile.
  if (mode !== 'all' && fields.length > 0) {
    params.push({ key: `${prefix}${mode === 'include' ? 'fields' : 'fields!'}`, value: fields.join(','), control: `${scope.id}-fields` });
  }
  for (const row of scope.sort) {
    params.push({ key: `${prefix}sort[${row.field}]`, value: row.direction, control: row.id });
  }
  return params;
}

function pagingParams(state: FormState): Param[] {
  const { mode, perPage, page, limit, offset, total, cursor } = state.paging;
  const params: Param[] = [];
  if (mode === 'pages') {
    if (perPage !== '') params.push({ key: 'per-page', value: perPage, control: 'paging-per-page' });
    if (page !== '' || perPage === '') params.push({ key: 'page', value: page === '' ? '1' : page, control: 'paging-page' });
    if (total !== '') params.push({ key: 'total', value: total, control: 'paging-total' });
  } else if (mode === 'cursor') {
    if (perPage !== '') params.push({ key: 'per-page', value: perPage, control: 'paging-per-page' });
    params.push({ key: 'cursor', value: cursor, control: 'paging-cursor' });
  } else if (mode === 'limit') {
    if (limit !== '') params.push({ key: 'limit', value: limit, control: 'paging-limit' });
    if (offset !== '') params.push({ key: 'offset', value: offset, control: 'paging-offset' });
  }
  return params;
}

/** `expand[posts]=p` (or `q_expand[...]` behind the owner's alias), its alias modifiers, window and nested expansions. */
function expandParams(expand: ExpandState, owner: string): Param[] {
  // The alias is written only when something refers to it, so `expand[author]` stays minimal.
  const aliased = expandUsesAlias(expand);
  const key = `${owner === '' ? '' : `${owner}_`}expand[${expand.relation}]`;
  const params: Param[] = [{ key, value: aliased ? expand.alias : undefined, control: expand.id }];
  if (!aliased) return params;
  params.push(...scopeParams(expand.scope, expand.alias));
  if (expand.limit !== '') params.push({ key: `${expand.alias}_limit`, value: expand.limit, control: `${expand.id}-limit` });
  if (expand.offset !== '') params.push({ key: `${expand.alias}_offset`, value: expand.offset, control: `${expand.id}-offset` });
  for (const nested of expand.expands) params.push(...expandParams(nested, expand.alias));
  return params;
}

/**
 * The form as ordered parameters. Example: a `created_at` between row, a search on `name` and a
 * descending sort give `between[created_at]=2025-04-01,2025-04-30`, `search[name]=an`, `sort[created_at]=desc`.
 */
export function encodeForm(state: FormState): Param[] {
  const params = scopeParams(state.root, '');
  if (state.match !== '') params.unshift({ key: 'match', value: state.match, control: 'match' });
  for (const has of state.has) {
    const key = `${has.negated ? 'has!' : 'has'}[${has.relation}]`;
    const shared = sharesExpansion(state, has);
    // A shared alias's conditions are written with its expansion.
    const conditions = shared ? [] : conditionParams(has.scope, `${has.alias}_`);
    params.push({ key, value: shared || conditions.length > 0 ? has.alias : undefined, control: has.id }, ...conditions);
  }
  for (const count of state.counts) {
    const shared = sharesExpansion(state, count);
    const conditions = shared ? [] : conditionParams(count.scope, `${count.alias}_`);
    params.push(
      { key: `count[${count.relation}]`, value: shared || conditions.length > 0 ? count.alias : undefined, control: count.id },
      ...conditions,
    );
  }
  for (const expand of state.expands) params.push(...expandParams(expand, ''));
  params.push(...pagingParams(state));
  return params;
}

/**
 * Percent-encodes like encodeURIComponent but keeps `[ ] , : @ /` readable and writes a space as `+`
 * (the plugin reads `+` as a space; a real `+` stays `%2B`); `'` is encoded for shell quoting.
 */
export function encodePart(text: string): string {
  return encodeURIComponent(text)
    .replace(/%20/g, '+')
    .replace(/%5B/g, '[')
    .replace(/%5D/g, ']')
    .replace(/%2C/g, ',')
    .replace(/%3A/g, ':')
    .replace(/%40/g, '@')
    .replace(/%2F/g, '/')
    .replace(/'/g, '%27');
}

/** `[{key: 'sort[name]', value: 'desc'}]` -> `sort[name]=desc`. */
export function toQueryString(params: readonly Param[]): string {
  return params.map((p) => (p.value === undefined ? encodePart(p.key) : `${encodePart(p.key)}=${encodePart(p.value)}`)).join('&');
}
