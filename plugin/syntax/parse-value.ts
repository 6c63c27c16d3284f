// Parses modifier values: an operator and a value for `filter`, comma-separated lists with optional
// double quotes for `in`/`between`, wildcard patterns for `search`, and non-negative integers.

import type { RawValue } from './types';
import { operators, type Operator } from './vocabulary';

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly detail: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = <T>(detail: string): Parsed<T> => ({ ok: false, detail });

/** Reads a double-quoted item starting at `start` (on the quote); returns the text and the index after it. */
function readQuoted(text: string, start: number): Parsed<{ text: string; end: number }> {
  let out = '';
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '\\') {
      if (i + 1 >= text.length) break;
      out += text[i + 1] as string;
      i++;
    } else if (ch === '"') {
      return ok({ text: out, end: i + 1 });
    } else {
      out += ch;
    }
  }
  return fail('has an opening double quote without a closing one');
}

/** `null` -> NULL; `"null"` -> the text null; anything else -> text as written. */
export function parseScalar(text: string): Parsed<RawValue> {
  if (text === 'null') return ok({ kind: 'null' });
  if (!text.startsWith('"')) return ok({ kind: 'text', text, quoted: false });
  const quoted = readQuoted(text, 0);
  if (!quoted.ok) return quoted;
  if (quoted.value.end !== text.length) return fail('has text after its closing double quote');
  return ok({ kind: 'text', text: quoted.value.text, quoted: true });
}

/** `>=5` -> `{operator: '>=', value: 5}`; `active` -> `{operator: '=', value: 'active'}` (docs/query-language.md, "filter"). */
export function parseFilterValue(text: string): Parsed<{ operator: Operator; value: RawValue }> {
  const operator = operators.find((op) => text.startsWith(op));
  const rest = operator === undefined ? text : text.slice(operator.length);
  const value = parseScalar(rest);
  if (!value.ok) return value;
  return ok({ operator: operator ?? '=', value: value.value });
}

/** `"Smith, John",Jane,null` -> [text 'Smith, John', text 'Jane', null] (docs/query-language.md, "Writing values"). */
export function parseList(text: string): Parsed<RawValue[]> {
  const items: RawValue[] = [];
  let i = 0;
  for (;;) {
    if (text[i] === '"') {
      const quoted = readQuoted(text, i);
      if (!quoted.ok) return quoted;
      items.push({ kind: 'text', text: quoted.value.text, quoted: true });
      i = quoted.value.end;
      if (i < text.length && text[i] !== ',') return fail('has text after a closing double quote');
    } else {
      const comma = text.indexOf(',', i);
      const end = comma === -1 ? text.length : comma;
      const item = text.slice(i, end);
      if (item === '') return fail('has an empty item; quote it as "" to mean the empty text');
      items.push(item === 'null' ? { kind: 'null' } : { kind: 'text', text: item, quoted: false });
      i = end;
    }
    if (i >= text.length) return ok(items);
    i++; // the comma
    if (i >= text.length) return fail('ends with a comma (an empty item)');
  }
}

export interface SearchPattern {
  readonly term: string;
  readonly anchorStart: boolean;
  readonly anchorEnd: boolean;
}

/** `an*` -> starts with "an"; `*an` -> ends with "an"; `an` or `*an*` -> contains "an" (docs/query-language.md, "search"). */
export function parseSearchPattern(text: string): Parsed<SearchPattern> {
  let term = text;
  const leading = term.startsWith('*');
  if (leading) term = term.slice(1);
  const trailing = term.endsWith('*');
  if (trailing) term = term.slice(0, -1);
  if (term === '') return fail('has an empty search term');
  return ok({ term, anchorStart: trailing && !leading, anchorEnd: leading && !trailing });
}

/** `20` -> 20; rejects signs, fractions, exponents and numbers past 2^53. */
export function parseCount(text: string): Parsed<number> {
  if (!/^\d+$/.test(text)) return fail('must be a whole number written with digits only');
  const value = Number(text);
  if (!Number.isSafeInteger(value)) return fail('is too large');
  return ok(value);
}
