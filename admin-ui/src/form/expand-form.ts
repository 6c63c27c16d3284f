// Owns the expansion builder: one box per expanded relation, with its alias (named automatically,
// e.g. `p` for posts) and the relation's own filter, search, fields and sort builders.
import { button, choices, h, input, labelled, select } from '../dom';
import type { CollectionMeta } from '../meta';
import { autoAlias, emptyScope, newId, takenAliases, type ExpandState, type FormState } from '../state';
import type { FormContext } from './context';
import { scopeSections } from './scope-form';
import { sectionBox } from './section';

function expansionBox(state: FormState, expand: ExpandState, meta: CollectionMeta, ctx: FormContext): HTMLElement {
  const index = state.expands.indexOf(expand);
  const others = state.expands.filter((e) => e !== expand);
  const free = meta.relations.map((r) => r.name).filter((name) => name === expand.relation || !others.some((e) => e.relation === name));
  const relation = select(`${expand.id}-relation`, choices(free), expand.relation, (value) => {
    expand.relation = value;
    // A has row that shared this expansion's alias keeps its conditions as its own.
    for (const has of state.has) if (has.scope === expand.scope) has.scope = { ...expand.scope };
    expand.alias = autoAlias(value, takenAliases(state).filter((a) => a !== expand.alias));
    state.expands[index] = { ...expand, scope: emptyScope(expand.scope.id) };
    ctx.rebuild(`${expand.id}-relation`);
  });
  const alias = input(`${expand.id}-alias`, expand.alias, (value) => {
    expand.alias = value;
    legend.textContent = legendText();
    ctx.changed();
  }, { size: '6', pattern: '[A-Za-z][A-Za-z0-9]*' });
  const legendText = (): string => `Expand ${expand.relation} (alias ${expand.alias})`;
  const legend = h('legend', { text: legendText() });
  const remove = button('Remove expansion', () => {
    for (const has of state.has) if (has.scope === expand.scope) has.scope = { ...expand.scope };
    state.expands.splice(index, 1);
    ctx.rebuild('add-expand');
  }, { class: 'secondary' });
  const relationMeta = meta.relations.find((r) => r.name === expand.relation);
  const cardinality = relationMeta === undefined ? '' : relationMeta.cardinality === 'many' ? 'a list of records' : 'one record or null';
  return h('fieldset', { class: 'expansion', id: `${expand.id}-box` },
    legend,
    h('div', { class: 'row', id: expand.id },
      labelled('Relation', relation), labelled('Alias', alias),
      h('p', { class: 'help grow', text: cardinality === '' ? '' : `Each record gets "${expand.relation}": ${cardinality}.` }),
      h('div', { class: 'control end' }, remove)),
    ...(relationMeta === undefined ? [] : scopeSections(expand.scope, relationMeta, ctx)));
}

/** The Expand section; absent when the collection declares no expandable relation. */
export function expandSection(state: FormState, meta: CollectionMeta, ctx: FormContext): HTMLElement | null {
  if (meta.relations.length === 0) return null;
  const unused = meta.relations.filter((r) => !state.expands.some((e) => e.relation === r.name));
  const add = button('Add expansion', () => {
    const first = unused[0];
    if (first === undefined) return;
    const expand: ExpandState = { id: newId('expand'), relation: first.name, alias: autoAlias(first.name, takenAliases(state)), scope: emptyScope() };
    state.expands.push(expand);
    ctx.rebuild(`${expand.id}-relation`);
  }, { id: 'add-expand', class: 'add' });
  add.disabled = unused.length === 0;
  return sectionBox('expand', 'Expand', `Include related records (${meta.relations.map((r) => r.name).join(', ')}).`,
    state.expands.map((expand) => expansionBox(state, expand, meta, ctx)), add);
}
