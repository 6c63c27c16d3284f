// Writes response records as CSV (docs/query-language.md, "Export as CSV"): RFC 4180 (fields quoted
// when they hold a comma, a quote or a line break; lines end in CRLF), a header row of the response's
// field names, each value in its JSON output form (objects and arrays as JSON text, `null` an empty
// cell, an empty string `""`), and a cell that a spreadsheet would run as a formula guarded with `'`.

import type { Column, ColumnType } from '../schema';
import type { JsonRecord, JsonValue, ShapedScope } from './records';

/** One column of the CSV: a field of the response, and whether its values are numbers, written as they are. */
export interface CsvColumn {
  readonly name: string;
  readonly number: boolean;
}

const numberTypes: ReadonlySet<ColumnType> = new Set(['smallint', 'integer', 'bigint', 'numeric', 'float']);

/** A number as JSON or the select list writes it (`-5`, `12.50`, `1e-7`): safe in a spreadsheet as it is. */
const numberText = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/** What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection"). */
const formulaStart = /^[=+\-@\t\r]/;

const quoted = /[",\r\n]/;

/** The fields of a response's records, in output order, then its counts: `fields=name,id&count[posts]` -> name, id, posts_count. */
export function csvColumns(scope: ShapedScope): CsvColumn[] {
  const column = (c: Column): CsvColumn => ({ name: c.name, number: numberTypes.has(c.type) });
  return [...scope.output.map(column), ...(scope.counts ?? []).map(column)];
}

/** RFC 4180: a field holding `"`, `,`, CR or LF is quoted, its quotes doubled. */
function escape(text: string): string {
  return quoted.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * One value as its cell: `-5` in a number column as it is, `-5` in a text column `'-5`,
 * `{"a":1}` as JSON text, null empty, an empty string `""` (so that it differs from null).
 */
export function csvCell(value: JsonValue | undefined, number: boolean): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return number ? String(value) : guard(JSON.stringify(value));
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'object') return escape(JSON.stringify(value));
  if (value === '') return '""';
  if (number && numberText.test(value)) return value;
  return escape(guard(value));
}

/** `=SUM(A1)` -> `'=SUM(A1)`: a spreadsheet shows the text instead of running it. */
function guard(text: string): string {
  return formulaStart.test(text) ? `'${text}` : text;
}

/** The header row: the field names, CRLF-terminated. */
export function csvHeader(columns: readonly CsvColumn[]): string {
  return `${columns.map((c) => escape(c.name)).join(',')}\r\n`;
}

/** The records' rows, each CRLF-terminated; a field a record does not hold (the model left it out) is an empty cell. */
export function csvRows(records: readonly JsonRecord[], columns: readonly CsvColumn[]): string {
  let text = '';
  for (const record of records) {
    let line = '';
    for (let i = 0; i < columns.length; i++) {
      const column = columns[i] as CsvColumn;
      if (i > 0) line += ',';
      line += csvCell(record[column.name], column.number);
    }
    text += `${line}\r\n`;
  }
  return text;
}
