// Owns showing records as a table: one column per field in the records' order, expanded relations
// folded into <details> (a nested table per relation), NULL shown as a faint "null".
import { h } from '../dom';

type Row = Record<string, unknown>;

const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every key of every record, first-seen order (records of one response share their keys). */
function columnsOf(records: readonly Row[]): string[] {
  const columns: string[] = [];
  for (const record of records) {
    for (const key of Object.keys(record)) if (!columns.includes(key)) columns.push(key);
  }
  return columns;
}

function cell(value: unknown, column: string): Node {
  if (value === null || value === undefined) return h('span', { class: 'null', text: 'null' });
  if (Array.isArray(value)) {
    if (value.length === 0) return h('span', { class: 'null', text: `no ${column}` });
    if (!value.every(isRow)) return document.createTextNode(value.map((item) => JSON.stringify(item)).join(', '));
    return h(
      'details',
      { class: 'nested' },
      h('summary', { text: `${value.length} ${value.length === 1 ? column.replace(/s$/, '') : column}` }),
      recordsTable(value, column),
    );
  }
  if (isRow(value)) {
    return h('details', { class: 'nested' }, h('summary', { text: column }), recordsTable([value], column));
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return h('span', { class: typeof value === 'string' ? 'text' : 'scalar', text, attrs: { title: text.length > 40 ? text : undefined } });
}

/** The records as a <table>; `caption` names it for screen readers. */
export function recordsTable(records: readonly Row[], caption: string): HTMLElement {
  const columns = columnsOf(records);
  return h(
    'table',
    { class: 'records' },
    h('caption', { class: 'visually-hidden', text: caption }),
    h('thead', {}, h('tr', {}, ...columns.map((column) => h('th', { text: column, attrs: { scope: 'col' } })))),
    h('tbody', {}, ...records.map((record) => h('tr', {}, ...columns.map((column) => h('td', {}, cell(record[column], column)))))),
  );
}

/** The records of a bare array or an envelope's `data`, or undefined when the body holds neither. */
export function recordsOf(body: unknown): Row[] | undefined {
  const list = isRow(body) && Array.isArray(body.data) ? body.data : body;
  return Array.isArray(list) && list.every(isRow) ? list : undefined;
}

export function resultTable(records: readonly Row[]): HTMLElement {
  if (records.length === 0) return h('p', { class: 'empty', text: 'No records match.' });
  return h(
    'div',
    { class: 'table-scroll', attrs: { tabindex: '0', role: 'region', 'aria-label': 'Records' } },
    recordsTable(records, 'Records'),
  );
}
