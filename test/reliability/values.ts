// Typed comparison and output of values for the reference evaluator: a stored value (PostgreSQL's
// text form) and a client literal (as the contract writes it) are both read from text here, so the
// evaluator never depends on a driver's parsing (docs/query-language.md, "Values and types").

import type { FieldSpec, ScalarType } from './model';

const MICROS_PER_DAY = 86_400_000_000n;

/** Microseconds since the epoch of `YYYY-MM-DD[T ]HH:MM[:SS[.f]][Z|±HH[:MM]]` (no zone = UTC). */
export function parseInstant(text: string): bigint | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0));
  const micros = BigInt(ms) * 1000n + BigInt((frac ?? '').padEnd(6, '0') || '0');
  if (zone === undefined || zone === 'Z') return micros;
  const sign = zone.startsWith('-') ? -1n : 1n;
  const digits = zone.slice(1).replace(':', '');
  const minutes = BigInt(Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || 0));
  return micros - sign * minutes * 60_000_000n;
}

/** `2025-04-17` -> that whole UTC day as [start, end) in microseconds; undefined for anything else. */
export function parseDay(text: string): { start: bigint; end: bigint } | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const start = BigInt(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) * 1000n;
  return { start, end: start + MICROS_PER_DAY };
}

/** ISO 8601 UTC with six fractional digits and `Z` (docs/query-language.md, "How values come back"). */
export function isoFromMicros(micros: bigint): string {
  const ms = micros / 1000n;
  const rest = micros % 1000n;
  const base = new Date(Number(ms)).toISOString(); // ...SS.mmmZ
  return `${base.slice(0, 23)}${rest.toString().padStart(3, '0')}Z`;
}

/** Exact comparison of `-?digits(.digits)?` decimals. */
export function compareDecimal(a: string, b: string): number {
  const scale = (text: string): [bigint, number] => {
    const [int = '0', frac = ''] = text.split('.');
    return [BigInt(`${int}${frac}`), frac.length];
  };
  const [va, sa] = scale(a);
  const [vb, sb] = scale(b);
  const ea = va * 10n ** BigInt(Math.max(sa, sb) - sa);
  const eb = vb * 10n ** BigInt(Math.max(sa, sb) - sb);
  return ea < eb ? -1 : ea > eb ? 1 : 0;
}

/** Byte order of the UTF-8 encodings: what the C collation does. */
export function compareText(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function sign(n: bigint): number {
  return n < 0n ? -1 : n > 0n ? 1 : 0;
}

function instant(text: string): bigint {
  const micros = parseInstant(text);
  if (micros === undefined) throw new Error(`reference: not a timestamp: ${text}`);
  return micros;
}

/** Orders two non-null values of one scalar type (stored text forms or client literals). */
export function compareValues(type: ScalarType, a: string, b: string): number {
  switch (type) {
    case 'integer':
    case 'bigint':
      return sign(BigInt(a) - BigInt(b));
    case 'numeric':
      return compareDecimal(a, b);
    case 'text':
      return compareText(a, b);
    case 'boolean':
      return (a.toLowerCase() === 'true' ? 1 : 0) - (b.toLowerCase() === 'true' ? 1 : 0);
    case 'date':
      return a < b ? -1 : a > b ? 1 : 0;
    case 'timestamptz':
      return sign(instant(a) - instant(b));
  }
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A stored value as the API must send it (docs/query-language.md, "How values come back": a bigint as a number when safe). */
export function outputValue(type: ScalarType, text: string | null): JsonValue {
  if (text === null) return null;
  switch (type) {
    case 'integer':
      return Number(text);
    case 'bigint': {
      const n = Number(text);
      return Number.isSafeInteger(n) ? n : text;
    }
    case 'boolean':
      return text === 'true';
    case 'timestamptz':
      return isoFromMicros(instant(text));
    case 'numeric':
    case 'text':
    case 'date':
      return text;
  }
}

// ---- enums and arrays (docs/query-language.md, "Enums, arrays and JSON") ------------------------

/**
 * The elements of a one-dimensional array in PostgreSQL's text form: `{a,"b c",NULL,"NULL"}` ->
 * ['a', 'b c', null, 'NULL']. Quoted elements use backslash escapes; a bare NULL is the null element.
 */
export function parseArray(text: string): (string | null)[] {
  if (!text.startsWith('{') || !text.endsWith('}')) throw new Error(`reference: not an array: ${text}`);
  const body = text.slice(1, -1);
  const out: (string | null)[] = [];
  let i = 0;
  while (i < body.length) {
    if (body[i] === '"') {
      let value = '';
      for (i += 1; body[i] !== '"'; i += 1) {
        if (body[i] === '\\') i += 1;
        value += body[i] ?? '';
      }
      out.push(value);
      i += 2; // the closing quote and the comma
    } else {
      const end = body.indexOf(',', i) === -1 ? body.length : body.indexOf(',', i);
      const raw = body.slice(i, end);
      out.push(raw.toUpperCase() === 'NULL' ? null : raw);
      i = end + 1;
    }
  }
  return out;
}

/** PostgreSQL's array order: element by element, a NULL element after every value, then the shorter first. */
function compareArrays(element: ScalarType, a: readonly (string | null)[], b: readonly (string | null)[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    if (x === null && y === null) continue;
    const c = x === null ? 1 : y === null ? -1 : compareValues(element, x, y);
    if (c !== 0) return c;
  }
  return Math.sign(a.length - b.length);
}

/** Orders two non-null values of a field: enums by declared order, arrays as PostgreSQL does. */
export function compareField(field: FieldSpec, a: string, b: string): number {
  switch (field.type) {
    case 'enum': {
      const labels = field.labels ?? [];
      return Math.sign(labels.indexOf(a) - labels.indexOf(b));
    }
    case 'array':
      return compareArrays(field.element ?? 'text', parseArray(a), parseArray(b));
    default:
      return compareValues(field.type, a, b);
  }
}

/** Whether a stored array holds an element equal to the literal (a NULL element equals nothing). */
export function arrayContains(field: FieldSpec, stored: string, literal: string): boolean {
  const element = field.element ?? 'text';
  return parseArray(stored).some((e) => e !== null && compareValues(element, e, literal) === 0);
}

/** A stored value of a field as the API must send it: enums as their label, arrays as JSON arrays. */
export function outputField(field: FieldSpec, text: string | null): JsonValue {
  if (text === null) return null;
  switch (field.type) {
    case 'enum':
      return text;
    case 'array':
      return parseArray(text).map((e) => outputValue(field.element ?? 'text', e));
    default:
      return outputValue(field.type, text);
  }
}
