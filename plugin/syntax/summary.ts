// Reads `facet[<field>]`, `stats[<field>]` and `facet_limit` (docs/query-language.md, Facets and
// stats): the field as written, a facet's bucket checked for its shape only (which type it fits is
// the validate stage's question).

import { malformed, type Collector } from './collector';
import { parseCount } from './parse-value';
import type { FacetBucket } from './types';
import { dateBuckets, type DateBucket } from './vocabulary';

const widthShape = /^\d+(?:\.\d+)?$/;

const isDateBucket = (text: string): text is DateBucket => (dateBuckets as readonly string[]).includes(text);

/** `''` -> each value; `month` -> a date bucket; `100` -> a number's width. */
function readBucket(value: string): FacetBucket | undefined {
  if (value === '') return { kind: 'value' };
  if (isDateBucket(value)) return { kind: 'date', unit: value };
  if (widthShape.test(value) && Number(value) > 0 && Number.isFinite(Number(value))) return { kind: 'width', width: value };
  return undefined;
}

/** `facet[created_at]=month`. */
export function addFacet(c: Collector, key: string, field: string, value: string): void {
  const bucket = readBucket(value);
  if (bucket === undefined) {
    return malformed(
      c,
      key,
      `has an unknown bucket "${value.slice(0, 40)}": leave it empty, or give day, week, month, year or a positive width`,
      [...dateBuckets],
    );
  }
  c.facets.push({ kind: 'facet', parameter: key, field, bucket });
}

/** `stats[score]`: takes no value. */
export function addStats(c: Collector, key: string, field: string, value: string): void {
  if (value !== '') return malformed(c, key, 'takes no value: write `' + key + '`');
  c.stats.push({ kind: 'stats', parameter: key, field });
}

/** `facet_limit=20`: how many values each facet lists, from 1 up to the largest (checked by the validate stage). */
export function addFacetLimit(c: Collector, value: string): void {
  const count = parseCount(value);
  if (!count.ok) return malformed(c, 'facet_limit', count.detail);
  if (count.value < 1) return malformed(c, 'facet_limit', 'must be at least 1');
  c.facetLimit = count.value;
}
