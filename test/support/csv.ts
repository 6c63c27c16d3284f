// A small RFC 4180 reader for the CSV suites, written apart from the plugin's writer: every record
// ends in CRLF, a quoted field may hold commas, CRLF and doubled quotes, and an empty field that was
// not quoted (`null` in the JSON answer) reads as null while a quoted one (`""`) reads as ''.

export type CsvCell = string | null;

/** `a,"b ""c""",\r\n` -> `[['a', 'b "c"', null]]`; throws on text that is not RFC 4180. */
export function parseCsv(text: string): CsvCell[][] {
  const rows: CsvCell[][] = [];
  let row: CsvCell[] = [];
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`not RFC 4180 CSV at character ${i}: ${why} (${JSON.stringify(text.slice(Math.max(0, i - 20), i + 20))})`);
  };
  while (i < text.length) {
    let cell: CsvCell;
    if (text[i] === '"') {
      let value = '';
      i += 1;
      for (;;) {
        const quote = text.indexOf('"', i);
        if (quote === -1) return fail('a quoted field is not closed');
        value += text.slice(i, quote);
        i = quote + 1;
        if (text[i] !== '"') break;
        value += '"';
        i += 1;
      }
      cell = value;
    } else {
      let end = i;
      while (end < text.length && text[end] !== ',' && text[end] !== '\r' && text[end] !== '\n') {
        if (text[end] === '"') {
          i = end;
          return fail('a quote inside an unquoted field');
        }
        end += 1;
      }
      cell = end === i ? null : text.slice(i, end);
      i = end;
    }
    row.push(cell);
    if (text[i] === ',') {
      i += 1;
      continue;
    }
    if (text.startsWith('\r\n', i)) {
      rows.push(row);
      row = [];
      i += 2;
      continue;
    }
    return fail(i >= text.length ? 'the last line does not end in CRLF' : 'a field is followed by neither a comma nor CRLF');
  }
  return rows;
}

/** The rows after the header as objects keyed by the header's names; checks that every row has as many cells. */
export function csvRecords(text: string): { header: string[]; records: Record<string, CsvCell>[] } {
  const [header, ...rows] = parseCsv(text);
  if (header === undefined) throw new Error('CSV without a header row');
  const names = header.map((name) => name ?? '');
  const records = rows.map((row, n) => {
    if (row.length !== names.length) throw new Error(`row ${n + 1} has ${row.length} cells, the header ${names.length}`);
    return Object.fromEntries(names.map((name, i) => [name, row[i] ?? null]));
  });
  return { header: names, records };
}

/**
 * A JSON answer's value as its CSV cell should read, worked out here without the plugin's code:
 * null -> null, '' -> '', objects and arrays as JSON text, numbers of number columns as they are,
 * anything else guarded with `'` when a spreadsheet would read it as a formula.
 */
export function expectedCell(value: unknown, numberColumn: boolean): CsvCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object' || typeof value === 'function' || typeof value === 'symbol') return JSON.stringify(value) ?? null;
  const text = `${value as string | number | boolean | bigint}`;
  if (numberColumn && /^-?\d+(\.\d+)?$/.test(text)) return text;
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
