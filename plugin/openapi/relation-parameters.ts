// The keys that reach a relation's records from the root (docs/query-language.md, relations): dot
// paths in `filter`, `in`, `between`, `search` and (to-one) `sort`, and the relation keys of
// `expand`, `has`, `has!` and `count`, with what each alias may use.

import type { RelationCatalog } from '../schema';
import { aliasSchema, betweenKey, column, filterKey, inKey, searchKey, sortKey, type KeyEntry, type Subject } from './parameters';
import { isRanged, type JsonSchema } from './value-forms';
import { rankedAliasWords } from './ranked';

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

/** The dot-path keys of one relation per family: `posts.status` of `filter`, `author.name` of `sort`, ... */
export interface RelationKeys {
  readonly filter: readonly KeyEntry[];
  readonly in: readonly KeyEntry[];
  readonly between: readonly KeyEntry[];
  readonly search: readonly KeyEntry[];
  readonly sort: readonly KeyEntry[];
}

export function relationKeys(relation: RelationCatalog): RelationKeys {
  const scope = relation.scope;
  const ranged = scope.filterable.filter((field) => isRanged(column(scope, field)));
  const searchNote =
    ` Matches a record when at least one related \`${relation.name}\` record matches; related fields and the record's own ` +
    'fields may be listed in one key (`search[name,posts.title]`).';
  const sortNote = (field: string) =>
    ` The value is the \`${field}\` of the related \`${relation.name}\` record (${relation.kind}); a record without one, or whose ` +
    'related record is hidden from this client, sorts as NULL (last ascending, first descending).';
  return {
    filter: scope.filterable.map((field) => filterKey(scope, field, subject(relation, field))),
    in: scope.filterable.map((field) => inKey(scope, field, subject(relation, field))),
    between: ranged.map((field) => betweenKey(scope, field, subject(relation, field))),
    search: scope.searchable.map((field) => searchKey([`${relation.name}.${field}`], searchNote)),
    // Only a to-one relation has one value to sort by.
    sort: relation.cardinality === 'many' ? [] : scope.sortable.map((field) => sortKey(`${relation.name}.${field}`, sortNote(field))),
  };
}

const quoteList = (names: readonly string[]): string => (names.length === 0 ? 'none' : names.map((n) => `\`${n}\``).join(', '));

/** What an alias of `relation` may use in `has`, `has!` and `count`: its conditions' fields. */
export function conditionModifiers(relation: RelationCatalog): JsonSchema {
  const s = relation.scope;
  return {
    filter: [...s.filterable],
    in: [...s.filterable],
    search: [...s.searchable],
    between: s.filterable.filter((f) => isRanged(column(s, f))),
  };
}

/**
 * What an alias of `relation` takes in `expand`, as lists of fields per modifier, whether it takes a
 * per-parent window (`limit`/`offset`, to-many only) and, while the depth cap allows, the relations
 * its `<alias>_expand[...]` may name with theirs.
 */
export function aliasModifiers(relation: RelationCatalog, levelsLeft: number): JsonSchema {
  const s = relation.scope;
  const nested = levelsLeft > 1 ? [...relation.relations.values()] : [];
  return {
    fields: [...s.projectable],
    sort: [...s.sortable],
    ...conditionModifiers(relation),
    window: relation.cardinality === 'many',
    expand: Object.fromEntries(nested.map((r) => [r.name, aliasModifiers(r, levelsLeft - 1)])),
  };
}

export function expandKey(relation: RelationCatalog, maxExpandDepth: number): KeyEntry {
  const s = relation.scope;
  const shape = relation.cardinality === 'many' ? 'an array (possibly empty)' : 'an object or null';
  const window =
    relation.cardinality === 'many'
      ? "`<alias>_limit` and `<alias>_offset` (non-negative integers) pick each record's related records, in `<alias>_sort` order. "
      : '';
  const nested = [...relation.relations.keys()];
  const deeper =
    maxExpandDepth > 1 && nested.length > 0
      ? `\`<alias>_expand[<relation>]=<alias2>\` (${quoteList(nested)}) expands their relations in turn, with the same alias modifiers, ` +
        `at most ${maxExpandDepth} levels deep. `
      : '';
  return {
    key: relation.name,
    description:
      `Embed the ${relation.kind} relation \`${relation.name}\` in each record under \`${relation.name}\` (${shape}). ` +
      'The optional value is an alias (`[A-Za-z][A-Za-z0-9]*`) that enables alias modifiers for this relation: ' +
      `\`<alias>_fields\` / \`<alias>_fields!\` (fields: ${quoteList(s.projectable)}), ` +
      `\`<alias>_sort[<field>]\` (${quoteList(s.sortable)}), \`<alias>_search[<field>]\` (${quoteList(s.searchable)}), ` +
      `\`<alias>_filter[<field>]\`, \`<alias>_in[<field>]\`, \`<alias>_between[<field>]\` (${quoteList(s.filterable)}). ` +
      window +
      rankedAliasWords(s) +
      deeper +
      'They follow the rules of the root modifiers and never remove parent records.',
    schema: aliasSchema,
    example: 'r',
  };
}

function conditionWords(relation: RelationCatalog): string {
  const s = relation.scope;
  return (
    `\`<alias>_filter[<field>]\`, \`<alias>_in[<field>]\`, \`<alias>_between[<field>]\` (${quoteList(s.filterable)}) ` +
    `and \`<alias>_search[<field>]\` (${quoteList(s.searchable)})`
  );
}

export function hasKey(relation: RelationCatalog): KeyEntry {
  return {
    key: relation.name,
    description:
      `Keep the records that have at least one related \`${relation.name}\` record (${relation.kind}) satisfying all of the alias's ` +
      `conditions together (${conditionWords(relation)}); without an alias, or with an alias without conditions, any related record ` +
      `counts. The alias may be the one of \`expand[${relation.name}]\`: the related records shown are then the ones that qualified.`,
    schema: aliasSchema,
    example: 'h',
  };
}

export function hasNotKey(relation: RelationCatalog): KeyEntry {
  return {
    key: relation.name,
    description:
      `Keep the records that have no related \`${relation.name}\` record satisfying all of the alias's conditions together ` +
      `(${conditionWords(relation)}); without an alias, the records without any related \`${relation.name}\` record.`,
    schema: aliasSchema,
    example: 'h',
  };
}

export const countField = (relation: RelationCatalog): string => `${relation.name}_count`;

export function countKey(relation: RelationCatalog): KeyEntry {
  const name = countField(relation);
  return {
    key: relation.name,
    description:
      `Add \`${name}\` (an integer) to each record, after its fields and before its expansions: the number of related ` +
      `\`${relation.name}\` records, of those satisfying the alias's conditions when an alias is given (${conditionWords(relation)}). ` +
      `In the same request \`${name}\` is an integer field for \`sort[${name}]\`, \`filter[${name}]\`, \`in[${name}]\` and \`between[${name}]\`. ` +
      `The alias may be shared with \`expand[${relation.name}]\` and \`has[${relation.name}]\`.`,
    schema: aliasSchema,
    example: 'c',
  };
}
