// The parameters that reach a relation's records from the root (decisions.md 36–39): dot paths in
// `filter`, `in`, `between` and `search`, described as EXISTS in words.

import type { CollectionCatalog, RelationCatalog } from '../schema';
import {
  betweenParameter,
  column,
  filterParameter,
  inParameter,
  query,
  searchParameter,
  sortParameter,
  type Parameter,
  type Subject,
} from './parameters';
import { isRanged } from './value-forms';

function subject(relation: RelationCatalog, field: string): Subject {
  return {
    key: `${relation.name}.${field}`,
    words: `\`${field}\` of a related \`${relation.name}\` record`,
    note:
      ` True when at least one related \`${relation.name}\` record (${relation.kind}) satisfies the clause; a record ` +
      'without related records satisfies none. Negated (`and!`, `or!`) it means that no related record satisfies it. ' +
      'Each such clause is tested on its own: two clauses may be satisfied by two different related records.',
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
    params.push(
      searchParameter(
        [`${relation.name}.${field}`],
        ` Matches a record when at least one related \`${relation.name}\` record matches; related fields and the record's own ` +
          'fields may be listed in one key (`search[name,posts.title]`).',
      ),
    );
  }
  return params;
}

const quoteList = (names: readonly string[]): string => (names.length === 0 ? 'none' : names.map((n) => `\`${n}\``).join(', '));

/** `has[posts]` and `has![posts]`: a related record satisfying all of the alias's conditions, or none (decisions.md 37). */
export function hasParameters(relation: RelationCatalog): Parameter[] {
  const s = relation.scope;
  const conditions =
    `\`<alias>_filter[<field>]\`, \`<alias>_in[<field>]\`, \`<alias>_between[<field>]\` (${quoteList(s.filterable)}) ` +
    `and \`<alias>_search[<field>]\` (${quoteList(s.searchable)})`;
  const alias = { type: 'string', pattern: '^(?:[A-Za-z][A-Za-z0-9]*)?$' };
  const extensions = {
    allowEmptyValue: true,
    'x-alias-modifiers': {
      filter: [...s.filterable],
      in: [...s.filterable],
      search: [...s.searchable],
      between: s.filterable.filter((f) => isRanged(column(s, f))),
    },
  };
  return [
    query(
      `has[${relation.name}]`,
      `Keep the records that have at least one related \`${relation.name}\` record (${relation.kind}) satisfying all of the alias's ` +
        `conditions together (${conditions}); without an alias, or with an alias without conditions, any related record counts. ` +
        `The alias may be the one of \`expand[${relation.name}]\`: the related records shown are then the ones that qualified.`,
      alias,
      'h',
      extensions,
    ),
    query(
      `has![${relation.name}]`,
      `Keep the records that have no related \`${relation.name}\` record satisfying all of the alias's conditions together ` +
        `(${conditions}); without an alias, the records without any related \`${relation.name}\` record.`,
      alias,
      'h',
      extensions,
    ),
  ];
}

/** `sort[author.name]`: a field of a to-one relation's record, NULL without one (decisions.md 38). */
function relationSortParameters(relation: RelationCatalog): Parameter[] {
  if (relation.cardinality === 'many') return [];
  return relation.scope.sortable.map((field) =>
    sortParameter(
      `${relation.name}.${field}`,
      ` The value is the \`${field}\` of the related \`${relation.name}\` record (${relation.kind}); a record without one, or whose ` +
        'related record is hidden from this client, sorts as NULL (last ascending, first descending).',
    ),
  );
}

/** `count[posts]`: `posts_count` in each record, usable in sort, filter, in and between (decisions.md 39). */
function countParameter(relation: RelationCatalog): Parameter[] {
  if (relation.cardinality === 'one') return [];
  const s = relation.scope;
  const name = `${relation.name}_count`;
  return [
    query(
      `count[${relation.name}]`,
      `Add \`${name}\` (an integer) to each record, after its fields and before its expansions: the number of related ` +
        `\`${relation.name}\` records, of those satisfying the alias's conditions when an alias is given (\`<alias>_filter[<field>]\`, ` +
        `\`<alias>_in[<field>]\`, \`<alias>_between[<field>]\` (${quoteList(s.filterable)}), \`<alias>_search[<field>]\` (${quoteList(s.searchable)})). ` +
        `In the same request \`${name}\` is an integer field for \`sort[${name}]\`, \`filter[${name}]\`, \`in[${name}]\` and \`between[${name}]\`. ` +
        `The alias may be shared with \`expand[${relation.name}]\` and \`has[${relation.name}]\`.`,
      { type: 'string', pattern: '^(?:[A-Za-z][A-Za-z0-9]*)?$' },
      'c',
      {
        allowEmptyValue: true,
        'x-alias-modifiers': {
          filter: [...s.filterable],
          in: [...s.filterable],
          search: [...s.searchable],
          between: s.filterable.filter((f) => isRanged(column(s, f))),
        },
        'x-count-field': name,
      },
    ),
  ];
}

/** Every parameter that reaches the collection's relations from the root. */
export function relationParameters(collection: CollectionCatalog): Parameter[] {
  const relations = [...collection.relations.values()];
  return [
    ...relations.flatMap(relationSortParameters),
    ...relations.flatMap(relationConditionParameters),
    ...relations.flatMap(hasParameters),
    ...relations.flatMap(countParameter),
  ];
}
