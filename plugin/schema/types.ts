// The catalog: what each collection and each expandable relation allows, resolved against the
// database's real columns. Built and checked once at start-up; read-only afterwards.

import type { Model } from 'objection';

export type ColumnType =
  | 'smallint'
  | 'integer'
  | 'bigint'
  | 'numeric'
  | 'float'
  | 'text'
  | 'boolean'
  | 'timestamptz'
  | 'timestamp'
  | 'date'
  | 'uuid'
  | 'json'
  | 'other';

export interface Column {
  readonly name: string;
  readonly type: ColumnType;
  readonly nullable: boolean;
}

export type ModelClass = typeof Model;

/** What one scope (a collection, or a relation seen from its owner) lets clients do. */
export interface ScopeCatalog {
  /** `users`, or `users.posts` for a relation. */
  readonly label: string;
  readonly modelClass: ModelClass;
  readonly table: string;
  readonly idColumns: readonly string[];
  readonly columns: ReadonlyMap<string, Column>;
  readonly projectable: readonly string[];
  readonly sortable: readonly string[];
  readonly searchable: readonly string[];
  readonly filterable: readonly string[];
}

export type RelationKind = 'has-one' | 'has-many' | 'belongs-to' | 'many-to-many' | 'has-one-through';

export interface RelationCatalog {
  readonly name: string;
  readonly kind: RelationKind;
  /** `one`: an object or null in each parent; `many`: an array. */
  readonly cardinality: 'one' | 'many';
  readonly scope: ScopeCatalog;
  /** Columns of the owner's table the join needs. */
  readonly ownerKeys: readonly string[];
  /** Columns of the related table the join needs. */
  readonly relatedKeys: readonly string[];
}

export interface CollectionCatalog extends ScopeCatalog {
  readonly name: string;
  readonly relations: ReadonlyMap<string, RelationCatalog>;
}

export type Catalog = ReadonlyMap<string, CollectionCatalog>;
