// The form of a validated query that the pipeline keeps between requests: the text of each
// statement's parts (select list, one fragment per condition group, order) with their bindings, the
// fields each record shows and the paging, and nothing of how the query was written (no clauses, no
// operands, no key/value pairs). Statements are assembled from these parts for each request, so the
// conditions shared by the rows and count statements are kept once.

import type { CollectionCatalog, Column, RelationCatalog, ScopeCatalog } from '../schema';
import type { ValidatedExpansion, ValidatedPaging, ValidatedQuery, ValidatedScope } from '../validate';
import { ownerSelect, scopeSql, type ScopeSql } from './statements';

/** One scope's statement parts, with what its records show. */
export interface CompiledScope extends ScopeSql {
  readonly catalog: ScopeCatalog;
  /** The fields each record shows, in output order. */
  readonly output: readonly Column[];
}

export interface CompiledExpansion {
  readonly relation: RelationCatalog;
  /** The key that asked for it, e.g. `expand[posts]`, for problems. */
  readonly parameter: string;
  /** Most related records loaded for all parents together (decisions.md 42). */
  readonly maxRows: number;
  /** Its select list ends with the join table's owner keys (many-to-many, has-one-through). */
  readonly scope: CompiledScope;
}

export interface CompiledQuery {
  readonly collection: CollectionCatalog;
  /** Its select list includes the join keys the expansions need. */
  readonly root: CompiledScope;
  readonly expansions: readonly CompiledExpansion[];
  readonly paging: ValidatedPaging;
}

function compileScope(scope: ValidatedScope, keys: readonly Column[], extra: readonly string[] = []): CompiledScope {
  const { from, select, where, order } = scopeSql(scope, keys, extra);
  // The output list is copied: validate/ may have grown it with room to spare.
  const output = Object.freeze([...scope.output]);
  return Object.freeze({ from, select, where: Object.freeze(where), order, catalog: scope.catalog, output });
}

function compileExpansion(expansion: ValidatedExpansion): CompiledExpansion {
  const { relation, parameter, maxRows, scope } = expansion;
  const keys = relation.through === undefined ? relation.relatedKeys : [];
  return Object.freeze({ relation, parameter, maxRows, scope: compileScope(scope, keys, ownerSelect(relation)) });
}

/** `filter[id]=>=5&per-page=10` on users -> the parts of its rows and count statements, for every later request. */
export function compileQuery(validated: ValidatedQuery): CompiledQuery {
  const { collection, root, expansions, paging } = validated;
  return Object.freeze({
    collection,
    root: compileScope(root, expansions.flatMap((e) => e.relation.ownerKeys)),
    expansions: Object.freeze(expansions.map(compileExpansion)),
    paging,
  });
}
