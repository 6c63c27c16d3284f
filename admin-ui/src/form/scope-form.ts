// Owns the builder of one scope (the collection, or an expansion behind its alias): filter, in and
// between rows, search, fields and sort. Only what the scope's metadata allows is offered.
import { button, choices, h, input, labelled, select } from '../dom';
import type { ScopeMeta } from '../meta';
import { dotPaths } from '../query/paths';
import { newId, type ProjectionMode, type ScopeState, type SearchRow, type SortRow } from '../state';
import { clauseSection } from './clause-rows';
import type { FormContext } from './context';
import { sectionBox } from './section';

/**
 * Checkboxes for `offered` fields; `chosen` keeps the order in which they were ticked (the order the
 * API returns `fields` in). A chosen field that is not offered (pasted) still shows, marked.
 */
function fieldChecks(id: string, caption: string, offered: readonly string[], chosen: string[], ctx: FormContext): HTMLElement {
  const all = [...offered, ...chosen.filter((f) => !offered.includes(f))];
  const boxes = all.map((field) => {
    const box = h('input', { id: `${id}-${field}`, attrs: { type: 'checkbox', value: field } });
    box.checked = chosen.includes(field);
    box.addEventListener('change', () => {
      const at = chosen.indexOf(field);
      if (box.checked && at === -1) chosen.push(field);
      if (!box.checked && at !== -1) chosen.splice(at, 1);
      order.textContent = orderText();
      ctx.changed();
    });
    const label = offered.includes(field) ? field : `${field} (not offered)`;
    return h('label', { class: 'check', attrs: { for: box.id } }, box, label);
  });
  const orderText = (): string => (chosen.length > 1 ? `Order: ${chosen.join(', ')}` : '');
  const order = h('p', { class: 'help', text: orderText() });
  return h('fieldset', { class: 'checks', id }, h('legend', { text: caption }), h('div', { class: 'check-list' }, ...boxes), order);
}

function searchRow(scope: ScopeState, row: SearchRow, meta: ScopeMeta, ctx: FormContext): HTMLElement {
  const index = scope.search.indexOf(row);
  const pattern = input(
    `${row.id}-pattern`,
    row.pattern,
    (value) => {
      row.pattern = value;
      ctx.changed();
    },
    { placeholder: 'an  ·  an* starts  ·  *an ends' },
  );
  const remove = button(
    '×',
    () => {
      scope.search.splice(index, 1);
      ctx.rebuild(`${scope.id}-add-search`);
    },
    { class: 'icon', label: `Remove search ${index + 1}` },
  );
  return h(
    'div',
    { class: 'row wrap', id: row.id, attrs: { role: 'group', 'aria-label': `Search ${index + 1}` } },
    fieldChecks(`${row.id}-fields`, 'Search in', searchable(meta), row.fields, ctx),
    labelled('Contains (case-insensitive; * = any text)', pattern, 'grow'),
    h('div', { class: 'control end' }, remove),
  );
}

/** The scope's own searchable fields, then (at the root) the related fields a search may reach. */
const searchable = (meta: ScopeMeta): string[] => [...meta.searchable, ...dotPaths(meta, 'searchable')];

function searchHelp(meta: ScopeMeta): string {
  const related =
    dotPaths(meta, 'searchable').length > 0 ? ' A related field (relation.field) matches when at least one related record matches.' : '';
  return `Find text in one or more fields.${related}`;
}

function searchSection(scope: ScopeState, meta: ScopeMeta, ctx: FormContext): HTMLElement | null {
  if (searchable(meta).length === 0) return null;
  const add = button(
    'Add search',
    () => {
      const row: SearchRow = { id: newId('search'), fields: searchable(meta).slice(0, 1), pattern: '' };
      scope.search.push(row);
      ctx.rebuild(`${row.id}-pattern`);
    },
    { id: `${scope.id}-add-search`, class: 'add' },
  );
  return sectionBox(
    `${scope.id}-search`,
    'Search',
    searchHelp(meta),
    scope.search.map((row) => searchRow(scope, row, meta, ctx)),
    add,
  );
}

const projectionModes: ReadonlyArray<[ProjectionMode, string]> = [
  ['all', 'All fields'],
  ['include', 'Only these'],
  ['exclude', 'All except these'],
];

function fieldsSection(scope: ScopeState, meta: ScopeMeta, ctx: FormContext): HTMLElement | null {
  if (meta.projectable.length === 0) return null;
  const projection = scope.projection;
  const radios = projectionModes.map(([mode, label]) => {
    const radio = h('input', { id: `${scope.id}-fields-${mode}`, attrs: { type: 'radio', name: `${scope.id}-fields-mode`, value: mode } });
    radio.checked = projection.mode === mode;
    radio.addEventListener('change', () => {
      projection.mode = mode;
      ctx.rebuild(radio.id);
    });
    return h('label', { class: 'check', attrs: { for: radio.id } }, radio, label);
  });
  return h(
    'fieldset',
    { class: 'section fields', id: `${scope.id}-fields` },
    h('legend', { text: 'Fields' }),
    h('div', { class: 'check-list', attrs: { role: 'radiogroup', 'aria-label': 'Which fields' } }, ...radios),
    projection.mode === 'all'
      ? null
      : fieldChecks(
          `${scope.id}-fields-list`,
          projection.mode === 'include' ? 'Fields to return' : 'Fields to leave out',
          meta.projectable,
          projection.fields,
          ctx,
        ),
  );
}

function sortRow(scope: ScopeState, row: SortRow, meta: ScopeMeta, ctx: FormContext): HTMLElement {
  const index = scope.sort.indexOf(row);
  const name = `Sort ${index + 1}`;
  const field = select(`${row.id}-field`, choices(sortable(meta, ctx)), row.field, (v) => {
    row.field = v;
    ctx.changed();
  });
  const direction = select(
    `${row.id}-direction`,
    [
      { value: 'asc', label: 'ascending: A→Z, oldest first' },
      { value: 'desc', label: 'descending: Z→A, newest first' },
    ],
    row.direction,
    (v) => {
      row.direction = v;
      ctx.changed();
    },
  );
  const up = button(
    '↑',
    () => {
      scope.sort.splice(index, 1);
      scope.sort.splice(index - 1, 0, row);
      ctx.rebuild(`${row.id}-up`);
    },
    { id: `${row.id}-up`, class: 'icon', label: `Move ${name.toLowerCase()} up` },
  );
  up.disabled = index === 0;
  const remove = button(
    '×',
    () => {
      scope.sort.splice(index, 1);
      ctx.rebuild(`${scope.id}-add-sort`);
    },
    { class: 'icon', label: `Remove ${name.toLowerCase()}` },
  );
  return h(
    'div',
    { class: 'row', id: row.id, attrs: { role: 'group', 'aria-label': name } },
    labelled(index === 0 ? 'Sort by' : 'Then by', field),
    labelled('Direction', direction, 'grow'),
    h('div', { class: 'control end' }, up, remove),
  );
}

/** The scope's sortable fields, then (at the root) the fields of to-one relations (`author.name`) and the request's counts. */
const sortable = (meta: ScopeMeta, ctx: FormContext): string[] => [
  ...meta.sortable,
  ...dotPaths(meta, 'sortable'),
  ...('relations' in meta ? ctx.counted : []),
];

function sortSection(scope: ScopeState, meta: ScopeMeta, ctx: FormContext): HTMLElement | null {
  const offered = sortable(meta, ctx);
  if (offered.length === 0) return null;
  const add = button(
    'Add sort',
    () => {
      const used = scope.sort.map((s) => s.field);
      const row: SortRow = { id: newId('sort'), field: offered.find((f) => !used.includes(f)) ?? offered[0] ?? '', direction: 'asc' };
      scope.sort.push(row);
      ctx.rebuild(`${row.id}-field`);
    },
    { id: `${scope.id}-add-sort`, class: 'add' },
  );
  return sectionBox(
    `${scope.id}-sort`,
    'Sort',
    'Order the records; the first sort decides first.',
    scope.sort.map((row) => sortRow(scope, row, meta, ctx)),
    add,
  );
}

/** The condition builders of a scope only (filter, in, between, search): what a `has` alias reads. */
export function conditionSections(scope: ScopeState, meta: ScopeMeta, ctx: FormContext): HTMLElement[] {
  return [
    clauseSection('filter', scope, meta, ctx),
    clauseSection('in', scope, meta, ctx),
    clauseSection('between', scope, meta, ctx),
    searchSection(scope, meta, ctx),
  ].filter((section): section is HTMLElement => section !== null);
}

/** Every builder of a scope, in the order the URL lists their parameters. */
export function scopeSections(scope: ScopeState, meta: ScopeMeta, ctx: FormContext): HTMLElement[] {
  return [
    clauseSection('filter', scope, meta, ctx),
    clauseSection('in', scope, meta, ctx),
    clauseSection('between', scope, meta, ctx),
    searchSection(scope, meta, ctx),
    fieldsSection(scope, meta, ctx),
    sortSection(scope, meta, ctx),
  ].filter((section): section is HTMLElement => section !== null);
}
