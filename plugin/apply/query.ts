// Turns a compiled query (compiled.ts) into statements and runs them: the page (or rows) query, with
// the expansions it reads itself on the text path (aggregated.ts), the other expansions
// (expansions.ts) and the count the envelope needs. Rows come back plain through knex: the response
// needs plain rows, and Objection's model instances and eager loading cost more than the whole
// rest of a request (docs/design/running-statements.md).
//
// Two ways to the same SQL. When the host has a `scope` hook, a model with its own query builder or
// query(), or a relation modifier, the statement is an Objection query builder, so those see the
// API they know; a relation condition's subquery, a sort key's or a count's join is then the
// relation's own builder too (sources.ts). Otherwise the statement text is sent as it is: compiling
// a builder costs more CPU than everything else the plugin does for a request.

import type { Knex } from 'knex';
import { aggregatedParts, aggregatedStatement, aggregatesOver, attachAggregates } from './aggregated';
import type { ResponseBudget } from './budget';
import type { CompiledQuery, CompiledRoot } from './compiled';
import { renderGroup } from './conditions';
import { loadExpansion } from './expansions';
import { probeBuilder, probeStatement, seekWhere } from './probe';
import { isBoundary } from './seek';
import {
  applyConditions,
  applyJoins,
  applySelectAndOrder,
  formattedBuilder,
  viaBuilder,
  viaExplain,
  viaRaw,
  viaText,
  type ModelQuery,
  type Runnable,
  type ScopeHook,
} from './runnable';
import type { Fragment, Row, Statement } from './types';
import { builtSources, splitJoins } from './sources';
import { deferredStatement, deferredText, defersPage, pageKeysSelect } from './deferred';
import { formattedStatement } from './formatted';
import { rootWindow, shownRows } from './paging';
import { cappedCountStatement, countStatement, estimateStatement, selectStatement } from './statements';
import { refuseTermless } from './ranked';

export type { ModelQuery, Runnable, ScopeHook } from './runnable';
export type { Row } from './types';

export interface PlannedQueries {
  /** The page (or rows) query of the root collection, before it runs. */
  readonly rows: Runnable;
  /** The planner's plan of the rows statement (`EXPLAIN (FORMAT JSON)`, not run), for its cost. */
  readonly explainRows: Runnable;
  /** The count of all matching rows, for the envelope: the same filtered and scoped query, counted. */
  readonly count: Runnable;
  /**
   * For a cursor page past a boundary (docs/query-language.md, "Cursors: cursor"): one row, if any,
   * on the boundary's other side. The rows statement reads the boundary row again, which tells it;
   * run only when that row is gone.
   */
  readonly probe?: Runnable;
  /**
   * For `total=estimated` only (docs/query-language.md, "Totals: total=exact, estimated, none"):
   * the count capped at `estimateAbove` + 1 rows, and the planner's plan.
   */
  readonly estimated?: EstimateQueries;
  /**
   * Runs the rows query and loads every expansion into the rows; reports the statements run. A cursor
   * page past a boundary drops the boundary row, read again first (seek.ts), and says whether it was.
   */
  readonly run: (budget?: ResponseBudget) => Promise<{ readonly rows: Row[]; readonly statements: number; readonly readBoundary: boolean }>;
}

export interface EstimateQueries {
  readonly capped: Runnable;
  readonly estimate: Runnable;
}

/** The root's rows and count statements, written without a builder. */
export interface RootStatements {
  readonly rows: Statement;
  readonly count: Statement;
  readonly capped?: Statement;
  readonly estimate?: Statement;
  readonly probe?: Statement;
}

/**
 * `estimateAbove` + 1 when the request asks for an estimated total; the cap a whole-list CSV export
 * counts to (`maxExportRows` + 1, docs/query-language.md, "Export as CSV"); undefined otherwise.
 */
function estimateCap(compiled: CompiledQuery, countCap?: number): number | undefined {
  if (countCap !== undefined) return countCap;
  const { paging } = compiled;
  return paging.kind === 'page' && paging.total.kind === 'estimated' ? paging.total.estimateAbove + 1 : undefined;
}

/**
 * The page as it is sent: formatted after paging when a value needs it or expansions are aggregated
 * into it (aggregated.ts); a cursor page is formatted in it otherwise (compiled.ts): it skips no rows.
 */
function rowsStatement(page: Statement, compiled: CompiledQuery): Statement {
  const { formatted } = compiled.root;
  if (formatted === undefined) return page;
  const { aggregated } = compiled;
  return aggregated === undefined ? formattedStatement(page, formatted) : aggregatedStatement(page, formatted, aggregated.aggregates);
}

/**
 * The root statements' text when a plain model makes a builder unnecessary; undefined otherwise.
 * Assembled for each request from the compiled parts, which keep the shared conditions once.
 */
export function rootStatements(compiled: CompiledQuery, countCap?: number): RootStatements | undefined {
  if (!compiled.plain) return undefined;
  const { root } = compiled;
  const cap = estimateCap(compiled, countCap);
  let count: Statement | undefined;
  let capped: Statement | undefined;
  let estimate: Statement | undefined;
  const joins = root.filtered.length === 0 && root.others.length === 0 ? undefined : [...root.filtered, ...root.others];
  const { cursor } = compiled;
  let probe: Statement | undefined;
  const window = rootWindow(compiled.paging);
  const deferred = defersPage(compiled, window.offset);
  const read = selectStatement({
    select: deferred ? pageKeysSelect(root.catalog) : root.select,
    from: root.from,
    ...(joins === undefined ? {} : { joins }),
    where: seekWhere(root.where, cursor),
    order: cursor?.order ?? root.order,
    ...window,
  });
  // A deep OFFSET page pages the keys alone, then reads their records (deferred.ts).
  const page = deferred ? deferredStatement(root.catalog, root.select, root.from, root.order, read) : read;
  const statements: RootStatements = {
    rows: rowsStatement(page, compiled),
    // Only an envelope whose total the page does not tell needs it: written on first use.
    get count() {
      count ??= countStatement(root.from, root.where, root.filtered);
      return count;
    },
  };
  // Defined, not spread: a spread would read the count getter and write a statement no cursor page runs.
  // The probe too is written on first use: it runs only when the boundary row is gone.
  if (cursor?.seek !== undefined) {
    const seek = cursor;
    return Object.defineProperty(statements, 'probe', {
      enumerable: true,
      get: () => (probe ??= probeStatement(root.from, root.where, seek.probe as Fragment, joins)),
    });
  }
  if (cap === undefined) return statements;
  // total=estimated (docs/query-language.md, "Totals: total=exact, estimated, none"): the capped
  // count and the planner's estimate, written on first use too.
  return Object.defineProperties(statements, {
    capped: { enumerable: true, get: () => (capped ??= cappedCountStatement(root.from, root.where, cap, root.filtered)) },
    estimate: { enumerable: true, get: () => (estimate ??= estimateStatement(root.from, root.where, root.filtered)) },
  });
}

interface BuilderParts {
  readonly where: readonly Fragment[];
  readonly filtered: readonly Fragment[];
  readonly others: readonly Fragment[];
}

/**
 * On the builder path, the root's relation conditions and joins written again around each relation's
 * own query, built and restricted (modify, hooks for `<collection>.<relation>`) for this request.
 */
async function builderParts(root: CompiledRoot, knex: Knex, hook: ScopeHook | undefined): Promise<BuilderParts> {
  const { related } = root;
  if (related === undefined) return root;
  const sources = await builtSources(related, knex, hook);
  const { filtered, others } = splitJoins(related);
  return {
    where: related.groups.map((group) => renderGroup(group, sources.exists)),
    filtered: filtered.map(sources.join),
    others: [...others.map(sources.join), ...(root.ranks ?? [])],
  };
}

/**
 * `filter[id]=>=5&sort[name]=desc&per-page=10` -> a page query and a count query on `users`. With
 * `countCap`, `estimated.capped` counts the matching records up to it.
 */
export async function planQueries(compiled: CompiledQuery, knex: Knex, hook?: ScopeHook, countCap?: number): Promise<PlannedQueries> {
  const { collection, expansions, root } = compiled;
  let rows: Runnable;
  let explainRows: Runnable;
  let count: Runnable;
  let estimated: EstimateQueries | undefined;
  let probe: Runnable | undefined;
  const direct = hook === undefined ? rootStatements(compiled, countCap) : undefined;
  if (direct !== undefined) {
    // Its columns are learnt once per compiled statement (bytes.ts): the aggregates, when there are any, were compiled for this root alone.
    rows = viaText(knex, direct.rows, compiled.aggregated ?? root);
    explainRows = viaText(knex, () => ({ sql: `explain (format json) ${direct.rows.sql}`, bindings: direct.rows.bindings }));
    count = viaText(knex, () => direct.count);
    if (estimateCap(compiled, countCap) !== undefined) {
      estimated = { capped: viaText(knex, () => direct.capped as Statement), estimate: viaText(knex, () => direct.estimate as Statement) };
    }
    if (compiled.cursor?.seek !== undefined) probe = viaText(knex, () => direct.probe as Statement);
  } else {
    const { limit, offset } = rootWindow(compiled.paging);
    const parts = await builderParts(root, knex, hook);
    const base: ModelQuery = collection.modelClass.query(knex);
    applyJoins(base, parts.filtered);
    applyConditions(base, parts.where);
    await hook?.(collection.name, base);
    // Counting the scoped query as a subquery stays right whatever the hook added (joins, distinct).
    count = viaBuilder(knex, knex.count({ count: '*' }).from(base.clone().toKnexQuery().as('counted')));
    const cap = estimateCap(compiled, countCap);
    if (cap !== undefined) {
      // `select 1` as on the text path, unless the hooks chose what is selected (a distinct, say): then what they chose.
      const capped = base.clone();
      if (!capped.hasSelects()) capped.select(knex.raw('1'));
      estimated = {
        capped: viaBuilder(knex, knex.count({ count: '*' }).from(capped.limit(cap).toKnexQuery().as('capped'))),
        estimate: viaExplain(knex, base.clone()),
      };
    }
    const query = base.clone();
    const { cursor } = compiled;
    // A deep OFFSET page pages the keys alone, then reads their records (deferred.ts); not when the
    // hooks chose what is selected (a distinct, say), which the keys alone would change.
    const deferred = defersPage(compiled, offset) && !base.hasSelects();
    applyJoins(query, parts.others);
    applySelectAndOrder(query, knex, deferred ? pageKeysSelect(root.catalog) : root.select, cursor?.order ?? root.order);
    if (cursor?.seek !== undefined) applyConditions(query, [cursor.seek]);
    if (cursor?.probe !== undefined) {
      const probeBase = base.clone();
      applyJoins(probeBase, parts.others);
      probe = viaBuilder(knex, probeBuilder(probeBase, knex, cursor.probe));
    }
    query.limit(limit);
    if (offset > 0) query.offset(offset);
    const page = deferred ? knex.raw(deferredText(root.catalog, root.select, root.from, root.order, '?'), [query.toKnexQuery()]) : query;
    rows =
      root.formatted !== undefined
        ? formattedBuilder(knex, page, root.formatted)
        : 'toKnexQuery' in page
          ? viaBuilder(knex, page)
          : viaRaw(knex, page);
    explainRows = viaExplain(knex, page);
  }
  // On the text path some expansions came in the rows statement; the rest are loaded by their own.
  const aggregated = direct === undefined ? undefined : compiled.aggregated;
  const loading = aggregated?.loaded ?? expansions;
  const run = async (budget?: ResponseBudget) => {
    if (compiled.aliasTerms !== undefined) await refuseTermless(knex, compiled.aliasTerms);
    // The root's records, and those of the expansions aggregated into them, are read within the budget.
    const read =
      budget === undefined
        ? await rows.rows()
        : await budget.read(rows, (got) => [
            { fieldsParameter: 'fields', rowsParameter: budget.rowsParameter, fields: root.output.map((c) => c.name), records: () => got },
            ...aggregatedParts(got, aggregated?.aggregates ?? []),
          ]);
    if (read.length === 0 && compiled.terms !== undefined) await refuseTermless(knex, compiled.terms);
    // A cursor's boundary row read again leaves the rows; rows past the cap (or the row read past a
    // page without a total) are not expanded: they are never shown.
    const readBoundary = isBoundary(compiled.cursor, read[0]);
    const found = readBoundary ? read.slice(1) : read;
    const shown = shownRows(compiled.paging);
    const parents = found.length > shown ? found.slice(0, shown) : found;
    if (aggregated !== undefined) {
      if (budget !== undefined && aggregatesOver(parents, aggregated.aggregates)) budget.refuse();
      attachAggregates(parents, aggregated.aggregates);
    }
    let statements = 1;
    if (parents.length > 0 && loading.length > 0) {
      const loaded = await Promise.all(loading.map((expansion) => loadExpansion(parents, knex, expansion, hook, budget)));
      statements += loaded.reduce((sum, n) => sum + n, 0);
    }
    return { rows: found, statements, readBoundary };
  };
  return { rows, explainRows, count, ...(estimated === undefined ? {} : { estimated }), ...(probe === undefined ? {} : { probe }), run };
}
