// Owns showing records as a table: one column per field in the records' order, expanded relations
// folded into <details> (a nested table per relation, in its own scrolling box). For developers the
// names and values are as the API sent them; on the editor's face (`view.scope` given) columns carry
// the fields' labels and sort buttons, and values are formatted.
import { h } from '../dom';
import { fieldType, type RelationMeta, type ScopeMeta } from '../meta';
import { formattedCell } from '../editor/format';
import { countOf, fieldLabel, humanise } from '../editor/labels';

type Row = Record<string, unknown>;

/** A scope with the relations its records may carry. */
export type TableScope = ScopeMeta & { readonly relations?: readonly RelationMeta[] };

export interface TableView {
  /** The collection's metadata: the editor's face. Absent: the developer view, raw. */
  readonly scope?: TableScope;
  /** The root's sort (one field), and what a header click does. */
  readonly sort?: { readonly field: string; readonly direction: string };
  readonly onSort?: (field: string, direction: string) => void;
}

const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every key of every record, first-seen order (records of one response share their keys). */
function columnsOf(records: readonly Row[]): string[] {
  const columns: string[] = [];
  for (const record of records) {
    for (const key of Object.keys(record)) if (!columns.includes(key)) columns.push(key);
  }
  return columns;
}

function nested(records: readonly Row[], column: string, summary: string, scope: TableScope | undefined): HTMLElement {
  const inner = scope?.relations?.find((r) => r.name === column);
  const table = recordsTable(records, scope === undefined ? column : humanise(column), inner === undefined ? {} : { scope: inner });
  const box =
    scope === undefined
      ? table
      : h('div', { class: 'nested-scroll', attrs: { tabindex: '0', role: 'region', 'aria-label': humanise(column) } }, table);
  return h('details', { class: 'nested' }, h('summary', { text: summary }), box);
}

function cell(value: unknown, column: string, scope: TableScope | undefined): Node {
  const editor = scope !== undefined;
  if (value === null || value === undefined) {
    return editor ? formattedCell(null, 'other') : h('span', { class: 'null', text: 'null' });
  }
  const isRelation = scope?.relations?.some((r) => r.name === column) ?? true;
  if (Array.isArray(value) && value.every(isRow) && isRelation) {
    if (value.length === 0) return h('span', { class: 'null', text: `no ${editor ? humanise(column).toLowerCase() : column}` });
    const summary = editor ? countOf(value.length, column) : `${value.length} ${value.length === 1 ? column.replace(/s$/, '') : column}`;
    return nested(value, column, summary, scope);
  }
  if (isRow(value) && isRelation) return nested([value], column, editor ? humanise(column) : column, scope);
  if (editor) return formattedCell(value, fieldType(scope, column));
  if (Array.isArray(value)) return document.createTextNode(value.map((item) => JSON.stringify(item)).join(', '));
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return h('span', { class: typeof value === 'string' ? 'text' : 'scalar', text, attrs: { title: text.length > 40 ? text : undefined } });
}

/** A header: the field's name, or on the editor's face its label, a sort button where it sorts. */
function header(column: string, view: TableView): HTMLElement {
  const scope = view.scope;
  if (scope === undefined) return h('th', { text: column, attrs: { scope: 'col' } });
  const label = scope.relations?.some((r) => r.name === column) ? humanise(column) : fieldLabel(scope, column);
  if (view.onSort === undefined || !scope.sortable.includes(column))
    return h('th', { text: label, attrs: { scope: 'col', 'data-field': column } });
  const sorted = view.sort?.field === column ? view.sort.direction : undefined;
  const next = sorted === 'asc' ? 'desc' : 'asc';
  const sort = view.onSort;
  return h(
    'th',
    {
      attrs: {
        scope: 'col',
        'data-field': column,
        'aria-sort': sorted === undefined ? undefined : sorted === 'asc' ? 'ascending' : 'descending',
      },
    },
    h(
      'button',
      { class: 'sort', attrs: { type: 'button', title: `Sort by ${label}` }, on: { click: () => sort(column, next) } },
      label,
      h('span', { class: 'sort-mark', text: sorted === undefined ? '' : sorted === 'asc' ? ' ▲' : ' ▼', attrs: { 'aria-hidden': 'true' } }),
    ),
  );
}

/** The records as a <table>; `caption` names it for screen readers. */
export function recordsTable(records: readonly Row[], caption: string, view: TableView = {}): HTMLElement {
  const columns = columnsOf(records);
  return h(
    'table',
    { class: 'records' },
    h('caption', { class: 'visually-hidden', text: caption }),
    h('thead', {}, h('tr', {}, ...columns.map((column) => header(column, view)))),
    h(
      'tbody',
      {},
      ...records.map((record) => h('tr', {}, ...columns.map((column) => h('td', {}, cell(record[column], column, view.scope))))),
    ),
  );
}

/** The records of a bare array or an envelope's `data`, or undefined when the body holds neither. */
export function recordsOf(body: unknown): Row[] | undefined {
  const list = isRow(body) && Array.isArray(body.data) ? body.data : body;
  return Array.isArray(list) && list.every(isRow) ? list : undefined;
}

export function resultTable(records: readonly Row[], view: TableView = {}): HTMLElement {
  if (records.length === 0) return h('p', { class: 'empty', text: 'No records match.' });
  return h(
    'div',
    { class: 'table-scroll', attrs: { tabindex: '0', role: 'region', 'aria-label': 'Records' } },
    recordsTable(records, 'Records', view),
  );
}
