// Owns "with their latest N posts": one control per related list that sets the expansion, its
// per-record window and its order together (a window without an order would give the first N by
// id), and "with their phone" for a single related record.
import { button, h, input, labelled, select } from '../dom';
import { fieldType, type CollectionMeta, type RelationMeta } from '../meta';
import { autoAlias, newExpand, takenAliases, type ExpandState, type FormState } from '../state';
import type { FormContext } from '../form/context';
import { dateTypes } from './conditions';
import { countOf, fieldLabel, humanise } from './labels';

/** The field "latest" orders by: the first sortable date or time (`created_at`), else the first sortable field. */
export function latestField(relation: RelationMeta): string | undefined {
  return relation.sortable.find((f) => dateTypes.has(fieldType(relation, f))) ?? relation.sortable[0];
}

/** Which end of the order an expansion shows: the newest records, the oldest, or as the API sends them. */
export function windowOrder(expand: ExpandState, relation: RelationMeta): 'latest' | 'earliest' | 'other' {
  const sort = expand.scope.sort;
  if (sort.length !== 1 || sort[0]?.field !== latestField(relation)) return 'other';
  return sort[0]?.direction === 'desc' ? 'latest' : 'earliest';
}

function setWindow(expand: ExpandState, relation: RelationMeta, order: string, count: string): void {
  const field = latestField(relation);
  expand.limit = count;
  if (field !== undefined && (order === 'latest' || order === 'earliest')) {
    expand.scope.sort.splice(0, expand.scope.sort.length, {
      id: `${expand.id}-order`,
      field,
      direction: order === 'latest' ? 'desc' : 'asc',
    });
  }
}

function relatedRow(state: FormState, expand: ExpandState, index: number, meta: CollectionMeta, ctx: FormContext): HTMLElement {
  const relation = meta.relations.find((r) => r.name === expand.relation);
  const id = `ed-${expand.id}`;
  const name = `Related records ${index + 1}`;
  const others = state.expands.filter((e) => e !== expand).map((e) => e.relation);
  const relationSelect = select(
    `${id}-relation`,
    meta.relations.filter((r) => !others.includes(r.name)).map((r) => ({ value: r.name, label: humanise(r.name) })),
    expand.relation,
    (value) => {
      const next = meta.relations.find((r) => r.name === value);
      const fresh = { ...newExpand(value, autoAlias(value, takenAliases(state, expand))), id: expand.id };
      if (next?.cardinality === 'many') setWindow(fresh, next, 'latest', '3');
      state.expands[state.expands.indexOf(expand)] = fresh;
      ctx.rebuild(`${id}-relation`);
    },
  );
  const remove = button(
    'Remove',
    () => {
      state.expands.splice(state.expands.indexOf(expand), 1);
      ctx.rebuild('ed-add-related');
    },
    { class: 'secondary', label: `Remove ${name.toLowerCase()}` },
  );
  if (relation === undefined || relation.cardinality === 'one') {
    return h(
      'div',
      { class: 'row', id, attrs: { role: 'group', 'aria-label': name } },
      labelled('With their', relationSelect),
      h('div', { class: 'control end' }, remove),
    );
  }
  const order = windowOrder(expand, relation);
  const field = latestField(relation);
  const orderSelect = select(
    `${id}-order`,
    [
      { value: 'latest', label: `latest (by ${field === undefined ? 'order' : fieldLabel(relation, field).toLowerCase()})` },
      { value: 'earliest', label: 'earliest' },
      ...(order === 'other' ? [{ value: 'other', label: 'as set in the developer view' }] : []),
    ],
    order,
    (value) => {
      setWindow(expand, relation, value, expand.limit === '' ? '3' : expand.limit);
      ctx.rebuild(`${id}-order`);
    },
  );
  const count = input(
    `${id}-count`,
    expand.limit,
    (value) => {
      // An empty or zero count is not sent as a window: every related record is shown meanwhile.
      expand.limit = /^[1-9]\d*$/.test(value) ? value : '';
      ctx.changed();
    },
    { type: 'number', min: '1', step: '1', inputmode: 'numeric', placeholder: 'all' },
  );
  return h(
    'div',
    { class: 'row', id, attrs: { role: 'group', 'aria-label': name } },
    labelled('With their', orderSelect),
    labelled('How many', count),
    labelled('Related records', relationSelect),
    h('div', { class: 'control end' }, remove),
  );
}

/** Describes an expansion in words: "their 3 latest posts", "their phone". */
export function relatedWords(expand: ExpandState, meta: CollectionMeta): string {
  const relation = meta.relations.find((r) => r.name === expand.relation);
  if (relation === undefined || relation.cardinality === 'one') return `their ${humanise(expand.relation).toLowerCase()}`;
  const order = windowOrder(expand, relation);
  const n = Number(expand.limit);
  const which = order === 'latest' ? 'latest ' : order === 'earliest' ? 'earliest ' : 'first ';
  if (expand.limit === '' || !Number.isInteger(n)) return `their ${humanise(expand.relation).toLowerCase()}`;
  const words = countOf(n, expand.relation).split(' ');
  return `their ${words[0] ?? ''} ${which}${words.slice(1).join(' ')}`;
}

/** "Include related records": the root's expansions as editor rows. */
export function relatedSection(state: FormState, meta: CollectionMeta, ctx: FormContext): HTMLElement | null {
  if (meta.relations.length === 0) return null;
  const unused = meta.relations.filter((r) => !state.expands.some((e) => e.relation === r.name));
  const add = button(
    'Add related records',
    () => {
      const first = unused.find((r) => r.cardinality === 'many') ?? unused[0];
      if (first === undefined) return;
      const expand = newExpand(first.name, autoAlias(first.name, takenAliases(state)));
      if (first.cardinality === 'many') setWindow(expand, first, 'latest', '3');
      state.expands.push(expand);
      ctx.rebuild(`ed-${expand.id}-relation`);
    },
    { id: 'ed-add-related', class: 'add' },
  );
  add.disabled = unused.length === 0 || state.expands.length >= meta.maxExpansions;
  return h(
    'fieldset',
    { class: 'section', id: 'ed-related' },
    h('legend', { text: 'Include related records' }),
    ...state.expands.map((expand, index) => relatedRow(state, expand, index, meta, ctx)),
    add,
  );
}
