// Owns the values an editor picks from: a field's real values and their counts (`facet[...]`),
// asked of the API once per collection and field and kept, so a row can be drawn at once with a
// list of values when they are known, and drawn again when they arrive.
import type { CollectionMeta } from '../meta';
import type { FacetValue, ValueHints } from '../form/value-hints';

/** How many values a list offers; a field with more is typed, with the values as suggestions. */
export const pickLimit = 20;

export interface ValuePicks {
  /** The field's values once known (fewer than pickLimit: the whole set); undefined while asking or when it cannot be counted. */
  known(field: string): readonly FacetValue[] | undefined;
  /** Whether the field's values are a closed, short list (every value is in `known`). */
  complete(field: string): boolean;
}

/** `loaded` is called once per field whose values arrive after it was first asked for. */
export function valuePicks(meta: CollectionMeta, hints: ValueHints | undefined, loaded: () => void): ValuePicks {
  const values = new Map<string, readonly FacetValue[] | null>();
  const ask = (field: string): void => {
    if (values.has(field) || hints === undefined || !meta.facetable.includes(field)) return;
    values.set(field, null);
    void hints.values(field).then((found) => {
      values.set(field, found ?? []);
      loaded();
    });
  };
  return {
    known: (field) => {
      ask(field);
      return values.get(field) ?? undefined;
    },
    complete: (field) => {
      const found = values.get(field);
      return found !== undefined && found !== null && found.length > 0 && found.length < pickLimit;
    },
  };
}
