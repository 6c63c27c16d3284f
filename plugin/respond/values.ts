// One value in its documented JSON form (docs/query-language.md, "How values come back"): numbers, bigints as numbers when
// exact, text forms kept as strings, parsed JSON as it is, arrays element by element.

import type { Column, ColumnType } from '../schema';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** `'9007199254740993'` stays text; `'42'` becomes 42. */
function bigintJson(value: unknown): JsonValue {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : String(value);
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

const isoShape = /^(\d{4,})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?(?:([+-])(\d\d)(?::(\d\d))?(?::(\d\d))?)?$/;

/**
 * `2025-04-17T03:19:49.5+02:00` (how `to_json` writes an array's timestamps) ->
 * `2025-04-17T01:19:49.500000Z`, the form of a timestamp field; `infinity` and BC dates stay as written.
 */
function timestampJson(value: unknown): JsonValue {
  const text = String(value);
  const m = isoShape.exec(text);
  if (m === null) return text;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map<number>(Number);
  const offset = m[8] === undefined ? 0 : (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 3600 + Number(m[10] ?? 0) * 60 + Number(m[11] ?? 0));
  const date = new Date(0);
  date.setUTCFullYear(year as number, (month as number) - 1, day);
  date.setUTCHours(hour as number, minute, (second as number) - offset, 0);
  const ymd = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  const hms = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
  return `${ymd}T${hms}.${(m[7] ?? '').padEnd(6, '0')}Z`;
}

/** One element of an array as `to_json` gave it, nested arrays (more dimensions) element by element. */
function elementJson(type: ColumnType | undefined, value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map((item) => elementJson(type, item));
  if (value === null) return null;
  if (type === 'bigint') return bigintJson(value);
  return type === 'timestamptz' || type === 'timestamp' ? timestampJson(value) : value;
}

/** Element types whose `to_json` form is not yet the documented one. */
const reshapedElements: ReadonlySet<ColumnType | undefined> = new Set(['bigint', 'timestamptz', 'timestamp']);

/**
 * Whether the driver's value of this field is already its JSON form: true for every type the select
 * list reads in that form (numbers, booleans, parsed JSON, text), false for bigints and for arrays
 * whose elements need reshaping. `visits bigint` -> false.
 */
export function sentAsRead(column: Column): boolean {
  if (column.type === 'bigint') return false;
  return column.type !== 'array' || !reshapedElements.has(column.elementType);
}

/** `'9007199254740993'` (bigint) stays text; `'42'` becomes 42; `["1", "2"]` (bigint[]) becomes [1, 2]. */
export function formatValue(column: Column, value: unknown): JsonValue {
  if (value === null || value === undefined) return null;
  switch (column.type) {
    case 'smallint':
    case 'integer':
    case 'float':
      return Number(value);
    case 'bigint':
      return bigintJson(value);
    case 'boolean':
      return Boolean(value);
    case 'json':
    case 'virtual':
      return value as JsonValue;
    case 'array':
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- not an array: an array the driver could not parse, read as its text
      return Array.isArray(value) ? elementJson(column.elementType, value as JsonValue) : String(value);
    case 'numeric':
    case 'text':
    case 'uuid':
    case 'timestamptz':
    case 'timestamp':
    case 'date':
    case 'enum':
    case 'other':
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the select list reads these types as text (selectColumn in apply/sql.ts)
      return String(value);
  }
}
