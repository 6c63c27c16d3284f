// Keyset pagination's SQL (docs/query-language.md, "Cursors: cursor"): the condition that seeks
// past a boundary row's sort values, the reading order, and the text columns the next cursors are
// made from. Written over generic sort terms (an expression, its direction, where its NULLs sort,
// how a value is read back as its type), so a key that is a joined or subquery value (a relation
// sort key, a count) is one more term.

import type { SortDirection } from '../syntax';
import { sortSignature, type BoundValue, type OrderKey, type ValidatedCursor } from '../validate';
import { columnSql, fragment, join, quoteIdentifier, textOf, typeSql } from './sql';
import type { Fragment } from './types';

export interface SortTerm {
  /** What the statement orders by: `"users"."name"`; any expression of the root row. */
  readonly sql: string;
  readonly direction: SortDirection;
  /** PostgreSQL's default, which the order keeps (docs/query-language.md, "sort"): last ascending, first descending. */
  readonly nulls: 'first' | 'last';
  /** False when the expression is never NULL: then a row-value comparison is exact. */
  readonly nullable: boolean;
  /** `?::"pg_catalog"."int4"`: a boundary value read back as the expression's own type. */
  readonly placeholder: string;
  /** The value's text form, which the cursor carries (timestamps with microseconds, numerics exact). */
  readonly text: string;
}

/** `{column: users.name, direction: 'desc'}` -> the term ordering by `"users"."name" desc`. */
export function sortTerms(order: readonly OrderKey[]): SortTerm[] {
  return order.map(({ column, direction }) => ({
    sql: columnSql(column),
    direction,
    nulls: direction === 'asc' ? 'last' : 'first',
    nullable: column.nullable,
    placeholder: `?::${typeSql(column)}`,
    text: textOf(column),
  }));
}

/** Reading backwards: every direction turned, and with it (PostgreSQL's default) where NULLs sort. */
export function reversed(terms: readonly SortTerm[]): SortTerm[] {
  return terms.map((term) => ({
    ...term,
    direction: term.direction === 'asc' ? 'desc' : 'asc',
    nulls: term.nulls === 'last' ? 'first' : 'last',
  }));
}

/** `"users"."name" desc, "users"."id" asc`. */
export function orderSql(terms: readonly SortTerm[]): string {
  return terms.map((term) => `${term.sql} ${term.direction}`).join(', ');
}

const FALSE = fragment('false');

/** The term's value comes after `value` in the order; NULLs sort where `nulls` says. */
function after(term: SortTerm, value: BoundValue | null): Fragment {
  if (value === null) return term.nulls === 'last' ? FALSE : fragment(`${term.sql} IS NOT NULL`);
  const beyond = fragment(`${term.sql} ${term.direction === 'asc' ? '>' : '<'} ${term.placeholder}`, [value]);
  return term.nullable && term.nulls === 'last' ? fragment(`(${beyond.sql} OR ${term.sql} IS NULL)`, beyond.bindings) : beyond;
}

/** The term's value is `value` or comes after it; for a term that is never NULL. */
function atOrAfter(term: SortTerm, value: BoundValue): Fragment {
  return fragment(`${term.sql} ${term.direction === 'asc' ? '>=' : '<='} ${term.placeholder}`, [value]);
}

function equal(term: SortTerm, value: BoundValue | null): Fragment {
  return value === null ? fragment(`${term.sql} IS NULL`) : fragment(`${term.sql} = ${term.placeholder}`, [value]);
}

/** `("t"."a", "t"."id") > (?, ?)`: exact when every direction agrees and nothing can be NULL. */
function rowValue(terms: readonly SortTerm[], values: readonly BoundValue[], inclusive: boolean): Fragment {
  const operator = `${terms[0]?.direction === 'desc' ? '<' : '>'}${inclusive ? '=' : ''}`;
  return fragment(`(${terms.map((t) => t.sql).join(', ')}) ${operator} (${terms.map((t) => t.placeholder).join(', ')})`, values);
}

/**
 * Rows after the boundary in the terms' order: `(a > ?) OR (a = ? AND b < ?) OR ...`, led by `a >= ?`
 * (or `<=`) when the first key is never NULL, so an index on it bounds the scan. Behind the bound the
 * disjunction is a filter, written `(...) IS TRUE` (the same rows in a WHERE): PostgreSQL then does
 * not weigh a bitmap scan for each of its arms, which took a third of a deep cursor page's planning
 * and never won over the bounded index scan (docs/design/cursor-page-statements.md).
 */
function expanded(terms: readonly SortTerm[], values: readonly (BoundValue | null)[], inclusive: boolean): Fragment {
  const disjuncts: Fragment[] = [];
  const last = terms.length - 1;
  const lastValue = values[last] ?? null;
  // The boundary row itself: the last key (the primary key's, never NULL) compared with `>=`, or one more disjunct.
  const closed = inclusive && terms[last]?.nullable === false && lastValue !== null;
  terms.forEach((term, i) => {
    const value = values[i] ?? null;
    const step = closed && i === last && value !== null ? atOrAfter(term, value) : after(term, value);
    if (step === FALSE) return;
    const prefix = terms.slice(0, i).map((t, j) => equal(t, values[j] ?? null));
    const all = join([...prefix, step], ' AND ');
    disjuncts.push(fragment(`(${all.sql})`, all.bindings));
  });
  if (inclusive && !closed) {
    const at = join(
      terms.map((t, j) => equal(t, values[j] ?? null)),
      ' AND ',
    );
    disjuncts.push(fragment(`(${at.sql})`, at.bindings));
  }
  if (disjuncts.length === 0) return FALSE;
  const any = join(disjuncts, ' OR ');
  const first = terms[0];
  const head = values[0];
  if (first === undefined || first.nullable || head === null || head === undefined) return fragment(`(${any.sql})`, any.bindings);
  const bound = `${first.sql} ${first.direction === 'asc' ? '>=' : '<='} ${first.placeholder}`;
  return fragment(`(${bound} AND (${any.sql}) IS TRUE)`, [head, ...any.bindings]);
}

/**
 * The rows past `values` in the order of `terms` (already turned for a backward page); `inclusive`:
 * the boundary row itself too (`>=` for a row value, one more disjunct with every key equal).
 */
export function seekPast(terms: readonly SortTerm[], values: readonly (BoundValue | null)[], inclusive = false): Fragment {
  const agree = terms.every((t) => t.direction === terms[0]?.direction);
  const exact = agree && terms.every((t) => !t.nullable) && values.every((v) => v !== null);
  return exact ? rowValue(terms, values, inclusive) : expanded(terms, values, inclusive);
}

/**
 * The rows up to the boundary, itself included: everything the seek leaves out (`IS NOT TRUE`, so
 * NULLs count), bounded by the first key (`a <= ?` reading ascending) when it is never NULL, so that
 * an index on it bounds the probe's scan as it bounds the page's; without the bound PostgreSQL may read
 * every matching row before finding the one that is there.
 */
function notPast(terms: readonly SortTerm[], values: readonly (BoundValue | null)[], seek: Fragment): Fragment {
  const complement = `(${seek.sql}) IS NOT TRUE`;
  const first = terms[0];
  const head = values[0];
  if (first === undefined || first.nullable || head === null || head === undefined) return fragment(complement, seek.bindings);
  const bound = `${first.sql} ${first.direction === 'asc' ? '<=' : '>='} ${first.placeholder}`;
  return fragment(`(${bound} AND ${complement})`, [head, ...seek.bindings]);
}

/** Where each term's text form is read, beside the record's fields (never shown). */
export const keyAlias = (index: number): string => `__kqm_k${index}`;

/** What a cursor page's statements add to the root's: reading order, seek, probe and key columns. */
export interface CursorSql {
  /** The order rows are read in: the request's, or turned for a backward page. */
  readonly order: string;
  /**
   * Where the page starts: at the boundary row, itself included, so that reading it again tells that
   * a record lies behind the page; undefined from the start or the end of the results.
   */
  readonly seek: Fragment | undefined;
  /**
   * The rows on the other side of the boundary, itself included, whose existence the envelope's other
   * link needs: asked on its own only when the boundary row is no longer read (deleted, or changed
   * since); undefined without a boundary.
   */
  readonly probe: Fragment | undefined;
  /** The boundary row's keys as the cursor holds them (the text forms of `keys`); undefined without a boundary. */
  readonly boundary: readonly (string | null)[] | undefined;
  /** `to_char(...) AS "__kqm_k0"`, ...: select-list entries for the cursors. */
  readonly keys: readonly string[];
  /** The sort the cursors record, e.g. `['name:desc', 'id:asc']`. */
  readonly signature: readonly string[];
  /** The request's sort keys, which a later request's cursor on the same query is checked against (prepared.ts). */
  readonly sort: readonly OrderKey[];
  /** The sort terms in the reading order, from which a later request's seek is written (`cursorSqlAt`). */
  readonly reading: readonly SortTerm[];
}

/** `sort[name]=desc` with a `prev` cursor at `['Bob', 2]` -> read `name asc, id desc` where `(name > ? OR ... OR (name = ? AND id = ?))`. */
export function cursorSql(order: readonly OrderKey[], cursor: ValidatedCursor | undefined): CursorSql {
  const terms = sortTerms(order);
  const reading = cursor?.direction === 'prev' ? reversed(terms) : terms;
  const keys = terms.map((term, i) => `${term.text} AS ${quoteIdentifier(keyAlias(i))}`);
  const parts = {
    order: orderSql(reading),
    keys: Object.freeze(keys),
    signature: Object.freeze(sortSignature(order)),
    sort: order,
    reading: Object.freeze(reading),
  };
  return seekFrom(parts, cursor);
}

/**
 * The same query's seek for another cursor in the same direction (a later page of a kept query,
 * prepared.ts): only what depends on the boundary values is written again.
 */
export function cursorSqlAt(sql: CursorSql, cursor: ValidatedCursor): CursorSql {
  return seekFrom(sql, cursor);
}

type SeekParts = Pick<CursorSql, 'order' | 'keys' | 'signature' | 'sort' | 'reading'>;

function seekFrom(parts: SeekParts, cursor: ValidatedCursor | undefined): CursorSql {
  const { reading } = parts;
  const at = cursor?.at;
  // From the start or the end nothing lies on the other side; past a boundary, the rows up to it
  // (itself included), written on first use: the probe runs only when the boundary row is gone.
  let probe: Fragment | undefined;
  return Object.freeze({
    order: parts.order,
    seek: at === undefined ? undefined : seekPast(reading, at, true),
    get probe() {
      if (at !== undefined) probe ??= notPast(reading, at, seekPast(reading, at));
      return probe;
    },
    boundary: at === undefined ? undefined : cursor?.texts,
    keys: parts.keys,
    signature: parts.signature,
    sort: parts.sort,
    reading,
  });
}

/**
 * The key columns' text forms of a row (`__kqm_k<n>`): what a cursor at that row holds. Read as text
 * (the select list's text forms), so a string whatever the driver; anything else written as JSON.
 */
export function keyTexts(row: Readonly<Record<string, unknown>>, count: number): (string | null)[] {
  return Array.from({ length: count }, (_, i) => {
    const value = row[keyAlias(i)];
    if (value === null || value === undefined) return null;
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

/**
 * Whether a row read is the cursor's boundary row: its key texts are the cursor's values, the
 * primary key among them. `row` may be undefined (nothing was read).
 */
export function isBoundary(sql: CursorSql | undefined, row: Readonly<Record<string, unknown>> | undefined): boolean {
  const boundary = sql?.boundary;
  if (boundary === undefined || row === undefined) return false;
  return keyTexts(row, boundary.length).every((text, i) => text === boundary[i]);
}
