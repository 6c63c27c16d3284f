// How a value of each column type is written in a query string (for `filter`, `in`, `between`) and
// how it comes back in a record, as JSON Schema fragments for the OpenAPI document.

import type { Column, ColumnType } from '../schema';

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

const valueForms: Readonly<Record<ColumnType, ValueForm>> = {
  smallint: integerForm,
  integer: integerForm,
  bigint: integerForm,
  numeric: { shape: '[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)', example: '0', words: 'a decimal number without exponent' },
  float: { shape: undefined, example: '0.5', words: 'a number' },
  // Virtual attributes are never in a condition (decisions.md 34); this form is never shown.
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
  json: { ...textForm, words: 'any text (compared with the column\'s text form)' },
  other: { ...textForm, words: 'any text (compared with the column\'s text form)' },
};

export function valueForm(type: ColumnType): ValueForm {
  return valueForms[type];
}

const operatorAlternatives = '(?:>=|<=|<>|=|>|<)';
/** A double-quoted item: backslash escapes the next character. */
const quotedText = '"(?:[^"\\\\]|\\\\[\\s\\S])*"';
/** An unquoted list item: does not start with a quote, runs to the next comma. */
const bareListItem = '[^,"][^,]*';

/** The pattern of a `filter[...]` value, e.g. `>=5`, `null`, `<>null`; undefined for text-like columns. */
export function filterPattern(type: ColumnType): string | undefined {
  const shape = valueForms[type].shape;
  if (shape === undefined) return undefined;
  return `^(?:(?:=|<>)?null|${operatorAlternatives}?(?:${shape}|"${shape}"))$`;
}

function listItem(type: ColumnType, allowNull: boolean): string {
  const shape = valueForms[type].shape;
  if (shape === undefined) return `(?:${quotedText}|${bareListItem})`;
  return allowNull ? `(?:null|${shape}|"${shape}")` : `(?:${shape}|"${shape}")`;
}

/** The pattern of an `in[...]` list: one or more comma-separated items, each possibly quoted. */
export function inPattern(type: ColumnType): string {
  const item = listItem(type, true);
  return `^${item}(?:,${item})*$`;
}

/** The pattern of a `between[...]` value: exactly two comma-separated bounds. */
export function betweenPattern(type: ColumnType): string {
  const item = listItem(type, false);
  return `^${item},${item}$`;
}

/** A search pattern is not empty once one leading and one trailing `*` are removed. */
export const searchPattern = '^(?:[\\s\\S]*[^*][\\s\\S]*|\\*{3,})$';

function nullable(schema: JsonSchema, column: Column): JsonSchema {
  if (!column.nullable) return schema;
  const type = schema.type;
  if (type === undefined) return schema;
  return { ...schema, type: Array.isArray(type) ? [...(type as unknown[]), 'null'] : [type, 'null'] };
}

const recordSchemas: Readonly<Record<ColumnType, JsonSchema>> = {
  smallint: { type: 'integer', minimum: -32768, maximum: 32767 },
  integer: { type: 'integer', format: 'int32' },
  bigint: {
    type: ['integer', 'string'],
    pattern: '^-?[0-9]+$',
    description: 'A JSON number when it is a safe integer (|n| < 2^53), otherwise its decimal digits as a string.',
  },
  numeric: {
    type: 'string',
    pattern: '^(?:-?[0-9]+(?:\\.[0-9]+)?|NaN|-?Infinity)$',
    description: 'Exact decimal, as stored.',
  },
  float: { type: 'number' },
  text: { type: 'string' },
  virtual: { description: 'Computed by the model (a virtual attribute).' },
  boolean: { type: 'boolean' },
  timestamptz: { type: 'string', format: 'date-time', description: 'ISO 8601 in UTC with six fractional digits, e.g. 2025-04-17T01:19:49.123456Z.' },
  timestamp: { type: 'string', format: 'date-time', description: 'ISO 8601 in UTC with six fractional digits, e.g. 2025-04-17T01:19:49.123456Z.' },
  date: { type: 'string', format: 'date' },
  uuid: { type: 'string', format: 'uuid' },
  json: {},
  other: { type: 'string', description: 'The PostgreSQL text form of the value.' },
};

/** `{name: 'score', type: 'numeric', nullable: true}` -> `{type: ['string', 'null'], pattern: ...}` */
export function columnSchema(column: Column): JsonSchema {
  return nullable(recordSchemas[column.type], column);
}
