// Owns what a filter row suggests from the data itself: a field's most frequent values with their
// counts (`facet[...]`) and its range (`stats[...]`), asked of the API once per collection and field
// and kept while the page stays on that collection.
import { apiGet } from '../api';
import { encodePart } from '../query/encode';

export interface FacetValue {
  readonly value: unknown;
  readonly count: number;
}

export interface Range {
  readonly min: unknown;
  readonly max: unknown;
}

export interface ValueHints {
  /** The field's most frequent values, or undefined when the API cannot tell. */
  values(field: string): Promise<readonly FacetValue[] | undefined>;
  range(field: string): Promise<Range | undefined>;
}

/** How many values a picker lists. */
const shown = 20;

/** `path()` is the collection's URL path (`/api/users`); answers are kept per path and field. */
export function valueHints(path: () => string, token: () => string): ValueHints {
  const kept = new Map<string, Promise<unknown>>();
  const ask = (key: string, query: string, read: (body: Record<string, unknown>) => unknown): Promise<unknown> => {
    const url = `${path()}?${query}&per-page=1&total=none`;
    const cacheKey = `${path()}\n${key}`;
    let found = kept.get(cacheKey);
    if (found === undefined) {
      found = apiGet(url, token())
        .then((res) =>
          res.ok && typeof res.body === 'object' && res.body !== null ? read(res.body as Record<string, unknown>) : undefined,
        )
        .catch(() => undefined);
      kept.set(cacheKey, found);
    }
    return found;
  };
  return {
    values: async (field) => {
      const facet = `facet[${encodePart(field)}]`;
      const found = await ask(`facet ${field}`, `${facet}&facet_limit=${shown}`, (body) => (body.facets as Record<string, unknown>)[field]);
      return Array.isArray(found) ? (found as FacetValue[]) : undefined;
    },
    range: async (field) => {
      const found = await ask(`stats ${field}`, `stats[${encodePart(field)}]`, (body) => (body.stats as Record<string, unknown>)[field]);
      return typeof found === 'object' && found !== null ? (found as Range) : undefined;
    },
  };
}

/** `"active"` -> `active`, `null` -> `null`: a value as the filter's value box takes it. */
export function asInput(value: unknown): string {
  if (value === null) return 'null';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
