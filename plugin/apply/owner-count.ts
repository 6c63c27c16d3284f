// The total of a page whose one condition is a relation condition (`filter[posts.status]=draft`,
// `has[posts]=p&p_filter[...]`), counted from the related rows alone: the number of distinct owner
// keys among the related records that match. That equals the number of records with such a related
// record only where every related row has exactly one owner record, which an enforced foreign key
// onto a unique owner key guarantees (schema/foreign-keys.ts); PostgreSQL then reads the related
// rows once instead of testing every record (docs/design/relation-conditions.md).

import type { CompiledRoot } from './compiled';
import { derivedText, plainRelation } from './related-rows';
import { quoteIdentifier } from './sql';
import type { Statement } from './statements';

const related = quoteIdentifier('__kqm_r');
const ownerKey = quoteIdentifier('__kqm_k0');

/**
 * `filter[posts.status]=draft` on users, posts.user_id an enforced foreign key onto users.id ->
 * `select count(distinct "__kqm_r"."__kqm_k0") as "count" from (select "posts"."user_id" as "__kqm_k0"
 * from "posts" where …) as "__kqm_r"`; undefined when the root has other conditions or joins, or the
 * relation's key is not enforced (the caller then counts the records).
 */
export function ownerCountStatement(root: CompiledRoot): Statement | undefined {
  const { related: relations } = root;
  if (relations === undefined || relations.joins.length > 0 || root.filtered.length > 0 || relations.groups.length !== 1) return undefined;
  const alternatives = relations.groups[0]?.anyOf ?? [];
  const term = alternatives.length === 1 && alternatives[0]?.length === 1 ? alternatives[0][0] : undefined;
  if (term === undefined || term.negated || term.condition.kind !== 'exists') return undefined;
  const rows = term.condition.related;
  const { relation } = rows;
  if (relation.keyEnforced !== true || relation.keysAsText || relation.through !== undefined || !plainRelation(relation)) return undefined;
  const derived = derivedText(rows);
  return { sql: `select count(distinct ${related}.${ownerKey}) as "count" from ${derived.sql} as ${related}`, bindings: derived.bindings };
}
