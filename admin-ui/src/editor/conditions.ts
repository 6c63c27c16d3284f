// Owns what an editor's condition row means, in the form's own state: each kind of condition
// ("is", "starts with", "on", ...) is a filter, between or search row of the collection, so the
// editor's face and the developer view edit the same request.
import { fieldType, type FieldType, type ScopeMeta } from '../meta';
import { newId, type ClauseRow, type ScopeState, type SearchRow } from '../state';

export type ConditionKind =
  'is' | 'isNot' | 'startsWith' | 'contains' | 'atLeast' | 'atMost' | 'on' | 'between' | 'onOrAfter' | 'before' | 'isEmpty' | 'isNotEmpty';

/** One row of the editor's conditions: the state row behind it. */
export type EditorRow =
  | { readonly kind: 'filter'; readonly row: ClauseRow }
  | { readonly kind: 'between'; readonly row: ClauseRow }
  | { readonly kind: 'search'; readonly row: SearchRow };

export const kindWords: Readonly<Record<ConditionKind, string>> = {
  is: 'is',
  isNot: 'is not',
  startsWith: 'starts with',
  contains: 'contains',
  atLeast: 'is at least',
  atMost: 'is at most',
  on: 'is on',
  between: 'is between',
  onOrAfter: 'is on or after',
  before: 'is before',
  isEmpty: 'is empty',
  isNotEmpty: 'is not empty',
};

export const dateTypes: ReadonlySet<FieldType> = new Set(['date', 'timestamp', 'timestamptz']);
export const numberTypes: ReadonlySet<FieldType> = new Set(['smallint', 'integer', 'bigint', 'numeric', 'float']);
/** Types an editor's row can hold a value of; JSON and arrays stay in the developer view. */
const simpleTypes: ReadonlySet<FieldType> = new Set([...dateTypes, ...numberTypes, 'text', 'boolean', 'enum', 'uuid']);

/**
 * The kind the editor chose for a row whose state alone cannot tell it yet: an empty search is
 * "starts with" or "contains", an empty between "on" or "between".
 */
const chosen = new Map<string, ConditionKind>();

const order = (id: string): number => Number(/\d+$/.exec(id)?.[0] ?? 0);

/** The root's own fields an editor can put a condition on: filterable or searchable, of a simple type. */
export function conditionFields(meta: ScopeMeta): string[] {
  const names = [...meta.filterable, ...meta.searchable.filter((f) => !meta.filterable.includes(f))];
  return names.filter((name) => simpleTypes.has(fieldType(meta, name)));
}

/**
 * The rows the editor's face shows (plain "and" clauses on the record's own fields, searches in one
 * field), in the order they were added; the others stay in the developer view and are counted.
 */
export function editorRows(scope: ScopeState, meta: ScopeMeta): { rows: EditorRow[]; others: number } {
  const fields = conditionFields(meta);
  const plain = (row: ClauseRow) => row.logical === 'and' && fields.includes(row.field);
  const rows: EditorRow[] = [
    ...scope.filter.filter(plain).map((row) => ({ kind: 'filter' as const, row })),
    ...scope.between.filter(plain).map((row) => ({ kind: 'between' as const, row })),
    ...scope.search
      .filter((row) => row.fields.length === 1 && fields.includes(row.fields[0] ?? ''))
      .map((row) => ({ kind: 'search' as const, row })),
  ].sort((a, b) => order(a.row.id) - order(b.row.id));
  const all = scope.filter.length + scope.between.length + scope.in.length + scope.search.length;
  return { rows, others: all - rows.length };
}

export function rowField(row: EditorRow): string {
  return row.kind === 'search' ? (row.row.fields[0] ?? '') : row.row.field;
}

/** The condition kinds a field offers, by its type; `searchable` adds "starts with" and "contains". */
export function kindsFor(type: FieldType, searchable: boolean, nullable: boolean): ConditionKind[] {
  const empty: ConditionKind[] = nullable ? ['isEmpty', 'isNotEmpty'] : [];
  if (type === 'boolean') return ['is', ...empty];
  if (type === 'enum') return ['is', 'isNot', ...empty];
  if (numberTypes.has(type)) return ['is', 'atLeast', 'atMost', ...empty];
  if (dateTypes.has(type)) return ['on', 'between', 'onOrAfter', 'before', ...empty];
  return [...(searchable ? (['startsWith', 'contains'] as const) : []), 'is', 'isNot', ...empty];
}

/** What an editor row means: its kind and the value(s) the editor typed or picked. */
export function readRow(row: EditorRow, type: FieldType): { kind: ConditionKind; value: string; max: string } {
  if (row.kind === 'search') {
    const pattern = row.row.pattern;
    if (pattern === '') return { kind: chosen.get(row.row.id) === 'contains' ? 'contains' : 'startsWith', value: '', max: '' };
    const starts = pattern.endsWith('*') && !pattern.startsWith('*');
    return { kind: starts ? 'startsWith' : 'contains', value: starts ? pattern.slice(0, -1) : pattern, max: '' };
  }
  const { operator, value, max } = row.row;
  if (row.kind === 'between') return { kind: value === max && chosen.get(row.row.id) !== 'between' ? 'on' : 'between', value, max };
  if (value === 'null') return { kind: operator === '<>' ? 'isNotEmpty' : 'isEmpty', value: '', max: '' };
  const dates = dateTypes.has(type);
  const kinds: Record<string, ConditionKind> = {
    '=': dates ? 'on' : 'is',
    '<>': 'isNot',
    '>=': dates ? 'onOrAfter' : 'atLeast',
    '<=': 'atMost',
    '<': 'before',
    '>': 'atLeast',
  };
  return { kind: kinds[operator] ?? 'is', value, max: '' };
}

const operators: Partial<Record<ConditionKind, string>> = {
  is: '=',
  isNot: '<>',
  atLeast: '>=',
  atMost: '<=',
  onOrAfter: '>=',
  before: '<',
  isEmpty: '=',
  isNotEmpty: '<>',
};

/** Where a row of `kind` lives in the scope, written with `value` (and `max` for between). */
function stateRow(id: string, field: string, kind: ConditionKind, value: string, max: string): EditorRow {
  if (kind === 'startsWith' || kind === 'contains') {
    const pattern = value === '' ? '' : kind === 'startsWith' ? `${value}*` : value;
    return { kind: 'search', row: { id, fields: [field], pattern } };
  }
  if (kind === 'on' || kind === 'between') {
    return { kind: 'between', row: { id, logical: 'and', field, operator: '=', value, max: kind === 'on' ? value : max } };
  }
  const written = kind === 'isEmpty' || kind === 'isNotEmpty' ? 'null' : value;
  return { kind: 'filter', row: { id, logical: 'and', field, operator: operators[kind] ?? '=', value: written, max: '' } };
}

function remove(scope: ScopeState, row: EditorRow): number {
  const list: { id: string }[] = row.kind === 'search' ? scope.search : scope[row.kind];
  const at = list.indexOf(row.row);
  if (at !== -1) list.splice(at, 1);
  return at;
}

/** Replaces `row` in the scope by the same condition written as `kind` with these values; returns the new row. */
export function writeRow(
  scope: ScopeState,
  row: EditorRow | undefined,
  field: string,
  kind: ConditionKind,
  value: string,
  max: string,
): EditorRow {
  const id = row?.row.id ?? newId('clause');
  const at = row === undefined ? -1 : remove(scope, row);
  const fresh = stateRow(id, field, kind, value, max);
  chosen.set(id, kind);
  if (fresh.kind === 'search') scope.search.splice(at === -1 || row?.kind !== 'search' ? scope.search.length : at, 0, fresh.row);
  else {
    const list = scope[fresh.kind];
    list.splice(at === -1 || row?.kind !== fresh.kind ? list.length : at, 0, fresh.row);
  }
  return fresh;
}

/** Whether the row has everything it needs to be sent (a value; both dates for between). */
export function rowComplete(kind: ConditionKind, value: string, max: string): boolean {
  if (kind === 'isEmpty' || kind === 'isNotEmpty') return true;
  return value.trim() !== '' && (kind !== 'between' || max.trim() !== '');
}

/** Writes the typed values into the row's state in place (its kind unchanged). */
export function writeValues(row: EditorRow, kind: ConditionKind, value: string, max: string): void {
  if (row.kind === 'search') row.row.pattern = value === '' ? '' : kind === 'startsWith' ? `${value}*` : value;
  else if (row.kind === 'between') {
    row.row.value = value;
    row.row.max = kind === 'on' ? value : max;
  } else if (kind !== 'isEmpty' && kind !== 'isNotEmpty') row.row.value = value;
}
