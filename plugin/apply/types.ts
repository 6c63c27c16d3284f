// The shapes the SQL stage hands between its files: SQL text with bindings, a scope's statement
// parts, the compiled form of an expansion. A leaf: it imports only the catalog's and the validated
// query's types, so no file here closes an import cycle through a type.

import type { Column, ScopeCatalog } from '../schema';
import type { ExpansionWindow, ValidatedExpansion } from '../validate';

/**
 * SQL text with its bindings, in order: client values (BoundValue), or, on the builder path, the
 * knex query of a relation's records, which knex writes in place of its `?` in parentheses.
 */
export interface Fragment {
  readonly sql: string;
  readonly bindings: readonly unknown[];
}

/** One statement in knex's raw form: `?` placeholders, in order, for `bindings`. */
export interface Statement {
  readonly sql: string;
  readonly bindings: readonly unknown[];
}

export type Row = Record<string, unknown>;

/** The select list and order of the outer statement over the inner statement's rows (`"__kqm_rows"`). */
export interface FormattedRows {
  /** `"id", to_char("created_at" ...) AS "created_at"`: the inner statement's columns by name. */
  readonly select: string;
  /** The inner statement's order over its rows (`"__kqm_rows"."created_at" desc, ...`): the page stays in order. */
  readonly order: string;
  /** Where the inner statement's rows hold the key columns asked for (`"__kqm_rows"."id"`), for what is joined to them. */
  readonly keys?: readonly string[];
}

/** A select-list entry that is read but never shown, e.g. a join table's owner key: its SQL and the name it is read under. */
export interface HiddenColumn {
  readonly sql: string;
  readonly alias: string;
}

/** What one scope contributes to a statement: its select list, conditions and order. */
export interface ScopeSql {
  /** The quoted table, e.g. `"users"`. */
  readonly from: string;
  /** `"users"."id", "users"."name"`: the select list as one text; with `formatted`, what the inner statement reads. */
  readonly select: string;
  /** One fragment per condition group, joined with `and`. */
  readonly where: readonly Fragment[];
  /** `"users"."name" desc, "users"."id" asc`. */
  readonly order: string;
  /** For a paged or windowed statement whose values need formatting: the outer statement that formats its rows (formatted.ts). */
  readonly formatted?: FormattedRows;
}

/** One scope's statement parts, with what its records show. */
export interface CompiledScope extends ScopeSql {
  readonly catalog: ScopeCatalog;
  /** `_relevance` and `_similarity` joined (ranked.ts), with their bindings; absent without them. */
  readonly ranks?: readonly Fragment[];
  /** The fields each record shows, in output order. */
  readonly output: readonly Column[];
}

/** An expansion as validated (its relation, key, row and byte caps, and what a refusal names), compiled to SQL. */
export interface CompiledExpansion extends Pick<
  ValidatedExpansion,
  'relation' | 'parameter' | 'maxRows' | 'limitParameter' | 'maxBytes' | 'fieldsParameter'
> {
  /**
   * Its select list includes the owner keys of its nested expansions and ends with the join table's
   * owner keys (many-to-many, has-one-through). Its catalog's label is the relation's path.
   */
  readonly scope: CompiledScope;
  /** A per-parent window (docs/query-language.md, "Per-parent windows"), on to-many relations only. */
  readonly window?: ExpansionWindow;
  /** The relations expanded in each related record (`<alias>_expand[...]`, docs/query-language.md, "Nested expansion"). */
  readonly expansions: readonly CompiledExpansion[];
}
