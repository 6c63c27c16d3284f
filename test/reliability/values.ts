// Typed comparison and output of values for the reference evaluator: a stored value (PostgreSQL's
// text form) and a client literal (as the contract writes it) are both read from text here, so the
// evaluator never depends on a driver's parsing (decisions.md 9-14, contract "Filter values").

import type { FieldType } from './model';

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

/** ISO 8601 UTC with six fractional digits and `Z` (decision 13). */
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

/** Orders two non-null values of one column type (stored text forms or client literals). */
export function compareValues(type: FieldType, a: string, b: string): number {
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

/** A stored value as the API must send it (decision 13; contract: bigint as a number when safe). */
export function outputValue(type: FieldType, text: string | null): JsonValue {
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
