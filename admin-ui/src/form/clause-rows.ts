// Owns the filter, in and between builders: one row per clause (logical word, field, operator or
// list or bounds), in the order the clauses will be evaluated.
import { button, choices, h, input, labelled, select } from '../dom';
import { fieldLabels, fieldType, type ScopeMeta } from '../meta';
import { dotPaths, readPath, relationsOf } from '../query/paths';
import { newClause, type ClauseFamily, type ClauseRow, type ScopeState } from '../state';
import type { FormContext } from './context';
import { logicalChoices, operatorChoices, valuePlaceholder } from './hints';
import { sectionBox } from './section';
import { rangeNote, valueList } from './value-picks';

const titles: Readonly<Record<ClauseFamily, { legend: string; add: string; help: string }>> = {
  filter: { legend: 'Filter', add: 'Add filter', help: 'Compare a field with a value.' },
  in: { legend: 'In list', add: 'Add in-list', help: 'The field is one of several values.' },
  between: {
    legend: 'Between',
    add: 'Add between',
    help: 'The field lies between two bounds, both included; a date alone means the whole day.',
  },
};

/** An enum's labels offered as suggestions while typing a value (any text, `null` too, can still be typed). */
function labelList(id: string, labels: readonly string[]): HTMLElement[] {
  if (labels.length === 0) return [];
  return [h('datalist', { id }, ...labels.map((label) => h('option', { attrs: { value: label } })))];
}

function valueControls(family: ClauseFamily, row: ClauseRow, meta: ScopeMeta, ctx: FormContext): HTMLElement[] {
  const { scope, field } = readPath(meta, row.field);
  const placeholder = valuePlaceholder(ctx.counted.includes(row.field) ? 'integer' : fieldType(scope, field));
  const labels = fieldLabels(scope, field);
  const listId = `${row.id}-labels`;
  // The record's own fields suggest their most frequent values (with counts) when no labels do.
  const counted = labels.length === 0 ? valueList(listId, row.field, meta, ctx) : undefined;
  const picks = counted === undefined ? labelList(listId, labels) : [counted];
  const attrs = picks.length === 0 ? { placeholder } : { placeholder, list: listId };
  const set = (part: 'value' | 'max') => (value: string) => {
    row[part] = value;
    ctx.changed();
  };
  switch (family) {
    case 'filter':
      return [
        labelled(
          'Operator',
          select(`${row.id}-operator`, operatorChoices(ctx.operators), row.operator, (v) => {
            row.operator = v;
            ctx.changed();
          }),
        ),
        labelled('Value', input(`${row.id}-value`, row.value, set('value'), attrs), 'grow'),
        ...picks,
      ];
    case 'in':
      return [
        labelled(
          'Values (comma-separated)',
          input(`${row.id}-value`, row.value, set('value'), { placeholder: 'a,b,"with, comma"' }),
          'grow',
        ),
      ];
    case 'between': {
      const range = rangeNote(`${row.id}-range`, row.field, meta, ctx);
      return [
        labelled('From', input(`${row.id}-value`, row.value, set('value'), attrs), 'grow'),
        labelled('To', input(`${row.id}-max`, row.max, set('max'), attrs), 'grow'),
        ...picks,
        ...(range === undefined ? [] : [range]),
      ];
    }
  }
}

/**
 * At the root, where the field comes from: the record itself or a relation whose records it tests
 * (at least one related record satisfies the clause; negated, none does). Absent where no relation
 * offers a field.
 */
function sourceControl(row: ClauseRow, meta: ScopeMeta, ctx: FormContext): HTMLElement[] {
  const relations = relationsOf(meta).filter((r) => r.filterable.length > 0);
  if (relations.length === 0) return [];
  const current = readPath(meta, row.field).relation?.name ?? '';
  const sources = [{ value: '', label: 'this record' }, ...relations.map((r) => ({ value: r.name, label: `a related ${r.name} record` }))];
  return [
    labelled(
      'Of',
      select(`${row.id}-source`, sources, current, (v) => {
        const relation = relations.find((r) => r.name === v);
        row.field = relation === undefined ? (meta.filterable[0] ?? '') : `${relation.name}.${relation.filterable[0] ?? ''}`;
        ctx.rebuild(`${row.id}-source`);
      }),
    ),
  ];
}

function clauseRow(family: ClauseFamily, rows: ClauseRow[], row: ClauseRow, meta: ScopeMeta, ctx: FormContext, addId: string): HTMLElement {
  const index = rows.indexOf(row);
  const name = `${titles[family].legend} ${index + 1}`;
  const logical = select(`${row.id}-logical`, logicalChoices(index === 0), row.logical, (v) => {
    row.logical = v;
    ctx.changed();
  });
  const target = readPath(meta, row.field);
  const prefix = target.relation === undefined ? '' : `${target.relation.name}.`;
  // The request's counts (`posts_count`) are integer fields of the record itself.
  const offered =
    target.relation === undefined && 'relations' in meta ? [...target.scope.filterable, ...ctx.counted] : target.scope.filterable;
  const field = select(
    `${row.id}-field`,
    choices(offered).map((c) => ({ value: `${prefix}${c.value}`, label: c.label })),
    row.field,
    (v) => {
      row.field = v;
      // The placeholder depends on the field's type.
      ctx.rebuild(`${row.id}-field`);
    },
  );
  const remove = button(
    '×',
    () => {
      rows.splice(index, 1);
      // The new first row's and/or is ignored by the API; only its negation still counts.
      const first = rows[0];
      if (index === 0 && first !== undefined) first.logical = first.logical.endsWith('!') ? 'and!' : 'and';
      ctx.rebuild(rows[index]?.id !== undefined ? `${rows[index].id}-logical` : addId);
    },
    { class: 'icon', label: `Remove ${name.toLowerCase()}` },
  );
  return h(
    'div',
    { class: 'row', id: row.id, attrs: { role: 'group', 'aria-label': name } },
    labelled(index === 0 ? 'Match' : 'Join', logical),
    ...sourceControl(row, meta, ctx),
    labelled('Field', field),
    ...valueControls(family, row, meta, ctx),
    h('div', { class: 'control end' }, remove),
  );
}

/** The builder for one family; empty when the scope has no filterable field. */
export function clauseSection(family: ClauseFamily, scope: ScopeState, meta: ScopeMeta, ctx: FormContext): HTMLElement | null {
  const first = meta.filterable[0] ?? dotPaths(meta, 'filterable')[0];
  if (first === undefined) return null;
  const rows = scope[family];
  const { legend, add, help } = titles[family];
  const addId = `${scope.id}-add-${family}`;
  const addButton = button(
    add,
    () => {
      const row = newClause(first);
      rows.push(row);
      ctx.rebuild(`${row.id}-field`);
    },
    { id: addId, class: 'add' },
  );
  return sectionBox(
    `${scope.id}-${family}`,
    legend,
    help,
    rows.map((row) => clauseRow(family, rows, row, meta, ctx, addId)),
    addButton,
  );
}
