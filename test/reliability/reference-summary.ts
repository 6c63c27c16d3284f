// The reference's facets and stats (docs/query-language.md, Facets and stats), computed in memory
// from the stored text forms: each over the records matching the request without the filter, in and
// between clauses on its own field; values (each array element, NULL as one) counted, most frequent
// first with ties by value, or in bucket order (UTC day, Monday week, month, year; a width's lower
// bound); stats as min, max, and for numbers sum and avg. Shares no code with plugin/.

import type { FieldSpec, ScalarType, StoredRow } from './model';
import type { BucketSpec, QuerySpec, SummarySpec } from './query';
import { compareDecimal, compareValues, outputValue, parseArray, parseInstant, type JsonValue } from './values';

export interface ExpectedFacetValue {
  readonly value: JsonValue;
  readonly count: number;
}

export interface ExpectedStats {
  readonly min: JsonValue;
  readonly max: JsonValue;
  /** The exact mean as a number (compared within rounding); the API sends a number, or text for numeric. */
  readonly avg?: number | null;
  readonly sum?: JsonValue;
}

export interface ExpectedSummary {
  readonly facets?: Record<string, ExpectedFacetValue[]>;
  readonly stats?: Record<string, ExpectedStats>;
}

/** The rows a facet or stats of `field` reads: `rowsWithout(field)` matches every condition but that field's clauses. */
export type RowsWithout = (field: string) => readonly StoredRow[];

const elementType = (field: FieldSpec): ScalarType | 'enum' => (field.type === 'array' ? (field.element ?? 'text') : field.type);

/** Each value a row gives a facet: an array's elements (a NULL array as one NULL), else its value. */
function valuesOf(field: FieldSpec, text: string | null): (string | null)[] {
  if (field.type !== 'array') return [text];
  return text === null ? [null] : parseArray(text);
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** The first day of a date bucket of a date (`YYYY-MM-DD`) or a timestamp, in UTC. */
function dateBucket(type: ScalarType | 'enum', text: string, unit: 'day' | 'week' | 'month' | 'year'): string {
  const micros = type === 'date' ? parseInstant(`${text}T00:00:00Z`) : parseInstant(text);
  if (micros === undefined) throw new Error(`reference: not a date: ${text}`);
  const ms = (micros - (((micros % 1000n) + 1000n) % 1000n)) / 1000n;
  const day = new Date(Number(ms));
  let [y, m, d] = [day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()];
  if (unit === 'year') [m, d] = [0, 1];
  if (unit === 'month') d = 1;
  if (unit === 'week') {
    const monday = new Date(Date.UTC(y, m, d - ((day.getUTCDay() + 6) % 7)));
    [y, m, d] = [monday.getUTCFullYear(), monday.getUTCMonth(), monday.getUTCDate()];
  }
  return `${pad(y, 4)}-${pad(m + 1)}-${pad(d)}`;
}

const scaleOf = (t: string): number => t.split('.')[1]?.length ?? 0;

/** `-12.5` at scale 2 -> -1250n. */
function scaled(t: string, s: number): bigint {
  const [int = '0', frac = ''] = t.split('.');
  const digits = BigInt(`${int.replace('-', '')}${frac.padEnd(s, '0')}`);
  return int.startsWith('-') ? -digits : digits;
}

/** -1250n at scale 2 -> `-12.50`. */
function decimalText(n: bigint, s: number): string {
  const negative = n < 0n;
  const digits = (negative ? -n : n).toString().padStart(s + 1, '0');
  return `${negative ? '-' : ''}${s === 0 ? digits : `${digits.slice(0, -s)}.${digits.slice(-s)}`}`;
}

/** `floor(v / w) * w` exactly, as the decimal text PostgreSQL's trim_scale writes. */
function widthBucket(type: ScalarType | 'enum', text: string, width: string): string {
  const s = Math.max(scaleOf(text), scaleOf(width));
  const v = scaled(text, s);
  const w = scaled(width, s);
  const q = v / w - (v % w !== 0n && v < 0n ? 1n : 0n);
  const bound = decimalText(q * w, s);
  if (type !== 'numeric' || s === 0) return bound.replace(/\.0+$/, '');
  const trimmed = bound.replace(/0+$/, '').replace(/\.$/, '');
  return trimmed === '-0' ? '0' : trimmed;
}

function compareBucket(type: ScalarType | 'enum', bucket: BucketSpec, field: FieldSpec, a: string, b: string): number {
  if (typeof bucket === 'object') return type === 'numeric' ? compareDecimal(a, b) : compareValues('bigint', a, b);
  if (bucket !== '') return a < b ? -1 : a > b ? 1 : 0;
  if (type === 'enum') return Math.sign((field.labels ?? []).indexOf(a) - (field.labels ?? []).indexOf(b));
  return compareValues(type, a, b);
}

function facet(field: FieldSpec, bucket: BucketSpec, rows: readonly StoredRow[], limit: number): ExpectedFacetValue[] {
  const type = elementType(field);
  const counts = new Map<string | null, number>();
  for (const row of rows) {
    for (const value of valuesOf(field, row[field.name] ?? null)) {
      const key =
        value === null || bucket === ''
          ? value
          : typeof bucket === 'object'
            ? widthBucket(type, value, bucket.width)
            : dateBucket(type, value, bucket);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const byValue = (a: string | null, b: string | null): number =>
    a === null ? (b === null ? 0 : 1) : b === null ? -1 : compareBucket(type, bucket, field, a, b);
  const entries = [...counts].sort(([a, n], [b, m]) => (bucket === '' ? m - n || byValue(a, b) : byValue(a, b)));
  return entries.slice(0, limit).map(([value, count]) => ({ value: shown(type, bucket, value), count }));
}

function shown(type: ScalarType | 'enum', bucket: BucketSpec, value: string | null): JsonValue {
  if (value === null) return null;
  if (type === 'enum' || (bucket !== '' && typeof bucket === 'string')) return value;
  return outputValue(type, value);
}

function stats(field: FieldSpec, rows: readonly StoredRow[]): ExpectedStats {
  const type = elementType(field) as ScalarType;
  const values = rows.map((r) => r[field.name] ?? null).filter((v): v is string => v !== null);
  const sorted = [...values].sort((a, b) => compareValues(type, a, b));
  const base = { min: outputValue(type, sorted[0] ?? null), max: outputValue(type, sorted[sorted.length - 1] ?? null) };
  if (type === 'date' || type === 'timestamptz') return base;
  if (values.length === 0) return { ...base, avg: null, sum: null };
  if (type === 'numeric') {
    const s = Math.max(...values.map(scaleOf));
    const sum = decimalText(
      values.reduce((total, v) => total + scaled(v, s), 0n),
      s,
    );
    return { ...base, avg: Number(sum) / values.length, sum };
  }
  const total = values.reduce((sum, v) => sum + BigInt(v), 0n);
  return { ...base, avg: Number(total) / values.length, sum: outputValue('bigint', total.toString()) };
}

/** The `facets` and `stats` a page of `spec` carries; undefined without any. */
export function expectedSummary(
  spec: QuerySpec,
  fields: ReadonlyMap<string, FieldSpec>,
  rowsWithout: RowsWithout,
): ExpectedSummary | undefined {
  const summary: SummarySpec | null | undefined = spec.summary;
  if (!summary || (summary.facets.length === 0 && summary.stats.length === 0)) return undefined;
  const fieldOf = (name: string): FieldSpec => {
    const found = fields.get(name);
    if (found === undefined) throw new Error(`reference: no field ${name}`);
    return found;
  };
  const out: { facets?: Record<string, ExpectedFacetValue[]>; stats?: Record<string, ExpectedStats> } = {};
  for (const f of summary.facets) {
    out.facets ??= {};
    out.facets[f.field] = facet(fieldOf(f.field), f.bucket, rowsWithout(f.field), summary.limit ?? 10);
  }
  for (const name of summary.stats) {
    out.stats ??= {};
    out.stats[name] = stats(fieldOf(name), rowsWithout(name));
  }
  return out;
}
