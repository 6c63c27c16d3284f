// The statements a cursor page adds to the root's (docs/query-language.md, "Cursors: cursor"): the
// seek joined to the root's conditions, and the probe, one row at most, that tells whether any
// record lies on the other side of the boundary, so `prev_cursor` (or, paging backwards,
// `next_cursor`) is null exactly when none does. The page's seek includes the boundary row, so
// reading it again tells that; the probe runs, on its own, only when that row is gone. (Asked
// inside the page statement, as an `exists` in its select list, the probe cost PostgreSQL a second
// query to plan on every page: docs/design/cursor-page-statements.md.)

import type { Knex } from 'knex';
import type { ModelQuery } from './runnable';
import type { CursorSql } from './seek';
import type { Fragment, Statement } from './types';
import { selectStatement } from './statements';

const found = '1 as "found"';

/** The root's condition groups, then the seek, if any. */
export function seekWhere(where: readonly Fragment[], cursor: CursorSql | undefined): readonly Fragment[] {
  return cursor?.seek === undefined ? where : [...where, cursor.seek];
}

/** `select 1 as "found" from "users" where <groups> and (<seek>) IS NOT TRUE limit ?`. */
export function probeStatement(from: string, where: readonly Fragment[], probe: Fragment, joins?: readonly Fragment[]): Statement {
  // The joins to related records the seek reads (a relation sort key, a count).
  return selectStatement({ select: found, from, ...(joins === undefined ? {} : { joins }), where: [...where, probe], order: '', limit: 1 });
}

/** The same on the scoped builder (the host's hooks already applied to `base`). */
export function probeBuilder(base: ModelQuery, knex: Knex, probe: Fragment): ModelQuery {
  return base
    .select(knex.raw(found))
    .whereRaw(probe.sql, [...probe.bindings])
    .limit(1);
}
