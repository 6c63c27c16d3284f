// Owns the "has / has none" builder: one box per `has[relation]` or `has![relation]`, keeping the
// records that have (or have no) related record satisfying all of its conditions together.
import { button, choices, h, labelled, select } from '../dom';
import type { CollectionMeta } from '../meta';
import { autoAlias, emptyScope, newId, sharesExpansion, takenAliases, type FormState, type HasState } from '../state';
import type { FormContext } from './context';
import { conditionSections } from './scope-form';
import { sectionBox } from './section';

function hasBox(state: FormState, has: HasState, meta: CollectionMeta, ctx: FormContext): HTMLElement {
  const index = state.has.indexOf(has);
  const which = select(
    `${has.id}-which`,
    [
      { value: 'has', label: 'have at least one' },
      { value: 'has!', label: 'have no' },
    ],
    has.negated ? 'has!' : 'has',
    (v) => {
      has.negated = v === 'has!';
      ctx.changed();
    },
  );
  const relation = select(`${has.id}-relation`, choices(meta.relations.map((r) => r.name)), has.relation, (value) => {
    has.relation = value;
    has.alias = autoAlias(
      value,
      takenAliases(state).filter((a) => a !== has.alias),
    );
    has.scope = emptyScope(has.scope.id);
    ctx.rebuild(`${has.id}-relation`);
  });
  const remove = button(
    'Remove',
    () => {
      state.has.splice(index, 1);
      ctx.rebuild('add-has');
    },
    { class: 'secondary', label: `Remove has ${index + 1}` },
  );
  const relationMeta = meta.relations.find((r) => r.name === has.relation);
  const shared = sharesExpansion(state, has);
  const conditions = shared
    ? [
        h('p', {
          class: 'help',
          text: `Uses the conditions of the ${has.relation} expansion (alias ${has.alias}): the records shown there are the ones that qualified.`,
        }),
      ]
    : relationMeta === undefined
      ? []
      : conditionSections(has.scope, relationMeta, ctx);
  return h(
    'fieldset',
    { class: 'expansion', id: `${has.id}-box` },
    h('legend', { text: `Records that ${has.negated ? 'have no' : 'have a'} ${has.relation} record (alias ${has.alias})` }),
    h(
      'div',
      { class: 'row', id: has.id },
      labelled('Keep records that', which),
      labelled('Related', relation),
      h('p', { class: 'help grow', text: 'One related record must satisfy all the conditions below; none: any related record.' }),
      h('div', { class: 'control end' }, remove),
    ),
    ...conditions,
  );
}

/** The Has section; absent when the collection declares no expandable relation. */
export function hasSection(state: FormState, meta: CollectionMeta, ctx: FormContext): HTMLElement | null {
  const first = meta.relations[0];
  if (first === undefined) return null;
  const add = button(
    'Add has',
    () => {
      const has: HasState = {
        id: newId('has'),
        relation: first.name,
        negated: false,
        alias: autoAlias(first.name, takenAliases(state)),
        scope: emptyScope(),
      };
      state.has.push(has);
      ctx.rebuild(`${has.id}-relation`);
    },
    { id: 'add-has', class: 'add' },
  );
  return sectionBox(
    'has',
    'Has related',
    'Keep records that have (or have no) related record matching conditions.',
    state.has.map((has) => hasBox(state, has, meta, ctx)),
    add,
  );
}
