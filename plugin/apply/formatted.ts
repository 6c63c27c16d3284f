// Values formatted after paging: a statement that skips or sorts rows (the root's page, a per-parent
// window) reads the columns as stored in an inner statement, and an outer one formats only the rows
// it returns. PostgreSQL computes a select list for every row a scan or sort passes, so `to_char` in
// the page query formatted the 10,000 rows of `offset=9980` only to skip them (docs/design/deep-offset-formatting.md).

import type { Column } from '../schema';
import type { OrderKey } from '../validate';
import { columnSql, quoteIdentifier, quoteTable, rawColumn, selectColumn } from './sql';
import type { FormattedRows, HiddenColumn, Statement } from './types';

/** The inner statement's rows, as the outer one reads them. */
export const rowsAlias = quoteIdentifier('__kqm_rows');

/** A column of the inner statement's rows in the outer order: qualified, since a bare name there would mean the formatted output. */
const field = (name: string): string => `${rowsAlias}.${quoteIdentifier(name)}`;

/**
 * The inner select list and the outer statement's parts for a scope on `table`. The inner statement
 * reads `"users".*` when every field is the table's own: PostgreSQL reads only the columns the outer
 * statement names, and the kept text stays short. A field of another table (a join table's) is read
 * under its own name instead, since a table column of that name would make it ambiguous.
 */
export function formatAfterPaging(
  table: string,
  selected: readonly Column[],
  order: readonly OrderKey[],
  extra: readonly HiddenColumn[],
  keys?: readonly Column[],
): { readonly select: string; readonly formatted: FormattedRows } {
  const whole = selected.every((column) => column.table === table);
  // Where the inner statement's rows hold a field: under its column's name (`*`), else under the field's name.
  const readAs = (column: Column): string | undefined => {
    if (whole) return column.table === table ? column.column : undefined;
    return selected.some((c) => c.name === column.name) ? column.name : undefined;
  };
  // The outer order names the inner rows' columns; a sort field the inner statement does not read is read for it.
  const orderColumns: string[] = [];
  const outerOrder = order
    .map((key, i) => {
      let name = readAs(key.column);
      if (name === undefined) {
        name = `__kqm_order${i}`;
        orderColumns.push(`${columnSql(key.column)} as ${quoteIdentifier(name)}`);
      }
      return `${field(name)} ${key.direction}`;
    })
    .join(', ');
  const read = whole ? [`${quoteTable(table)}.*`] : selected.map(rawColumn);
  return {
    select: [...read, ...orderColumns, ...extra.map((column) => column.sql)].join(', '),
    formatted: {
      select: [
        // Bare names: the outer statement reads one row source (with a window's, parent keys named `__kqm_key<n>`).
        ...selected.map((column) => selectColumn(column, quoteIdentifier(readAs(column) as string), readAs(column))),
        ...extra.map((column) => quoteIdentifier(column.alias)),
      ].join(', '),
      order: outerOrder,
      // Every key is read: keys are among the selected columns (scopeSql adds them).
      ...(keys === undefined ? {} : { keys: keys.map((key) => field(readAs(key) as string)) }),
    },
  };
}

/** `select <formatted> from (<inner>) as "__kqm_rows" order by <order>`: only the inner statement's rows are formatted. */
export function formattedStatement(inner: Statement, formatted: FormattedRows): Statement {
  const order = formatted.order === '' ? '' : ` order by ${formatted.order}`;
  return { sql: `select ${formatted.select} from (${inner.sql}) as ${rowsAlias}${order}`, bindings: inner.bindings };
}
