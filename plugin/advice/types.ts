// What index advice is made of (docs/installing.md#10-indexes-for-your-declarations): the needs a
// collection's declarations create, the indexes the database already has, and the advice itself.

import type { TableIndex } from '../schema';

/** One key of a btree need: a column, ascending (NULLs last) or descending (NULLs first). */
export interface NeedKey {
  readonly column: string;
  readonly desc: boolean;
  readonly notNull: boolean;
}

/**
 * An index a declared capability wants on `table` (its database name):
 * `ordered`: a btree whose leading keys are `keys` in this order and these directions (or all
 * reversed, read backwards), which serves a sort or an equality filter followed by the primary key;
 * `lookup`: a btree whose leading columns are the `keys` in any order, which serves finding rows by
 * a relation's key; `trigram`: a trigram index on `lower(column)`, which serves `search`.
 */
export interface Need {
  readonly kind: 'ordered' | 'lookup' | 'trigram';
  readonly table: string;
  readonly keys: readonly NeedKey[];
  /** The collection whose requests need it. */
  readonly collection: string;
  /** What it serves, as the query string writes it: `sort[name]=desc`, `expand[posts]`. */
  readonly serves: string;
}

/** An index the database already has on `table` (its database name), read by plugin/schema/indexes.ts. */
export interface ExistingIndex extends TableIndex {
  readonly table: string;
}

/** One index to create, with the requests it serves. */
export interface IndexAdvice {
  /** The first collection (in `collections` order) whose requests need it. */
  readonly collection: string;
  /** Every collection whose requests need it, that one first. */
  readonly collections: readonly string[];
  /** The table as the database names it (`posts`, `cms.articles`). */
  readonly table: string;
  /** The planner's estimate of the table's rows (`pg_class.reltuples`; 0 when never analysed). */
  readonly rows: number;
  readonly name: string;
  /** `CREATE INDEX CONCURRENTLY IF NOT EXISTS ...`, without a closing semicolon. */
  readonly statement: string;
  /** `users: sort[name]=desc`, `users: expand[posts]`, ... */
  readonly serves: readonly string[];
}

/** The advice for every collection, and the statements a migration runs, in order. */
export interface IndexAdviceReport {
  readonly indexes: readonly IndexAdvice[];
  /** `CREATE EXTENSION IF NOT EXISTS pg_trgm` first when a trigram index is advised and pg_trgm is not installed. */
  readonly statements: readonly string[];
}
