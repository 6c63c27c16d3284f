// Owns the "count related" builder: one box per `count[relation]`, adding `<relation>_count` as a
// column, optionally counting only the related records that satisfy its conditions.
import { button, choices, h, labelled, select } from '../dom';
import type { CollectionMeta } from '../meta';
import { autoAlias, emptyScope, newId, sharesExpansion, takenAliases, type CountState, type FormState } from '../state';
import type { FormContext } from './context';
import { conditionSections } from './scope-form';
import { sectionBox } from './section';

function countBox(state: FormState, count: CountState, meta: CollectionMeta, ctx: FormContext): HTMLElement {
  const index = state.counts.indexOf(count);
  const toMany = meta.relations.filter((r) => r.cardinality === 'many').map((r) => r.name);
  const free = toMany.filter((name) => name === count.relation || !state.counts.some((c) => c.relation === name));
  const relation = select(`${count.id}-relation`, choices(free), count.relation, (value) => {
    count.relation = value;
    count.alias = autoAlias(
      value,
      takenAliases(state).filter((a) => a !== count.alias),
    );
    count.scope = emptyScope(count.scope.id);
    ctx.rebuild(`${count.id}-relation`);
  });
  const remove = button(
    'Remove',
    () => {
      state.counts.splice(index, 1);
      ctx.rebuild('add-count');
    },
    { class: 'secondary', label: `Remove count ${index + 1}` },
  );
  const relationMeta = meta.relations.find((r) => r.name === count.relation);
  const conditions = sharesExpansion(state, count)
    ? [h('p', { class: 'help', text: `Counts the records the ${count.relation} expansion (alias ${count.alias}) shows.` })]
    : relationMeta === undefined
      ? []
      : conditionSections(count.scope, relationMeta, ctx);
  return h(
    'fieldset',
    { class: 'expansion', id: `${count.id}-box` },
    h('legend', { text: `Column ${count.relation}_count (alias ${count.alias})` }),
    h(
      'div',
      { class: 'row', id: count.id },
      labelled('Count related', relation),
      h('p', {
        class: 'help grow',
        text: `Adds ${count.relation}_count to each record, usable in filters and sorts; conditions below count only the matching records.`,
      }),
      h('div', { class: 'control end' }, remove),
    ),
    ...conditions,
  );
}

/** The Count section; absent when no to-many relation can be expanded. */
export function countSection(state: FormState, meta: CollectionMeta, ctx: FormContext): HTMLElement | null {
  const toMany = meta.relations.filter((r) => r.cardinality === 'many');
  if (toMany.length === 0) return null;
  const unused = toMany.filter((r) => !state.counts.some((c) => c.relation === r.name));
  const add = button(
    'Add count',
    () => {
      const first = unused[0];
      if (first === undefined) return;
      const count: CountState = {
        id: newId('count'),
        relation: first.name,
        alias: autoAlias(first.name, takenAliases(state)),
        scope: emptyScope(),
      };
      state.counts.push(count);
      ctx.rebuild(`${count.id}-relation`);
    },
    { id: 'add-count', class: 'add' },
  );
  add.disabled = unused.length === 0;
  return sectionBox(
    'count',
    'Count related',
    'Add a column with the number of related records.',
    state.counts.map((count) => countBox(state, count, meta, ctx)),
    add,
  );
}
