// Every statement whose rows are shown runs inside the response byte budget's wrapper
// (plugin/apply/bytes.ts), the budget its last binding; tests about the statement itself read it
// without the wrapper.

import { byteCapped } from '../../plugin/apply/bytes';

const [PREFIX = '', SUFFIX = ''] = byteCapped('\u0000').split('\u0000');
const SUFFIX_AT_END = new RegExp(`${SUFFIX.slice(0, -1).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\?|\\$\\d+)$`);

/** The statement inside the byte budget's wrapper, with the budget's binding dropped; as it is when not wrapped. */
export function withoutBudget<T extends { readonly sql: string; readonly bindings: readonly unknown[] }>(statement: T): T {
  const { sql, bindings } = statement;
  if (!sql.startsWith(PREFIX) || !SUFFIX_AT_END.test(sql)) return statement;
  return { ...statement, sql: sql.slice(PREFIX.length).replace(SUFFIX_AT_END, ''), bindings: bindings.slice(0, -1) };
}
