// Owns the expansion builder: one box per expanded relation, with its alias (named automatically,
// e.g. `p` for posts), the relation's own filter, search, fields and sort builders, a per-record
// window for lists, and the expansions of its records nested inside it, as deep as the API allows.
import { button, choices, h, input, labelled, select } from '../dom';
import type { CollectionMeta, RelationMeta } from '../meta';
import { allExpands, autoAlias, emptyScope, newExpand, takenAliases, type ExpandState, type FormState } from '../state';
import type { FormContext } from './context';
import { scopeSections } from './scope-form';
import { sectionBox } from './section';

/** Where a box sits: its siblings, the relations they may name, its depth (a root expand is 1). */
interface Level {
  readonly list: ExpandState[];
  readonly relations: readonly RelationMeta[];
  readonly depth: number;
}

/** `p_limit` and `p_offset`: each record's related records from the offset, at most the limit. */
function windowRow(expand: ExpandState, ctx: FormContext): HTMLElement {
  const count = (id: string, value: string, set: (value: string) => void) =>
    input(
      id,
      value,
      (v) => {
        set(v);
        ctx.changed();
      },
      { type: 'number', min: '0', step: '1', size: '5' },
    );
  return h(
    'div',
    { class: 'row', id: `${expand.id}-window` },
    labelled(
      'Limit per record',
      count(`${expand.id}-limit`, expand.limit, (v) => {
        expand.limit = v;
      }),
    ),
    labelled(
      'Offset per record',
      count(`${expand.id}-offset`, expand.offset, (v) => {
        expand.offset = v;
      }),
    ),
    h('p', {
      class: 'help grow',
      text: `The first related records of each record, in this expansion's sort order (${expand.alias}_limit, ${expand.alias}_offset).`,
    }),
  );
}

/** The nested expansions of `expand`'s records, with their own add button. */
function nestedSection(
  state: FormState,
  expand: ExpandState,
  relation: RelationMeta,
  level: Level,
  meta: CollectionMeta,
  ctx: FormContext,
): HTMLElement | null {
  if (relation.relations.length === 0 || level.depth >= meta.maxExpandDepth) return null;
  const inner: Level = { list: expand.expands, relations: relation.relations, depth: level.depth + 1 };
  return expandList(state, inner, meta, ctx, `${expand.id}-expand`, `Expand inside ${expand.relation}`);
}

function expansionBox(state: FormState, expand: ExpandState, level: Level, meta: CollectionMeta, ctx: FormContext): HTMLElement {
  const others = level.list.filter((e) => e !== expand);
  const free = level.relations.map((r) => r.name).filter((name) => name === expand.relation || !others.some((e) => e.relation === name));
  const relation = select(`${expand.id}-relation`, choices(free), expand.relation, (value) => {
    // A has or count row that shared this expansion's alias keeps its conditions as its own.
    for (const row of [...state.has, ...state.counts]) if (row.scope === expand.scope) row.scope = { ...expand.scope };
    const fresh = { ...newExpand(value, autoAlias(value, takenAliases(state, expand))), id: expand.id, scope: emptyScope(expand.scope.id) };
    level.list[level.list.indexOf(expand)] = fresh;
    ctx.rebuild(`${expand.id}-relation`);
  });
  const legendText = (): string => `Expand ${expand.relation} (alias ${expand.alias})`;
  const legend = h('legend', { text: legendText() });
  const alias = input(
    `${expand.id}-alias`,
    expand.alias,
    (value) => {
      expand.alias = value;
      legend.textContent = legendText();
      ctx.changed();
    },
    { size: '6', pattern: '[A-Za-z][A-Za-z0-9]*' },
  );
  const remove = button(
    'Remove expansion',
    () => {
      for (const row of [...state.has, ...state.counts]) if (row.scope === expand.scope) row.scope = { ...expand.scope };
      level.list.splice(level.list.indexOf(expand), 1);
      ctx.rebuild('add-expand');
    },
    { class: 'secondary' },
  );
  const relationMeta = level.relations.find((r) => r.name === expand.relation);
  const cardinality = relationMeta === undefined ? '' : relationMeta.cardinality === 'many' ? 'a list of records' : 'one record or null';
  const nested = relationMeta === undefined ? null : nestedSection(state, expand, relationMeta, level, meta, ctx);
  return h(
    'fieldset',
    { class: 'expansion', id: `${expand.id}-box` },
    legend,
    h(
      'div',
      { class: 'row', id: expand.id },
      labelled('Relation', relation),
      labelled('Alias', alias),
      h('p', { class: 'help grow', text: cardinality === '' ? '' : `Each record gets "${expand.relation}": ${cardinality}.` }),
      h('div', { class: 'control end' }, remove),
    ),
    ...(relationMeta?.cardinality === 'many' ? [windowRow(expand, ctx)] : []),
    ...(relationMeta === undefined ? [] : scopeSections(expand.scope, relationMeta, ctx)),
    ...(nested === null ? [] : [nested]),
  );
}

/** One level's boxes and its add button (`add-expand` at the root, `<expand id>-add-expand` inside one). */
function expandList(state: FormState, level: Level, meta: CollectionMeta, ctx: FormContext, id: string, title: string): HTMLElement {
  const unused = level.relations.filter((r) => !level.list.some((e) => e.relation === r.name));
  const addId = level.depth === 1 ? 'add-expand' : `${id.replace(/-expand$/, '')}-add-expand`;
  const add = button(
    level.depth === 1 ? 'Add expansion' : 'Add nested expansion',
    () => {
      const first = unused[0];
      if (first === undefined) return;
      const expand = newExpand(first.name, autoAlias(first.name, takenAliases(state)));
      level.list.push(expand);
      ctx.rebuild(`${expand.id}-relation`);
    },
    { id: addId, class: 'add' },
  );
  add.disabled = unused.length === 0 || allExpands(state.expands).length >= meta.maxExpansions;
  return sectionBox(
    id,
    title,
    `Include related records (${level.relations.map((r) => r.name).join(', ')}).`,
    level.list.map((expand) => expansionBox(state, expand, level, meta, ctx)),
    add,
  );
}

/** The Expand section; absent when the collection declares no expandable relation. */
export function expandSection(state: FormState, meta: CollectionMeta, ctx: FormContext): HTMLElement | null {
  if (meta.relations.length === 0) return null;
  return expandList(state, { list: state.expands, relations: meta.relations, depth: 1 }, meta, ctx, 'expand', 'Expand');
}
