// What "the statement written directly equals the builder's" means for the root's rows statement when
// expansions are read inside it (text path only, plugin/apply/aggregated.ts): the builder's page is
// its CTE, the builder's formatted select list starts its own, and both order the page alike.

import { expect } from 'chai';
import type { Runnable } from '../../plugin/apply';

/** `direct` (no hook) against `built` (a hook, so Objection builders); `aggregated` when the query has aggregates. */
export function expectSameRows(direct: Runnable, built: Runnable, aggregated: boolean): void {
  const text = direct.toSQL();
  const page = built.toSQL();
  if (!aggregated) {
    expect(text).to.deep.equal(page);
    return;
  }
  const parts = /^select (.*?) from \((.*)\) as "__kqm_rows"( order by .*)$/.exec(page.sql);
  expect(parts, page.sql).to.not.equal(null);
  const [, select, inner, order] = parts as unknown as [string, string, string, string];
  expect(text.sql.startsWith(`with "__kqm_rows" as (${inner}) select ${select}, `), text.sql).to.equal(true);
  expect(text.sql.endsWith(order), text.sql).to.equal(true);
  expect(text.bindings.slice(0, page.bindings.length)).to.deep.equal(page.bindings);
}
