// The statements a cursor page adds to the root's (decisions.md 43): the seek joined to the root's
// conditions, and the probe, one row at most, that tells whether any record lies on the other side
// of the boundary, so `prev_cursor` (or, paging backwards, `next_cursor`) is null exactly when none does.
// The probe is asked inside the page statement, as a flag on every row; only an empty page, which
// has no row to carry it, runs it on its own.

import type { Knex } from 'knex';
import { rowsAlias, type FormattedRows } from './formatted';
import type { ModelQuery } from './runnable';
import type { CursorSql } from './seek';
import { quoteIdentifier, type Fragment } from './sql';
import { selectStatement, type Statement } from './statements';

const found = '1 as "found"';

/** Where each row of a page past a boundary says whether the probe found a record (never shown). */
export const behindAlias = '__kqm_behind';

const flag = `as ${quoteIdentifier(behindAlias)}`;

/**
 * An outer statement that formats the page after paging (formatted.ts, aggregated.ts) passes the
 * inner page's answer on: `..., "__kqm_rows"."__kqm_behind"`.
 */
export function carryBehind(formatted: FormattedRows): FormattedRows {
  return Object.freeze({ ...formatted, select: `${formatted.select}, ${rowsAlias}.${quoteIdentifier(behindAlias)}` });
}

/** The root's condition groups, then the seek, if any. */
export function seekWhere(where: readonly Fragment[], cursor: CursorSql | undefined): readonly Fragment[] {
  return cursor?.seek === undefined ? where : [...where, cursor.seek];
}

/** `select 1 as "found" from "users" where <groups> and (<seek>) IS NOT TRUE limit ?`. */
export function probeStatement(from: string, where: readonly Fragment[], probe: Fragment, joins?: readonly Fragment[]): Statement {
  // The joins to related records the seek reads (a relation sort key, a count: decisions.md 38-39).
  return selectStatement({ select: found, from, ...(joins === undefined ? {} : { joins }), where: [...where, probe], order: '', limit: 1 });
}

/**
 * The page's select list with the probe as its last entry:
 * `"users"."id", ... , exists (select 1 as "found" from "users" where ... limit ?) as "__kqm_behind"`.
 * The sublink names nothing of the page's row, so PostgreSQL runs it once (an InitPlan), not per row.
 */
export function probedSelect(select: string, probe: Statement): Fragment {
  return { sql: `${select}, exists (${probe.sql}) ${flag}`, bindings: probe.bindings };
}

/** The same on the scoped builder (the host's hooks already applied to `base`). */
export function probeBuilder(base: ModelQuery, knex: Knex, probe: Fragment): ModelQuery {
  return base
    .select(knex.raw(found))
    .whereRaw(probe.sql, [...probe.bindings])
    .limit(1);
}

/** probedSelect() on the builder path: the probe's builder embedded as a binding, its hooks and joins kept. */
export function selectProbed(query: ModelQuery, knex: Knex, probe: ModelQuery): void {
  query.select(knex.raw(`exists ? ${flag}`, [probe.toKnexQuery()]));
}
