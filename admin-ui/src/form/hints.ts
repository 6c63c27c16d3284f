// Owns the words the form shows beside controls: operator names and value placeholders per column
// type, so a person who has never seen the API knows what to type.
import type { FieldType } from '../meta';
import type { Choice } from '../dom';

const operatorNames: Readonly<Record<string, string>> = {
  '=': '= equals',
  '<>': '≠ is not',
  '>': '> greater than',
  '>=': '≥ at least',
  '<': '< less than',
  '<=': '≤ at most',
};

const reading = ['=', '<>', '>', '>=', '<', '<='];

/** The API's operators in reading order (the API lists them longest first, the way it parses them). */
export function operatorChoices(operators: readonly string[]): Choice[] {
  const rank = (op: string): number => (reading.includes(op) ? reading.indexOf(op) : reading.length);
  return [...operators].sort((a, b) => rank(a) - rank(b)).map((op) => ({ value: op, label: operatorNames[op] ?? op }));
}

const placeholders: Readonly<Record<FieldType, string>> = {
  smallint: 'a whole number',
  integer: 'a whole number',
  bigint: 'a whole number',
  numeric: 'a number, e.g. 12.50',
  float: 'a number',
  text: 'text (null = empty)',
  boolean: 'true or false',
  timestamptz: 'YYYY-MM-DD or YYYY-MM-DDTHH:MM',
  timestamp: 'YYYY-MM-DD or YYYY-MM-DDTHH:MM',
  date: 'YYYY-MM-DD',
  uuid: 'a UUID',
  json: 'a JSON value, e.g. {"a":1}',
  enum: 'one of the labels',
  array: 'one element (contains)',
  other: 'a value',
};

export function valuePlaceholder(type: FieldType): string {
  return placeholders[type];
}

/**
 * The first row of a group has no word before it; only its `!` (negation) counts
 * (docs/query-language.md, "Logical prefixes and how clauses group").
 */
export function logicalChoices(first: boolean): Choice[] {
  if (first)
    return [
      { value: 'and', label: 'where' },
      { value: 'and!', label: 'where not' },
    ];
  return [
    { value: 'and', label: 'and' },
    { value: 'or', label: 'or' },
    { value: 'and!', label: 'and not' },
    { value: 'or!', label: 'or not' },
  ];
}
