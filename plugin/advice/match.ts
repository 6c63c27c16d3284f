// Whether an existing index already serves a need
// (docs/installing.md#10-indexes-for-your-declarations): the same leading keys, or a unique prefix
// that leaves nothing to order.

import type { IndexKey } from '../schema';
import type { ExistingIndex, Need, NeedKey } from './types';

const TRIGRAM = new Set(['gin_trgm_ops', 'gist_trgm_ops']);

/** An ascending key sorts NULLs last and a descending one first, as the plugin's ORDER BY does. */
function sameKey(key: IndexKey, need: NeedKey, reversed: boolean): boolean {
  const desc = need.desc !== reversed;
  return key.column === need.column && key.desc === desc && key.nullsFirst === desc;
}

/** The index's first keys are the need's, all read forwards or all backwards. */
function leads(index: ExistingIndex, keys: readonly NeedKey[]): boolean {
  if (index.method !== 'btree' || index.keys.length < keys.length) return false;
  return [false, true].some((reversed) => keys.every((need, i) => sameKey(index.keys[i] as IndexKey, need, reversed)));
}

/**
 * A unique index on the need's first columns (never NULL) orders rows completely: the keys after
 * them, the primary key among them, never decide an order.
 */
function uniquePrefix(index: ExistingIndex, keys: readonly NeedKey[]): boolean {
  if (!index.unique || index.keys.length >= keys.length) return false;
  const prefix = keys.slice(0, index.keys.length);
  return prefix.every((key) => key.notNull) && leads(index, prefix);
}

/** The index's first columns are the need's, in any order and direction. */
function looksUp(index: ExistingIndex, keys: readonly NeedKey[]): boolean {
  if (index.method !== 'btree' || index.keys.length < keys.length) return false;
  const leading = new Set(index.keys.slice(0, keys.length).map((key) => key.column));
  return keys.every((key) => leading.has(key.column));
}

/** A trigram index on `lower(column)`, or on the column (search then compares with ILIKE: schema/search-indexes.ts). */
function trigramOn(index: ExistingIndex, column: string): boolean {
  return index.keys.some((key) => TRIGRAM.has(key.opclass) && (key.lowered === column || key.column === column));
}

/** `(name, id)` is served by an index on `(name, id, email)` or on `(name DESC, id DESC)`, not by one on `(name)`. */
export function serves(index: ExistingIndex, need: Need): boolean {
  switch (need.kind) {
    case 'ordered':
      return leads(index, need.keys) || uniquePrefix(index, need.keys);
    case 'lookup':
      return looksUp(index, need.keys);
    case 'trigram':
      return need.keys[0] !== undefined && trigramOn(index, need.keys[0].column);
  }
}
