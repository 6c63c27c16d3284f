// Every statement whose rows are shown runs inside the response byte budget's wrapper
// (plugin/apply/bytes.ts), the budget its last binding; tests about the statement itself read it
// without the wrapper, in either of its forms (rows measured whole, or column by column).

import { byteCapped, byteCappedBy } from '../../plugin/apply/bytes';

/** The row size the column-by-column form writes, as it appears in its text. */
const SIZE = /^select \* from \(select "__kqm_t"\.\*, \(sum\((.*?)\) over \(rows unbounded preceding\)\)::float8 as "__kqm_bytes" from \(/;

/** The wrapper's text before the statement, and after it up to the budget's placeholder. */
function wrapperOf(sql: string): readonly [string, RegExp] {
  const size = SIZE.exec(sql)?.[1];
  const [prefix = '', suffix = ''] = (size === undefined ? byteCapped('\u0000') : byteCappedBy('\u0000', size)).split('\u0000');
  return [prefix, new RegExp(`${suffix.slice(0, -1).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\?|\\$\\d+)$`)];
}

/** The statement inside the byte budget's wrapper, with the budget's binding dropped; as it is when not wrapped. */
export function withoutBudget<T extends { readonly sql: string; readonly bindings: readonly unknown[] }>(statement: T): T {
  const { sql, bindings } = statement;
  const [prefix, suffix] = wrapperOf(sql);
  if (!sql.startsWith(prefix) || !suffix.test(sql)) return statement;
  return { ...statement, sql: sql.slice(prefix.length).replace(suffix, ''), bindings: bindings.slice(0, -1) };
}
