// Owns the editor's conditions: one row per condition ("Role is editor", "Name starts with A",
// "Created at is on or after 1 Apr 2025"), each with a value control of its field's kind: a list of
// the real values, Yes/No, a date picker, a number, or text. A row without its value yet is shown
// as such and left out of the request.
import { button, h, input, labelled, select, type Choice } from '../dom';
import { fieldType, type CollectionMeta } from '../meta';
import type { FormContext } from '../form/context';
import { asInput } from '../form/value-hints';
import type { ScopeState } from '../state';
import {
  conditionFields,
  dateTypes,
  editorRows,
  kindWords,
  kindsFor,
  numberTypes,
  readRow,
  rowComplete,
  rowField,
  writeRow,
  writeValues,
  type ConditionKind,
  type EditorRow,
} from './conditions';
import { fieldLabel } from './labels';
import type { ValuePicks } from './picks';

export interface EditorContext extends FormContext {
  readonly picks: ValuePicks;
}

/** `2025-04-27T20:06:09Z` -> `2025-04-27`: what a date picker holds. */
const dayOf = (value: string): string => value.slice(0, 10);

function valueControl(
  id: string,
  meta: CollectionMeta,
  field: string,
  kind: ConditionKind,
  value: string,
  set: (v: string) => void,
  ctx: EditorContext,
): HTMLElement[] {
  const type = fieldType(meta, field);
  const label = 'Value';
  if (kind === 'isEmpty' || kind === 'isNotEmpty') return [];
  if (type === 'boolean') {
    return [
      labelled(
        label,
        select(
          id,
          [
            { value: '', label: 'Choose…' },
            { value: 'true', label: 'Yes' },
            { value: 'false', label: 'No' },
          ],
          value,
          set,
        ),
      ),
    ];
  }
  if (dateTypes.has(type)) return [labelled(kind === 'between' ? 'From' : 'Date', input(id, dayOf(value), set, { type: 'date' }))];
  if (numberTypes.has(type)) return [labelled(label, input(id, value, set, { type: 'number', inputmode: 'decimal' }))];
  const enumLabels = meta.fields.find((f) => f.name === field)?.labels;
  const known = ctx.picks.known(field);
  if ((kind === 'is' || kind === 'isNot') && (enumLabels !== undefined || ctx.picks.complete(field))) {
    // A closed list of the real values: an exact match cannot miss by a capital letter.
    const options: Choice[] =
      enumLabels?.map((v) => ({ value: v, label: v })) ??
      (known ?? []).filter((v) => v.value !== null).map((v) => ({ value: asInput(v.value), label: `${asInput(v.value)} (${v.count})` }));
    return [labelled(label, select(id, [{ value: '', label: 'Choose…' }, ...options], value, set))];
  }
  const listId = `${id}-values`;
  const suggestions =
    known === undefined || known.length === 0
      ? []
      : [
          h(
            'datalist',
            { id: listId },
            ...known.filter((v) => v.value !== null).map((v) => h('option', { attrs: { value: asInput(v.value) } })),
          ),
        ];
  const help =
    kind === 'is' || kind === 'isNot'
      ? 'Exact text, capitals included: pick a suggestion, or use “contains”, which ignores capitals.'
      : 'Capitals do not matter.';
  const box = input(id, value, set, { ...(suggestions.length > 0 ? { list: listId } : {}), 'aria-describedby': `${id}-help` });
  return [labelled(label, box, 'grow'), ...suggestions, h('p', { class: 'help row-help', id: `${id}-help`, text: help })];
}

function conditionRow(scope: ScopeState, row: EditorRow, index: number, meta: CollectionMeta, ctx: EditorContext): HTMLElement {
  const field = rowField(row);
  const type = fieldType(meta, field);
  const { kind, value, max } = readRow(row, type);
  const id = `ed-${row.row.id}`;
  const name = `Condition ${index + 1}`;
  let now = { value, max };
  // A new field or kind of condition rewrites the row (and redraws); values are written in place, so the caret stays.
  const rewrite = (next: { field?: string; kind?: ConditionKind }, focus: string) => {
    const nextField = next.field ?? field;
    const nextType = fieldType(meta, nextField);
    const offered = kindsFor(
      nextType,
      meta.searchable.includes(nextField),
      meta.fields.find((f) => f.name === nextField)?.nullable ?? true,
    );
    const nextKind =
      next.kind !== undefined && offered.includes(next.kind) ? next.kind : next.field === undefined ? kind : (offered[0] ?? 'is');
    const keep = next.field === undefined && nextType === type;
    writeRow(scope, row, nextField, nextKind, keep ? now.value : '', keep ? now.max : '');
    ctx.rebuild(focus);
  };
  const kinds = kindsFor(type, meta.searchable.includes(field), meta.fields.find((f) => f.name === field)?.nullable ?? true);
  const fieldSelect = select(
    `${id}-field`,
    conditionFields(meta).map((f) => ({ value: f, label: fieldLabel(meta, f) })),
    field,
    (v) => rewrite({ field: v }, `${id}-field`),
  );
  const kindSelect = select(
    `${id}-kind`,
    kinds.map((k) => ({ value: k, label: kindWords[k] })),
    kind,
    (v) => rewrite({ kind: v as ConditionKind }, `${id}-kind`),
  );
  // Typing changes the state row in place (no redraw, so the caret stays); a new kind of row is redrawn.
  const waiting = h('p', { class: 'help pending', text: 'Not applied until it has a value.' });
  waiting.hidden = rowComplete(kind, value, max);
  const update = (next: { value?: string; max?: string }) => {
    now = { ...now, ...next };
    waiting.hidden = rowComplete(kind, now.value, now.max);
    writeValues(row, kind, now.value, now.max);
    ctx.changed();
  };
  const setValue = (v: string) => update(kind === 'on' ? { value: v, max: v } : { value: v });
  const values = valueControl(`${id}-value`, meta, field, kind, value, setValue, ctx);
  const upper =
    kind === 'between'
      ? [
          labelled(
            'To',
            input(`${id}-max`, dayOf(max), (v) => update({ max: v }), { type: 'date' }),
          ),
        ]
      : [];
  const remove = button(
    'Remove',
    () => {
      const list: { id: string }[] = row.kind === 'search' ? scope.search : scope[row.kind];
      list.splice(list.indexOf(row.row), 1);
      ctx.rebuild('ed-add-condition');
    },
    { class: 'secondary', label: `Remove condition ${index + 1}` },
  );
  return h(
    'div',
    { class: 'row condition', id, attrs: { role: 'group', 'aria-label': name } },
    labelled('Field', fieldSelect),
    labelled('Condition', kindSelect),
    ...values,
    ...upper,
    h('div', { class: 'control end' }, remove),
    waiting,
  );
}

/** "Show only records where": the editor's conditions and the button that adds one. */
export function conditionsSection(scope: ScopeState, meta: CollectionMeta, ctx: EditorContext): HTMLElement | null {
  const fields = conditionFields(meta);
  const first = fields[0];
  if (first === undefined) return null;
  const { rows, others } = editorRows(scope, meta);
  const add = button(
    'Add a condition',
    () => {
      const type = fieldType(meta, first);
      const kind = kindsFor(type, meta.searchable.includes(first), true)[0] ?? 'is';
      const row = writeRow(scope, undefined, first, kind, '', '');
      ctx.rebuild(`ed-${row.row.id}-field`);
    },
    { id: 'ed-add-condition', class: 'add' },
  );
  const note =
    others === 0
      ? null
      : h('p', { class: 'help', text: `${others} more condition${others === 1 ? ' is' : 's are'} set in the developer view.` });
  return h(
    'fieldset',
    { class: 'section', id: 'ed-conditions' },
    h('legend', { text: 'Show only records where' }),
    ...rows.map((row, index) => conditionRow(scope, row, index, meta, ctx)),
    note,
    add,
  );
}
