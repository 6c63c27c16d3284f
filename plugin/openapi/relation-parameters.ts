// The parameters that reach a relation's records from the root (decisions.md 36–39): dot paths in
// `filter`, `in`, `between` and `search`, described as EXISTS in words.

import type { RelationCatalog } from '../schema';
import { betweenParameter, column, filterParameter, inParameter, searchParameter, type Parameter, type Subject } from './parameters';
import { isRanged } from './value-forms';

function subject(relation: RelationCatalog, field: string): Subject {
  return {
    key: `${relation.name}.${field}`,
    words: `\`${field}\` of a related \`${relation.name}\` record`,
    note: ` True when at least one related \`${relation.name}\` record (${relation.kind}) satisfies the clause; a record `
      + 'without related records satisfies none. Negated (`and!`, `or!`) it means that no related record satisfies it. '
      + 'Each such clause is tested on its own: two clauses may be satisfied by two different related records.',
  };
}

/** `filter[posts.status]`, `in[posts.status]`, `between[posts.created_at]`, `search[posts.title]`, ... */
export function relationConditionParameters(relation: RelationCatalog): Parameter[] {
  const scope = relation.scope;
  const params: Parameter[] = [];
  for (const field of scope.filterable) params.push(filterParameter(scope, field, subject(relation, field)));
  for (const field of scope.filterable) params.push(inParameter(scope, field, subject(relation, field)));
  for (const field of scope.filterable) {
    if (isRanged(column(scope, field))) params.push(betweenParameter(scope, field, subject(relation, field)));
  }
  for (const field of scope.searchable) {
    params.push(searchParameter([`${relation.name}.${field}`],
      ` Matches a record when at least one related \`${relation.name}\` record matches; related fields and the record's own `
      + 'fields may be listed in one key (`search[name,posts.title]`).'));
  }
  return params;
}
