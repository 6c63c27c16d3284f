// Owns how the editor's table shows a value: dates and times in the browser's locale, numbers with
// its digit grouping, booleans as Yes/No, missing values as a dash, and JSON folded under a summary.
import { h } from '../dom';
import type { FieldType } from '../meta';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
// A date has no time zone: read and shown in UTC so 2025-04-27 never becomes the 26th.
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const numbers = new Intl.NumberFormat(undefined, { maximumFractionDigits: 20 });

/** `2025-04-27T20:06:09.978091Z` -> `27 Apr 2025, 20:06` (en-GB); anything unreadable -> as sent. */
export function formatDateTime(text: string): string {
  const time = Date.parse(text);
  return Number.isNaN(time) ? text : dateTime.format(time);
}

export function formatDate(text: string): string {
  const time = Date.parse(`${text.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(time) ? text : dateOnly.format(time);
}

/** `"1234.50"` (numeric, as text) -> `1,234.5`; bigints beyond 2^53 stay as their digits. */
export function formatNumber(value: unknown): string {
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(number) || (typeof value === 'string' && !Number.isSafeInteger(Math.trunc(number)))) return String(value);
  return numbers.format(number);
}

/** The text a scalar reads as in the editor's table, by the field's type. */
export function formatScalar(value: unknown, type: FieldType): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  switch (type) {
    case 'timestamptz':
    case 'timestamp':
      return typeof value === 'string' ? formatDateTime(value) : String(value);
    case 'date':
      return typeof value === 'string' ? formatDate(value) : String(value);
    case 'smallint':
    case 'integer':
    case 'bigint':
    case 'numeric':
    case 'float':
      return formatNumber(value);
    default:
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

/** A cell's content: a dash for nothing, folded JSON for objects and lists of values, else text. */
export function formattedCell(value: unknown, type: FieldType): Node {
  if (value === null || value === undefined) return h('span', { class: 'null', text: '—', attrs: { 'aria-label': 'empty' } });
  if (typeof value === 'object') {
    const text = JSON.stringify(value, null, 2);
    const short = Array.isArray(value) ? `${value.length} item${value.length === 1 ? '' : 's'}` : 'details';
    return h('details', { class: 'json' }, h('summary', { text: short }), h('pre', { class: 'code', text }));
  }
  const text = formatScalar(value, type);
  const raw = typeof value === 'string' ? value : JSON.stringify(value);
  return h('span', {
    class: typeof value === 'string' ? 'text' : 'scalar',
    text,
    attrs: { title: raw !== text || raw.length > 40 ? raw : undefined },
  });
}
