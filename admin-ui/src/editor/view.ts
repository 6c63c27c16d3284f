// Owns how the editor's list looks: its order (also set by clicking a column's header), which
// columns it shows (never none), and how many records a page holds.
import { h, labelled, select } from '../dom';
import { fieldType, type CollectionMeta, type FieldType } from '../meta';
import type { FormContext } from '../form/context';
import { newId, type FormState, type ScopeState } from '../state';
import { dateTypes, numberTypes } from './conditions';
import { fieldLabel } from './labels';

/** "newest first", "A to Z", "highest first": a direction in the words of the field's type. */
export function directionWords(type: FieldType, direction: string): string {
  const down = direction === 'desc';
  if (dateTypes.has(type)) return down ? 'newest first' : 'oldest first';
  if (numberTypes.has(type)) return down ? 'highest first' : 'lowest first';
  if (type === 'boolean') return down ? 'Yes first' : 'No first';
  return down ? 'Z to A' : 'A to Z';
}

/** Sorts the root by one field alone (a header click, or the order list). */
export function sortBy(scope: ScopeState, field: string, direction: string): void {
  scope.sort.splice(0, scope.sort.length, ...(field === '' ? [] : [{ id: newId('sort'), field, direction }]));
}

function orderControl(state: FormState, meta: CollectionMeta, ctx: FormContext): HTMLElement {
  const sort = state.root.sort;
  const current = sort.length === 0 ? '' : `${sort[0]?.field ?? ''} ${sort[0]?.direction ?? ''}`;
  const options = [
    { value: '', label: 'Default order' },
    ...meta.sortable.flatMap((field) =>
      ['asc', 'desc'].map((direction) => ({
        value: `${field} ${direction}`,
        label: `${fieldLabel(meta, field)}, ${directionWords(fieldType(meta, field), direction)}`,
      })),
    ),
  ];
  const control = select('ed-order', options, current, (value) => {
    const [field = '', direction = 'asc'] = value.split(' ');
    sortBy(state.root, field, direction);
    ctx.rebuild('ed-order');
  });
  return labelled(sort.length > 1 ? `Order (then ${sort.length - 1} more, set in the developer view)` : 'Order', control);
}

function pageSizeControl(state: FormState, meta: CollectionMeta, ctx: FormContext): HTMLElement {
  const paging = state.paging;
  const sizes = [10, 25, 50, 100].filter((n) => n <= meta.pagination.maxPageSize);
  const current =
    paging.mode === 'pages' ? paging.perPage || String(meta.pagination.defaultPageSize) : paging.mode === 'none' ? 'all' : 'other';
  const options = [
    ...[...new Set([...sizes, meta.pagination.defaultPageSize])]
      .sort((a, b) => a - b)
      .map((n) => ({ value: String(n), label: `${n} per page` })),
    { value: 'all', label: `All on one page (up to ${meta.maxRows})` },
    ...(current === 'other' ? [{ value: 'other', label: 'as set in the developer view' }] : []),
  ];
  const control = select('ed-per-page', options, current, (value) => {
    if (value === 'all') paging.mode = 'none';
    else if (value !== 'other') {
      paging.mode = 'pages';
      paging.perPage = value;
      paging.page = '';
    }
    ctx.rebuild('ed-per-page');
  });
  return labelled('Records per page', control, '', 'ed-paging-per-page');
}

/** Column checkboxes; the last ticked one cannot be unticked, so the request never asks for no field. */
function columnsControl(state: FormState, meta: CollectionMeta, ctx: FormContext): HTMLElement {
  const projection = state.root.projection;
  const shown = (field: string): boolean =>
    projection.mode === 'all' || (projection.mode === 'include' ? projection.fields.includes(field) : !projection.fields.includes(field));
  const chosen = meta.projectable.filter(shown);
  const boxes = meta.projectable.map((field) => {
    const box = h('input', { id: `ed-column-${field}`, attrs: { type: 'checkbox', value: field } });
    box.checked = shown(field);
    box.disabled = box.checked && chosen.length === 1;
    box.addEventListener('change', () => {
      const next = meta.projectable.filter((f) => (f === field ? box.checked : shown(f)));
      projection.mode = next.length === meta.projectable.length ? 'all' : 'include';
      projection.fields.splice(0, projection.fields.length, ...(projection.mode === 'all' ? [] : next));
      ctx.rebuild(box.id);
    });
    return h('label', { class: 'check', attrs: { for: box.id } }, box, fieldLabel(meta, field));
  });
  const summary = `Columns (${chosen.length} of ${meta.projectable.length})`;
  const details = h(
    'details',
    { class: 'columns', id: 'ed-columns' },
    h('summary', { text: summary }),
    h(
      'fieldset',
      { class: 'checks' },
      h('legend', { class: 'visually-hidden', text: 'Columns to show' }),
      h('div', { class: 'check-list' }, ...boxes),
    ),
  );
  details.open = document.getElementById('ed-columns')?.hasAttribute('open') ?? false;
  return details;
}

/** The order, page size and column picker, on one line. */
export function viewSection(state: FormState, meta: CollectionMeta, ctx: FormContext): HTMLElement {
  return h(
    'div',
    { class: 'row view-row', id: 'ed-view', attrs: { role: 'group', 'aria-label': 'How the list looks' } },
    ...(meta.sortable.length > 0 ? [orderControl(state, meta, ctx)] : []),
    pageSizeControl(state, meta, ctx),
    ...(meta.projectable.length > 0 ? [columnsControl(state, meta, ctx)] : []),
  );
}
