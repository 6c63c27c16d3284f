// Owns the suggestions a filter row's value boxes show from the data: for a field of the record
// itself, its most frequent values with their counts in the box's list, and for a range its min and
// max beside the bounds. Filled when the API answers; the boxes take any text meanwhile.
import { h } from '../dom';
import type { CollectionMeta, ScopeMeta } from '../meta';
import type { FormContext } from './context';
import { asInput } from './value-hints';

const isCollection = (meta: ScopeMeta): meta is CollectionMeta => 'facetable' in meta;

/** A datalist of `field`'s top values (`active (120)`), or none when the field cannot be counted. */
export function valueList(listId: string, field: string, meta: ScopeMeta, ctx: FormContext): HTMLDataListElement | undefined {
  if (ctx.hints === undefined || !isCollection(meta) || !meta.facetable.includes(field)) return undefined;
  const list = h('datalist', { id: listId });
  void ctx.hints.values(field).then((values) => {
    list.replaceChildren(
      ...(values ?? []).map((v) => h('option', { attrs: { value: asInput(v.value), label: `${asInput(v.value)} (${v.count})` } })),
    );
  });
  return list;
}

/** `Range: 0.00 … 99.99` for a number, date or timestamp, or none. */
export function rangeNote(id: string, field: string, meta: ScopeMeta, ctx: FormContext): HTMLElement | undefined {
  if (ctx.hints === undefined || !isCollection(meta) || !meta.statsable.includes(field)) return undefined;
  const note = h('p', { id, class: 'help', attrs: { 'aria-live': 'polite' } });
  void ctx.hints.range(field).then((range) => {
    if (range === undefined || range.min === null) return;
    note.textContent = `Range: ${asInput(range.min)} … ${asInput(range.max)}`;
  });
  return note;
}
