// How much memory a compiled query holds, estimated from its parts, so the plan cache can be bounded
// in bytes (docs/reliability.md). Counts what the compiled query owns (its text, bindings and the
// objects holding them), not the catalog it points into, which every query shares. The sizes are
// those of a 64-bit V8 heap; the plan-cache test checks the estimate against the heap measured.

import type { CompiledAggregates } from './aggregated';
import type { CompiledQuery, CompiledRoot } from './compiled';
import type { CompiledExpansion, CompiledScope, Fragment } from './types';

const POINTER = 8;
/** An object's header (map, properties, elements), before its fields. */
const HEADER = 24;

const objectBytes = (fields: number): number => HEADER + POINTER * fields;

/** An array object with its separate backing store. */
const arrayBytes = (length: number): number => objectBytes(1) + 16 + POINTER * length;

const roundUp = (bytes: number): number => Math.ceil(bytes / POINTER) * POINTER;

/**
 * One byte per character when every character fits in Latin-1, else two (V8's two string forms),
 * and a header; a string built by concatenation may hold a few more bytes in its pieces.
 */
export function stringBytes(text: string): number {
  // eslint-disable-next-line no-control-regex -- the Latin-1 range starts at U+0000: V8 stores such a string one byte per character
  return 16 + roundUp(/[^\u0000-\u00ff]/.test(text) ? 2 * text.length : text.length);
}

/** Integers of 32 bits live in the array slot itself; other numbers in a heap number. */
const isSmall = (value: number): boolean => Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31;

/** A kept binding besides its slot: its string, a heap number, or nothing (small integers, booleans). */
function valueBytes(value: unknown): number {
  if (typeof value === 'string') return stringBytes(value);
  return typeof value === 'number' && !isSmall(value) ? 16 : 0;
}

function fragmentBytes(fragment: Fragment): number {
  let bytes = objectBytes(2) + stringBytes(fragment.sql) + arrayBytes(fragment.bindings.length);
  for (const value of fragment.bindings) bytes += valueBytes(value);
  return bytes;
}

function scopeBytes(scope: CompiledScope): number {
  let bytes =
    objectBytes(6) +
    stringBytes(scope.from) +
    stringBytes(scope.select) +
    stringBytes(scope.order) +
    arrayBytes(scope.where.length) +
    arrayBytes(scope.output.length);
  const { formatted } = scope;
  if (formatted !== undefined) bytes += objectBytes(3) + stringBytes(formatted.select) + stringBytes(formatted.order);
  for (const key of formatted?.keys ?? []) bytes += stringBytes(key);
  if (formatted?.keys !== undefined) bytes += arrayBytes(formatted.keys.length);
  for (const fragment of scope.where) bytes += fragmentBytes(fragment);
  return bytes;
}

/** A per-parent window: its object and bounds (small integers live in their slots). */
function windowBytes(window: CompiledExpansion['window']): number {
  if (window === undefined) return 0;
  return objectBytes(2) + (window.limit === undefined ? 0 : valueBytes(window.limit)) + valueBytes(window.offset);
}

/** An expansion with its scope, its window and, recursively, its nested expansions. */
function expansionBytes(expansion: CompiledExpansion): number {
  let bytes =
    objectBytes(8) +
    stringBytes(expansion.parameter) +
    scopeBytes(expansion.scope) +
    windowBytes(expansion.window) +
    arrayBytes(expansion.expansions.length);
  // The same string when no alias gives a per-parent limit: counted once.
  if (expansion.limitParameter !== expansion.parameter) bytes += stringBytes(expansion.limitParameter);
  if (expansion.fieldsParameter !== expansion.parameter) bytes += stringBytes(expansion.fieldsParameter);
  for (const nested of expansion.expansions) bytes += expansionBytes(nested);
  return bytes;
}

/**
 * The paging object (counted as before, with room to spare); a page's total mode
 * (docs/query-language.md, "Totals: total=exact, estimated, none") is an object of its own.
 */
function pagingBytes(paging: CompiledQuery['paging']): number {
  if (paging.kind === 'rows') return objectBytes(5);
  if (paging.kind === 'cursor') return objectBytes(3) + (paging.cursor === undefined ? 0 : cursorBytes(paging.cursor));
  return objectBytes(5) + objectBytes(paging.total.kind === 'estimated' ? 2 : 1);
}

/**
 * The root's joins to related records (sorts and counts,
 * docs/query-language.md, "Relations in conditions") and, when it reads related records, the
 * validated conditions and joins the builder path writes again per request: estimated as the text
 * they compile to, which holds the same values, and a few objects per join.
 */
function relatedBytes(root: CompiledRoot): number {
  // Two more fields of the root; a root without joins shares one empty list.
  let bytes = 2 * POINTER;
  if (root.related === undefined) return bytes;
  bytes += arrayBytes(root.filtered.length) + arrayBytes(root.others.length) + POINTER * 2;
  for (const fragment of [...root.filtered, ...root.others]) bytes += fragmentBytes(fragment);
  bytes +=
    objectBytes(2) +
    arrayBytes(root.related.groups.length) +
    arrayBytes(root.related.joins.length) +
    objectBytes(6) * root.related.joins.length;
  for (const fragment of root.where) bytes += fragmentBytes(fragment);
  return bytes;
}

/** A cursor's boundary values (docs/query-language.md, "Cursors: cursor"), kept as validated. */
function cursorBytes(cursor: NonNullable<Extract<CompiledQuery['paging'], { kind: 'cursor' }>['cursor']>): number {
  let bytes = objectBytes(3) + (cursor.at === undefined ? 0 : arrayBytes(cursor.at.length));
  for (const value of cursor.at ?? []) bytes += valueBytes(value);
  return bytes;
}

/** The seek, its probe, the reading order, the key columns and the sort signature of a cursor page. */
function cursorSqlBytes(sql: CompiledQuery['cursor']): number {
  if (sql === undefined) return 0;
  let bytes = objectBytes(5) + stringBytes(sql.order) + arrayBytes(sql.keys.length) + arrayBytes(sql.signature.length);
  for (const text of [...sql.keys, ...sql.signature]) bytes += stringBytes(text);
  for (const fragment of [sql.seek, sql.probe]) bytes += fragment === undefined ? 0 : fragmentBytes(fragment);
  return bytes;
}

/** The expansions read in the root's statement: each one's select entries and join, and the list of the others (their expansions are counted once, with the query's). */
function aggregatedBytes(aggregated: CompiledAggregates | undefined): number {
  if (aggregated === undefined) return 0;
  let bytes = objectBytes(2) + arrayBytes(aggregated.aggregates.length) + arrayBytes(aggregated.loaded.length);
  for (const aggregate of aggregated.aggregates) {
    bytes += objectBytes(4) + stringBytes(aggregate.select) + stringBytes(aggregate.read) + fragmentBytes(aggregate.join);
  }
  return bytes;
}

/** `filter[id]=1` on users -> about 1 KB: mostly the select list of every field. */
export function compiledBytes(compiled: CompiledQuery): number {
  let bytes =
    objectBytes(6) +
    pagingBytes(compiled.paging) +
    cursorSqlBytes(compiled.cursor) +
    scopeBytes(compiled.root) +
    relatedBytes(compiled.root) +
    aggregatedBytes(compiled.aggregated) +
    arrayBytes(compiled.expansions.length);
  for (const expansion of compiled.expansions) bytes += expansionBytes(expansion);
  // Facets and stats: each item's conditions and joins, as text (docs/query-language.md, Facets and stats).
  for (const item of compiled.summary?.items ?? []) {
    bytes += objectBytes(6);
    for (const fragment of [...item.where, ...item.filtered]) bytes += fragmentBytes(fragment);
  }
  return bytes;
}
