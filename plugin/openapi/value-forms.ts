// How a value of each column is written in a query string (for `filter`, `in`, `between`), as words,
// an accepted example and JSON Schema patterns for the OpenAPI document. Enums accept their labels;
// arrays take one element and only `=`/`<>`; JSON takes any JSON text and only `=`/`<>`.

import { elementOf, type Column, type ColumnType } from '../schema';

export type JsonSchema = { [keyword: string]: unknown };

interface ValueForm {
  /** A regular expression (no anchors) for one unquoted value, or undefined when any text is accepted. */
  readonly shape: string | undefined;
  /** A value the API accepts for this type. */
  readonly example: string;
  /** How the value is written, in words. */
  readonly words: string;
}

const integerForm: ValueForm = { shape: '[+-]?[0-9]+', example: '1', words: 'a whole number' };
const timestampShape =
  '[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[Tt ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\\.[0-9]{1,6})?)?(?:[Zz]|[+-][0-9]{2}(?::?[0-9]{2})?)?)?';
const timestampForm: ValueForm = {
  shape: timestampShape,
  example: '2025-01-01',
  words: 'a date `YYYY-MM-DD` (the whole UTC day) or a timestamp `YYYY-MM-DDTHH:MM[:SS[.ffffff]][Z|±HH:MM]` (UTC when no zone is given)',
};
const textForm: ValueForm = { shape: undefined, example: 'a', words: 'any text' };

const scalarForms: Readonly<Record<Exclude<ColumnType, 'enum' | 'array'>, ValueForm>> = {
  smallint: integerForm,
  integer: integerForm,
  bigint: integerForm,
  numeric: { shape: '[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)', example: '0', words: 'a decimal number without exponent' },
  float: {
    shape: '[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[Ee][+-]?[0-9]+)?',
    example: '0.5',
    words: "a number, optionally with an exponent, within the column's range",
  },
  // Virtual attributes are never in a condition (docs/configuration.md, "Your models as they are");
  // this form is never shown.
  virtual: textForm,
  boolean: { shape: '(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])', example: 'true', words: '`true` or `false` (any case)' },
  timestamptz: timestampForm,
  timestamp: timestampForm,
  date: { shape: '[0-9]{4}-[0-9]{2}-[0-9]{2}', example: '2025-01-01', words: 'a date `YYYY-MM-DD`' },
  uuid: {
    shape: '[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}',
    example: '00000000-0000-0000-0000-000000000000',
    words: 'a UUID',
  },
  text: textForm,
  json: { shape: undefined, example: '{"a":1}', words: 'a JSON value, compared as JSON (`{"a":1}` equals `{ "a" : 1 }`)' },
  other: { ...textForm, words: "any text (compared with the column's text form)" },
};

// Not `-`: JSON Schema tools compile patterns with the `u` flag, under which `\-` outside a class is a syntax error.
export const escapeRegExp = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/** `mood` -> one of its labels; `tags text[]` -> one element, as a text value is written. */
export function valueForm(column: Column): ValueForm {
  switch (column.type) {
    case 'enum': {
      const labels = column.labels ?? [];
      return {
        shape: labels.length === 0 ? '(?!)' : `(?:${labels.map(escapeRegExp).join('|')})`,
        example: labels[0] ?? '',
        words: `one of the labels ${labels.map((l) => `\`${l}\``).join(', ')} (ordered as listed)`,
      };
    }
    case 'array': {
      const element = valueForm(elementOf(column));
      return { ...element, words: `one element: ${element.words}` };
    }
    default:
      return scalarForms[column.type];
  }
}

/** `=` or `<>` and any value, or no operator and a value that does not start with one. */
const equalityOnly = '^(?:(?:=|<>)[\\s\\S]*|(?![<>=])[\\s\\S]*)$';
const operatorAlternatives = '(?:>=|<=|<>|=|>|<)';
/** A double-quoted item: backslash escapes the next character. */
const quotedText = '"(?:[^"\\\\]|\\\\[\\s\\S])*"';
/** An unquoted list item: does not start with a quote, runs to the next comma. */
const bareListItem = '[^,"][^,]*';

/**
 * Whether `<`, `>`, `<=`, `>=` and `between` apply
 * (docs/query-language.md, "Enums, arrays and JSON"): `score` -> true, `tags text[]` or `doc jsonb`
 * -> false.
 */
export function isRanged(column: Column): boolean {
  return column.type !== 'array' && column.type !== 'json';
}

/** The pattern of a `filter[...]` value, e.g. `>=5`, `null`, `<>null`; undefined for text-like columns. */
export function filterPattern(column: Column): string | undefined {
  const shape = valueForm(column).shape;
  const operators = isRanged(column) ? `${operatorAlternatives}?` : '(?:=|<>)?';
  if (shape === undefined) return isRanged(column) ? undefined : equalityOnly;
  return `^(?:(?:=|<>)?null|${operators}(?:${shape}|"${shape}"))$`;
}

function listItem(column: Column, allowNull: boolean): string {
  const shape = valueForm(column).shape;
  if (shape === undefined) return `(?:${quotedText}|${bareListItem})`;
  return allowNull ? `(?:null|${shape}|"${shape}")` : `(?:${shape}|"${shape}")`;
}

/** The pattern of an `in[...]` list: one or more comma-separated items, each possibly quoted. */
export function inPattern(column: Column): string {
  const item = listItem(column, true);
  return `^${item}(?:,${item})*$`;
}

/** The pattern of a `between[...]` value: exactly two comma-separated bounds. */
export function betweenPattern(column: Column): string {
  const item = listItem(column, false);
  return `^${item},${item}$`;
}

/** A search pattern is not empty once one leading and one trailing `*` are removed. */
export const searchPattern = '^(?:[\\s\\S]*[^*][\\s\\S]*|\\*{3,})$';
