// The catalog: what each collection and each expandable relation allows, resolved against the
// database's real columns. Built and checked once at start-up; read-only afterwards.

import type { Model, QueryBuilder } from 'objection';

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
  /** many-to-many and has-one-through: the join table between owner and related rows. */
  readonly through?: JoinTableCatalog;
  /** The relation mapping's own `modify`/`filter`, applied to every query for related rows. */
  readonly modify?: RelationModifier;
}

/** `user_roles`: `user_id` points at the owner's `ownerKeys`, `role_id` at the related `relatedKeys`. */
export interface JoinTableCatalog {
  readonly table: string;
  readonly ownerKeys: readonly string[];
  readonly relatedKeys: readonly string[];
  readonly modelClass: ModelClass;
  /** The mapping's `join.through.modify`/`filter`, applied to the join table. */
  readonly modify?: RelationModifier;
}

/** A modifier as Objection resolved it from a relation mapping. */
export type RelationModifier = (query: QueryBuilder<Model, Model[]>) => unknown;

export interface CollectionCatalog extends ScopeCatalog {
  readonly name: string;
  readonly relations: ReadonlyMap<string, RelationCatalog>;
}

export type Catalog = ReadonlyMap<string, CollectionCatalog>;
