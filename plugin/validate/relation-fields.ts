// Resolves a dot path (`posts.status`) at the root: the relation must be expandable and the field in
// that relation's list for the modifier (docs/query-language.md, "Relations in conditions").
// Everything else, an unknown relation or two levels included, is FIELD_NOT_ALLOWED with the dot
// paths that modifier accepts.

import { problem, type Problem } from '../errors';
import type { Column, RelationCatalog } from '../schema';

export type RelationCapability = 'filterable' | 'searchable' | 'sortable';

/** A field of a relation's records, as a dot path names it. */
export interface RelationField {
  readonly relation: RelationCatalog;
  readonly column: Column;
}

const words: Readonly<Record<RelationCapability, string>> = {
  filterable: 'filtered on',
  searchable: 'searched',
  sortable: 'sorted on',
};

/**
 * Sort follows a relation only to one record
 * (docs/query-language.md, "Sorting by a related record"): to-many relations sort by their count.
 */
const reaches = (relation: RelationCatalog, capability: RelationCapability): boolean =>
  capability !== 'sortable' || relation.cardinality === 'one';

/** `posts.status`, `posts.title`, ...: the dot paths of `relations` allowed for `capability`. */
export function dotPaths(relations: Iterable<RelationCatalog>, capability: RelationCapability): string[] {
  return [...relations].flatMap((relation) =>
    reaches(relation, capability) ? relation.scope[capability].map((field) => `${relation.name}.${field}`) : [],
  );
}

/**
 * `posts.status` -> the relation `posts` and its column `status`, or a FIELD_NOT_ALLOWED problem whose
 * `allowed` lists the named relation's dot paths (every relation's when the name is not one).
 */
export function relationField(
  label: string,
  relations: ReadonlyMap<string, RelationCatalog>,
  name: string,
  capability: RelationCapability,
  parameter: string,
  problems: Problem[],
): RelationField | undefined {
  const dot = name.indexOf('.');
  const relation = relations.get(name.slice(0, dot));
  const field = name.slice(dot + 1);
  const column = relation?.scope.columns.get(field);
  if (relation !== undefined && column !== undefined && reaches(relation, capability) && relation.scope[capability].includes(field)) {
    return { relation, column };
  }
  const allowed = dotPaths(relation === undefined ? relations.values() : [relation], capability);
  const toMany =
    capability === 'sortable' && relation?.cardinality === 'many'
      ? `; ${relation.name} is a to-many relation: sort by its count with count[${relation.name}] and sort[${relation.name}_count]`
      : '';
  const none = allowed.length === 0 && toMany === '' ? '; no related field can' : '';
  problems.push(
    problem(
      'FIELD_NOT_ALLOWED',
      parameter,
      `\`${parameter}\`: "${name}" cannot be ${words[capability]} in ${relation?.scope.label ?? label}${toMany}${none}`,
      allowed,
    ),
  );
  return undefined;
}
