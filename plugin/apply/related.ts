// What every statement for an expansion's related rows shares, whatever the parents are: the
// relation's owner-key columns, its join and whether a builder is needed (worked out once per
// relation of the catalog), and the start of the builder the host's hooks see (expansions.ts and
// windows.ts finish it). The scope's select list, conditions and order are the compiled
// expansion's (compiled.ts), which the pipeline keeps.

import type { Knex } from 'knex';
import { usesOwnQueryBuilder, type Column, type RelationCatalog } from '../schema';
import type { CompiledExpansion } from './types';
import { applyConditions, applyJoins, applySelectAndOrder, joinOnBuilder, type ModelQuery, type ScopeHook } from './runnable';
import { keySql } from './sql';
import { joinThrough, ownerAlias } from './statements';

/** What a relation's statements need whatever the query: the same for every request, so worked out once. */
export interface RelationParts {
  /** The columns compared with the parents' keys: `posts.user_id`, or `user_roles.user_id` through a join table. */
  readonly ownerKeyColumns: readonly Column[];
  /** The same, qualified: `"posts"."user_id"` or `"user_roles"."user_id"` (`::text` when compared as text). */
  readonly ownerColumns: readonly string[];
  /** The parents' keys are compared as text (RelationCatalog.keysAsText). */
  readonly keysAsText: boolean;
  /** The columns of each related row that hold its owner's key. */
  readonly keyColumns: readonly string[];
  /** No builder needed: a plain related model, no relation or join-table `modify`. */
  readonly plain: boolean;
  /** ` inner join "user_roles" on ...` for a join-table relation, or `''`. */
  readonly join: string;
}

// Keyed by the catalog's relations, which live as long as the router: bounded by the declarations.
const relationPartsOf = new WeakMap<RelationCatalog, RelationParts>();

export function relationParts(relation: RelationCatalog): RelationParts {
  const known = relationPartsOf.get(relation);
  if (known !== undefined) return known;
  const { through } = relation;
  const ownerKeyColumns = through === undefined ? relation.relatedKeys : through.ownerKeys;
  const made: RelationParts = Object.freeze({
    ownerKeyColumns,
    ownerColumns: ownerKeyColumns.map((column) => keySql(column, relation.keysAsText)),
    keysAsText: relation.keysAsText,
    keyColumns: through === undefined ? relation.relatedKeys.map((key) => key.name) : through.ownerKeys.map((_, i) => ownerAlias(i)),
    plain: usesOwnQueryBuilder(relation.scope.modelClass) && relation.modify === undefined && through?.modify === undefined,
    join: joinThrough(relation),
  });
  relationPartsOf.set(relation, made);
  return made;
}

/**
 * The related model's builder with the compiled select list and order, the join table, the alias's
 * conditions, the relation's `modify` and the host's hooks (awaited, with the relation's path); the
 * caller adds which parents it is for. Wrapped in an object: a builder is thenable, so an async
 * function returning it bare would run it.
 */
export async function relatedBuilder(knex: Knex, expansion: CompiledExpansion, hook?: ScopeHook): Promise<{ query: ModelQuery }> {
  const { relation, scope } = expansion;
  const query: ModelQuery = scope.catalog.modelClass.query(knex);
  applySelectAndOrder(query, knex, scope.select, scope.order);
  // The join table first (its owner keys are selected), so the hooks are handed a whole relation query.
  joinOnBuilder(query, knex, relation);
  // `_relevance` and `_similarity` (ranked.ts), which the select list and order read.
  applyJoins(query, scope.ranks ?? []);
  applyConditions(query, scope.where);
  if (relation.modify !== undefined) query.modify(relation.modify);
  await hook?.(scope.catalog.label, query);
  return { query };
}
