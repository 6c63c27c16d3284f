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
  /** json and jsonb (`udt` tells them apart): compared as JSON values (docs/query-language.md, "Enums, arrays and JSON"). */
  | 'json'
  /** A value must be one of `labels`; ordered as they are declared (docs/query-language.md, "Enums, arrays and JSON"). */
  | 'enum'
  /** Elements of `elementType`: conditions test membership, output is a JSON array (docs/query-language.md, "Enums, arrays and JSON"). */
  | 'array'
  /** Any other type (point, inet, interval, ...): compared in its text form. */
  | 'other'
  /** A model's virtual attribute: projectable only, computed by the model (docs/configuration.md, "Your models as they are"). */
  | 'virtual';

/** One field of a scope: a column of its table (or of a relation's join table), or a virtual attribute. */
export interface Column {
  /** The model's property name: what clients write and read, e.g. `firstName` (docs/configuration.md, "Your models as they are"). */
  readonly name: string;
  /** The database column, e.g. `first_name`; empty for a virtual attribute. */
  readonly column: string;
  /** The table holding the column as the model names it (`cms.articles`); a join table for extras. */
  readonly table: string;
  readonly type: ColumnType;
  readonly nullable: boolean;
  /** PostgreSQL's name of the type (`int4`, `mood`, `_text`), after resolving domains. */
  readonly udt: string;
  /** The schema of the type `udt` names (`public` for most enums); casts name it in full. */
  readonly udtSchema?: string;
  /** False for types without an ordering (json, point, ...): never sortable (docs/configuration.md, "Model declarations"). */
  readonly orderable: boolean;
  /**
   * A count read from a grouped left join (docs/query-language.md, "Counting related records"): a
   * record without related records has no row there, so NULL means zero.
   */
  readonly zeroWhenMissing?: boolean;
  /** An enum's labels in their declared order; for an array of enums, its elements' labels. */
  readonly labels?: readonly string[];
  /** An array's element type name after resolving domains (`text` for `text[]`). */
  readonly element?: string;
  /** The schema of the type `element` names. */
  readonly elementSchema?: string;
  /** What an array's elements are checked and shown as. */
  readonly elementType?: ColumnType;
  /**
   * A value the request computes (`_relevance`, `_similarity`): read from the row as it is, never
   * through the model's own JSON, which knows nothing of it.
   */
  readonly computed?: boolean;
  /** How `search` compares it, chosen from the table's indexes at start-up; absent: ILIKE. */
  readonly search?: SearchForm;
}

/**
 * `ilike`: `column ILIKE pattern`, which a trigram index on the column serves; `lower`:
 * `lower(column) LIKE lower(pattern)`, which an index on `lower(column)` serves and which costs less
 * than ILIKE where the table is scanned. Both lower-case with the database's `lower()` under the
 * column's collation (PostgreSQL's ILIKE does exactly that in a multi-byte encoding), so they match
 * the same rows (docs/design/search-comparison.md).
 */
export interface SearchForm {
  readonly kind: 'ilike' | 'lower';
  /** The index the form was chosen for, if one serves it. */
  readonly index?: string;
}

export type ModelClass = typeof Model;

/**
 * A model class as a host hands it to the plugin (`collections`): Objection's `typeof Model`
 * without its static `QueryBuilder`, whose constructor type a host's own query builder may change
 * (a soft-delete builder with a constructor that takes the model class). The plugin only asks a
 * model's `query()` for a builder, so that member is never read as the base type.
 */
export type HostModelClass = Omit<typeof Model, 'QueryBuilder'>;

/** What one scope (a collection, or a relation seen from its owner) lets clients do. */
export interface ScopeCatalog {
  /** `users`, or `users.posts` for a relation. */
  readonly label: string;
  readonly modelClass: ModelClass;
  readonly table: string;
  /** The fields (property names) of the model's `idColumn`: the sort's tie-breaker. */
  readonly idColumns: readonly string[];
  /** Every field by property name: columns, a relation's join-table extras, virtual attributes. */
  readonly columns: ReadonlyMap<string, Column>;
  /** Records go through the model's own JSON (`$formatJson`, virtual attributes): docs/configuration.md, "Your models as they are". */
  readonly viaModel: boolean;
  readonly projectable: readonly string[];
  readonly sortable: readonly string[];
  readonly searchable: readonly string[];
  readonly filterable: readonly string[];
  /** `getFullTextSearch()`: what `match` searches (docs/query-language.md, "Ranked search: match and similar"). */
  readonly fullText?: FullTextCatalog;
  /** Present where pg_trgm is installed: the least similarity `similar` keeps. */
  readonly similarity?: { readonly threshold: number };
}

/**
 * A model's search document: its text fields, each weighted A to D, or a stored `tsvector` column,
 * read with `language` (a text search configuration); `index`, the GIN index found on it.
 */
export interface FullTextCatalog {
  readonly language: string;
  readonly fields?: readonly { readonly column: Column; readonly weight: string }[];
  readonly column?: Column;
  readonly index?: string;
}

export type RelationKind = 'has-one' | 'has-many' | 'belongs-to' | 'many-to-many' | 'has-one-through';

export interface RelationCatalog {
  readonly name: string;
  readonly kind: RelationKind;
  /** `one`: an object or null in each parent; `many`: an array. */
  readonly cardinality: 'one' | 'many';
  readonly scope: ScopeCatalog;
  /** Columns of the owner's table the join needs. */
  readonly ownerKeys: readonly Column[];
  /** Columns of the related table the join needs. */
  readonly relatedKeys: readonly Column[];
  /**
   * `ownerKeys` and the columns they meet (`relatedKeys`, or the join table's `ownerKeys`) have types
   * without an `=` between them (uuid and text): both sides are compared as text (schema/key-types.ts).
   */
  readonly keysAsText: boolean;
  /** many-to-many and has-one-through: the join table between owner and related rows. */
  readonly through?: JoinTableCatalog;
  /** The relation mapping's own `modify`/`filter`, applied to every query for related rows. */
  readonly modify?: RelationModifier;
  /**
   * The related model's own expandable relations, for `<alias>_expand[...]`
   * (docs/query-language.md, "Nested expansion"): one map per model, shared by every path that
   * reaches it (so a cycle of models is a cycle here).
   */
  readonly relations: ReadonlyMap<string, RelationCatalog>;
}

/** `user_roles`: `user_id` points at the owner's `ownerKeys`, `role_id` at the related `relatedKeys`. */
export interface JoinTableCatalog {
  readonly table: string;
  readonly ownerKeys: readonly Column[];
  readonly relatedKeys: readonly Column[];
  /** Its `relatedKeys` and the relation's `relatedKeys` are compared as text (see RelationCatalog.keysAsText). */
  readonly keysAsText: boolean;
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
