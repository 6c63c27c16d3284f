// Facets and stats in their JSON form (docs/query-language.md, Facets and stats), read from the rows
// of their one statement (`i`, the item; `t`, a value's text form; `n`, its count; `min`, `max`,
// `avg`, `sum`, a stats' text forms), and added to an envelope after its own keys.

import type { Column, ColumnType } from '../schema';
import type { JsonValue } from './values';

/** What reading an item needs: its kind, its field (named in the envelope), and a facet's bucket. */
export interface SummaryItemShape {
  readonly kind: 'facet' | 'stats';
  readonly name: string;
  readonly column: Column;
  readonly bucket?: { readonly kind: 'value' | 'date' | 'width' };
}

export interface FacetValue {
  value: JsonValue;
  count: number;
}

export interface StatsValue {
  min: JsonValue;
  max: JsonValue;
  avg?: JsonValue;
  sum?: JsonValue;
}

export interface Summary {
  facets?: Record<string, FacetValue[]>;
  stats?: Record<string, StatsValue>;
}

type Row = Readonly<Record<string, unknown>>;

/** `'9007199254740993'` stays text; `'42'` becomes 42. */
function wholeNumber(text: string): JsonValue {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
}

/** A cell the statement sends as text (a count may come as a number on some drivers). */
function cellText(cell: unknown): string | null {
  if (cell === null || cell === undefined) return null;
  return typeof cell === 'string' ? cell : JSON.stringify(cell);
}

/** A value's text form (as the select list writes it) as the field shows it: numbers as numbers, numeric as text. */
export function textValue(type: ColumnType, text: unknown): JsonValue {
  const s = cellText(text);
  if (s === null) return null;
  switch (type) {
    case 'smallint':
    case 'integer':
    case 'float':
      return Number(s);
    case 'bigint':
      return wholeNumber(s);
    case 'boolean':
      return s === 'true';
    default:
      return s;
  }
}

const typeOf = (column: Column): ColumnType => (column.type === 'array' ? (column.elementType ?? 'other') : column.type);

/** A facet value: a date bucket is its first day (`YYYY-MM-DD`), a width's bucket its lower bound. */
function facetValue(item: SummaryItemShape, text: unknown): JsonValue {
  if (item.bucket?.kind === 'date') return cellText(text);
  return textValue(typeOf(item.column), text);
}

/** `avg` of a whole-number field is a number, not a whole one; numeric fields keep their text form. */
function average(type: ColumnType, text: unknown): JsonValue {
  const s = cellText(text);
  if (s === null) return null;
  return type === 'numeric' ? s : Number(s);
}

function statsValue(item: SummaryItemShape, row: Row | undefined): StatsValue {
  const type = item.column.type;
  const base = { min: textValue(type, row?.min ?? null), max: textValue(type, row?.max ?? null) };
  if (type === 'date' || type === 'timestamp' || type === 'timestamptz') return base;
  return {
    ...base,
    avg: average(type, row?.avg ?? null),
    sum: textValue(type === 'float' ? 'float' : type === 'numeric' ? 'numeric' : 'bigint', row?.sum ?? null),
  };
}

/** The statement's rows, in any order (each item's by its rank `r`) -> `{facets: {status: [{value, count}]}, stats: {score: {min, max, avg, sum}}}`. */
export function readSummary(rows: readonly Row[], items: readonly SummaryItemShape[]): Summary {
  const byItem = new Map<number, Row[]>();
  for (const row of rows) {
    const i = Number(row.i);
    byItem.set(i, [...(byItem.get(i) ?? []), row]);
  }
  const summary: Summary = {};
  items.forEach((item, i) => {
    const found = (byItem.get(i) ?? []).sort((a, b) => Number(a.r) - Number(b.r));
    if (item.kind === 'facet') {
      summary.facets ??= {};
      summary.facets[item.name] = found.map((row) => ({ value: facetValue(item, row.t), count: Number(row.n) }));
    } else {
      summary.stats ??= {};
      summary.stats[item.name] = statsValue(item, found[0]);
    }
  });
  return summary;
}

/** The envelope with `facets` and `stats` after its own keys. */
export function withSummary<E extends object>(envelope: E, summary: Summary | undefined): E & Summary {
  if (summary === undefined) return envelope;
  return { ...envelope, ...summary };
}
