// Checks a client's value against the column's type before any SQL runs and turns it into a typed
// Operand (docs/query-language.md, "Values and types"). Date-only values on timestamp columns
// become whole UTC days; an array field's value is one element, checked against the element type.

import { elementOf, type Column, type ColumnType } from '../schema';
import type { RawValue } from '../syntax';
import { jsonProblem } from './json-value';
import { decimalFits, floatProblem } from './numbers';
import type { Operand } from './types';

/** A typed operand, or why the value does not fit (with the values allowed, for an enum). */
export type Coerced =
  { readonly ok: true; readonly operand: Operand } | { readonly ok: false; readonly detail: string; readonly allowed?: readonly string[] };

const integerRanges = {
  smallint: [-32768n, 32767n],
  integer: [-2147483648n, 2147483647n],
  bigint: [-9223372036854775808n, 9223372036854775807n],
} as const;

const timestampShape = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const numericShape = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const floatShape = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

const value = (v: string | number | boolean): Coerced => ({ ok: true, operand: { kind: 'value', value: v } });
const invalid = (detail: string): Coerced => ({ ok: false, detail });

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function utcDate(year: number, month: number, day: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date;
}

function isoDay(date: Date): string {
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

interface Moment {
  readonly date: Date;
  readonly hasTime: boolean;
  readonly micros: string;
}

/** `2025-04-17T01:19:49.123456+02:00` -> that instant in UTC, keeping all six fractional digits. */
function readMoment(text: string): Moment | undefined {
  const m = timestampShape.exec(text);
  if (m === null) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((p) =>
    p === undefined ? undefined : Number(p),
  ) as number[];
  if (year === undefined || month === undefined || day === undefined) return undefined;
  const date = utcDate(year, month, day);
  if (year < 1 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const zone = m[8]?.toUpperCase();
  let offsetMinutes = 0;
  if (zone !== undefined && zone !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2) || '0');
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (oh * 60 + om);
  }
  date.setUTCHours(hour, minute - offsetMinutes, second, 0);
  return { date, hasTime: m[4] !== undefined, micros: (m[7] ?? '').padEnd(6, '0') };
}

function formatInstant(moment: Moment): string {
  const d = moment.date;
  return `${isoDay(d)}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${moment.micros}Z`;
}

function coerceTimestamp(text: string): Coerced {
  const moment = readMoment(text);
  if (moment === undefined) {
    return invalid('must be a date (YYYY-MM-DD) or an ISO 8601 timestamp (YYYY-MM-DDTHH:MM:SS[.ffffff][Z|±HH:MM])');
  }
  if (moment.hasTime) {
    // `0001-01-01T00:00+00:01` is 31 December of year 0 in UTC, which the ISO form sent to PostgreSQL cannot write.
    if (moment.date.getUTCFullYear() < 1) return invalid('is before 0001-01-01T00:00:00Z once its offset is applied');
    return value(formatInstant(moment));
  }
  const next = new Date(moment.date.getTime());
  next.setUTCDate(next.getUTCDate() + 1);
  return { ok: true, operand: { kind: 'day', start: `${isoDay(moment.date)}T00:00:00Z`, end: `${isoDay(next)}T00:00:00Z` } };
}

function coerceInteger(column: Column & { type: keyof typeof integerRanges }, text: string): Coerced {
  if (!/^[+-]?\d+$/.test(text)) return invalid('must be a whole number');
  const n = BigInt(text);
  const [min, max] = integerRanges[column.type];
  if (n < min || n > max) return invalid(`is out of range for this ${column.type} field (${min} to ${max})`);
  return value(column.type === 'bigint' ? n.toString() : Number(n));
}

function coerceFloat(column: Column, text: string): Coerced {
  if (!floatShape.test(text)) return invalid('must be a number such as 0.5 or -1.5e3');
  const n = Number(text);
  const problem = floatProblem(text, n, column.udt === 'float4');
  return problem === undefined ? value(n) : invalid(problem);
}

function coerceNumeric(text: string): Coerced {
  if (!numericShape.test(text)) return invalid('must be a decimal number such as 12.50');
  return decimalFits(text.replace(/^[+-]/, '')) === false ? invalid('has more digits than a numeric can hold') : value(text);
}

function coerceEnum(column: Column, text: string): Coerced {
  const labels = column.labels ?? [];
  return labels.includes(text) ? value(text) : { ok: false, detail: 'is not one of the labels of this enum', allowed: labels };
}

export type Comparison = 'ordered' | 'equality' | 'membership';

const comparisons: Readonly<Record<ColumnType, Comparison>> = {
  smallint: 'ordered',
  integer: 'ordered',
  bigint: 'ordered',
  numeric: 'ordered',
  float: 'ordered',
  text: 'ordered',
  boolean: 'ordered',
  timestamptz: 'ordered',
  timestamp: 'ordered',
  date: 'ordered',
  uuid: 'ordered',
  enum: 'ordered',
  other: 'ordered',
  virtual: 'ordered',
  json: 'equality',
  array: 'membership',
};

/**
 * What a field's conditions may ask (docs/query-language.md, "Enums, arrays and JSON"): `ordered`
 * every operator and `between`; `equality` only `=`, `<>` and `in` (JSON); `membership` the same
 * read as "contains" (arrays). E.g. `tags text[]` -> 'membership'.
 */
export function comparisonOf(column: Column): Comparison {
  return comparisons[column.type];
}

/** `tags text[]` -> `text[]`, `mood` -> `enum`, `id` -> `integer`: a field's type in problem details. */
export function typeWords(column: Column): string {
  return column.type === 'array' ? `${column.elementType ?? 'other'}[]` : column.type;
}

/** `filter[id]=abc` on an integer column -> `{ok: false, detail: 'must be a whole number'}`. */
export function coerceValue(column: Column, raw: RawValue): Coerced {
  if (raw.kind === 'null') return { ok: true, operand: { kind: 'null' } };
  const text = raw.text;
  if (text.includes('\u0000')) return invalid('must not contain a NUL character');
  switch (column.type) {
    case 'smallint':
    case 'integer':
    case 'bigint':
      return coerceInteger({ ...column, type: column.type }, text);
    case 'numeric':
      return coerceNumeric(text);
    case 'float':
      return coerceFloat(column, text);
    case 'boolean': {
      const lower = text.toLowerCase();
      return lower === 'true' || lower === 'false' ? value(lower === 'true') : invalid('must be true or false');
    }
    case 'timestamptz':
    case 'timestamp':
      return coerceTimestamp(text);
    case 'date': {
      const moment = readMoment(text);
      return moment !== undefined && !moment.hasTime ? value(isoDay(moment.date)) : invalid('must be a date written YYYY-MM-DD');
    }
    case 'uuid':
      return uuidShape.test(text) ? value(text.toLowerCase()) : invalid('must be a UUID');
    case 'enum':
      return coerceEnum(column, text);
    case 'json': {
      const problem = jsonProblem(text);
      return problem === undefined ? value(text) : invalid(problem);
    }
    case 'array':
      // The value is one element: `filter[tags]=math` means "contains math"
      // (docs/query-language.md, "Enums, arrays and JSON").
      return coerceValue(elementOf(column), raw);
    case 'text':
    case 'other':
      return value(text);
    case 'virtual':
      return invalid('cannot be compared (a virtual attribute)');
  }
}
